"""HTML from feeds and pages is untrusted: an allowlist sanitizer runs before storage."""

from __future__ import annotations

import html
import re

import nh3

ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "caption", "cite", "code", "dd", "del", "details",
    "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i",
    "img", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "s", "small", "strong", "sub",
    "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr", "u", "ul",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "abbr": {"title"},
    "img": {"src", "alt", "title", "width", "height"},
    "td": {"colspan", "rowspan"},
    "th": {"colspan", "rowspan", "scope"},
    "time": {"datetime"},
    "blockquote": {"cite"},
    "q": {"cite"},
}
_BLOCK_TAGS = {"p", "br", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "td", "tr", "blockquote"}
_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")


def sanitize_html(fragment: str) -> str:
    """Keep structure and links; drop scripts, styles, forms, event handlers, svg/math and any
    URL scheme other than http, https and mailto."""
    if not fragment:
        return ""
    return nh3.clean(
        fragment,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    )


def html_to_text(fragment: str) -> str:
    """Plain text for titles, summaries and scoring: tags removed, entities decoded once."""
    if not fragment:
        return ""
    # Keep block tags through the clean so they can become spaces ("<p>a</p><p>b</p>" is "a b").
    cleaned = nh3.clean(fragment, tags=_BLOCK_TAGS, attributes={})
    text = html.unescape(_TAG.sub(" ", cleaned))
    return _SPACE.sub(" ", text).strip()
