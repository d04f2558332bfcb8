"""HTML from feeds and pages is untrusted: an allowlist sanitizer runs before storage."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from urllib.parse import urljoin

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


URL_SCHEMES = {"http", "https", "mailto"}
_URL_ATTRIBUTES = {"href", "src", "cite"}


def _absolute_url_filter(base_url: str) -> Callable[[str, str, str], str | None]:
    """nh3 attribute filter that makes relative URLs absolute against `base_url`.

    nh3 lets relative URLs through as they are; shown on our pages they would point into this
    site ("/logout", "/img/x.png"). The filter runs after nh3's scheme check, so it re-checks
    the scheme of what it returns."""

    def resolve(tag: str, attribute: str, value: str) -> str | None:
        if attribute not in _URL_ATTRIBUTES:
            return value
        try:
            absolute = urljoin(base_url, value.strip())
        except ValueError:  # e.g. an unbalanced "[" in the host part
            return None
        scheme = absolute.split(":", 1)[0].lower() if ":" in absolute else ""
        return absolute if scheme in URL_SCHEMES else None

    return resolve


def sanitize_html(fragment: str, *, base_url: str = "") -> str:
    """Keep structure and links; drop scripts, styles, forms, event handlers, svg/math and any
    URL scheme other than http, https and mailto. With `base_url`, relative URLs are resolved
    against it; links that are still not absolute http(s)/mailto are dropped."""
    if not fragment:
        return ""
    return nh3.clean(
        fragment,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
        attribute_filter=_absolute_url_filter(base_url) if base_url else None,
    )


def html_to_text(fragment: str) -> str:
    """Plain text for titles, summaries and scoring: tags removed, entities decoded once."""
    if not fragment:
        return ""
    # Keep block tags through the clean so they can become spaces ("<p>a</p><p>b</p>" is "a b").
    cleaned = nh3.clean(fragment, tags=_BLOCK_TAGS, attributes={})
    text = html.unescape(_TAG.sub(" ", cleaned))
    return _SPACE.sub(" ", text).strip()
