"""HTML from feeds and pages is untrusted: an allowlist sanitizer runs before storage."""

from __future__ import annotations

import html
import re
from urllib.parse import urljoin

import nh3

ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "caption", "cite", "code", "dd", "del", "details",
    "div", "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i",
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
# A tag, quoted attribute values and all.
_TAG = re.compile(r'<(?:[^>"]|"[^"]*")*>')
_SPACE = re.compile(r"\s+")


URL_SCHEMES = {"http", "https", "mailto"}

# nh3 serializes what it keeps one way: lower-case tag and attribute names, every value in
# double quotes with "&", '"', "<" and ">" escaped, "<" escaped in text, comments gone. So a
# kept tag is matched exactly by a pattern, and one that carries a URL attribute not already
# absolute (http(s)://, mailto:) is found without running Python for other tags or attributes.
_ATTRIBUTE = r'\s[a-z-]+="[^"]*"'
_TAG_WITH_RELATIVE_URL = re.compile(
    rf'<[a-z][a-z0-9]*(?:{_ATTRIBUTE})*?\s(?:href|src|cite)="(?!https?://|mailto:)[^"]*"'
    rf"(?:{_ATTRIBUTE})*\s*/?>"
)
_URL_ATTRIBUTE = re.compile(r'\s(href|src|cite)="([^"]*)"')


def _absolute_url(value: str, base_url: str) -> str | None:
    """`value` resolved against `base_url`, or None when that is no http(s)/mailto URL."""
    try:
        absolute = urljoin(base_url, value.strip())
    except ValueError:  # e.g. an unbalanced "[" in the host part
        return None
    scheme = absolute.split(":", 1)[0].lower() if ":" in absolute else ""
    return absolute if scheme in URL_SCHEMES else None


def _resolve_relative_urls(cleaned: str, base_url: str) -> str:
    """Make the relative URLs of nh3's output absolute against `base_url`, dropping those
    that still are not http(s)/mailto. nh3 lets relative URLs through as they are; shown on our
    pages they would point into this site ("/logout", "/img/x.png")."""

    def resolve_attribute(match: re.Match) -> str:
        if match.group(2).startswith(("http://", "https://", "mailto:")):
            return match.group()
        absolute = _absolute_url(html.unescape(match.group(2)), base_url)
        if absolute is None:
            return ""
        escaped = absolute.replace("&", "&amp;").replace('"', "&quot;")
        return f' {match.group(1)}="{escaped}"'

    def resolve_tag(match: re.Match) -> str:
        return _URL_ATTRIBUTE.sub(resolve_attribute, match.group())

    return _TAG_WITH_RELATIVE_URL.sub(resolve_tag, cleaned)


def sanitize_html(fragment: str, *, base_url: str = "") -> str:
    """Keep structure and links; drop scripts, styles, forms, event handlers, svg/math and any
    URL scheme other than http, https and mailto. With `base_url`, relative URLs are resolved
    against it; links that are still not absolute http(s)/mailto are dropped."""
    if not fragment:
        return ""
    cleaned = nh3.clean(
        fragment,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    )
    return _resolve_relative_urls(cleaned, base_url) if base_url else cleaned


# Text is taken from the start of long HTML first: a description keeps 2,000 characters, and
# a feed's full-article summary can be a hundred times that.
_PREFIX_PER_TEXT_CHAR = 8
_BLOCK_TAG = re.compile(rf'</?(?:{"|".join(sorted(_BLOCK_TAGS))})\b(?:[^>"]|"[^"]*")*>')


def _head(markup: str, limit: int) -> str:
    """The start of long `markup`, cut before its last tag and any entity it splits."""
    head = markup[: limit * _PREFIX_PER_TEXT_CHAR]
    head = head[: max(0, head.rfind("<"))] or head
    if head.rfind("&") > head.rfind(";"):
        head = head[: head.rfind("&")]
    return head


def _text_head_first(markup: str, limit: int | None, to_text) -> str:
    """`to_text(markup)`, or with `limit` the text of just the start of long `markup` when
    that already holds `limit` characters."""
    if limit and len(markup) > limit * _PREFIX_PER_TEXT_CHAR:
        text = to_text(_head(markup, limit))
        if len(text) >= limit:
            return text
    return to_text(markup)


def html_to_text(fragment: str, *, limit: int | None = None) -> str:
    """Plain text for titles, summaries and scoring: tags removed, entities decoded once. With
    `limit`, at least the first `limit` characters of it (all of it when shorter)."""
    if not fragment:
        return ""
    return _text_head_first(fragment, limit, _text_of_fragment)


def text_of_sanitized(cleaned: str, *, limit: int | None = None) -> str:
    """What html_to_text() gives for the fragment sanitize_html() turned into `cleaned`,
    without parsing it again: the allowlist keeps every block tag, and nh3's output is
    serialized the one way _TAG and _BLOCK_TAG expect."""
    return _text_head_first(cleaned, limit, _text_of_cleaned)


def _text_of_fragment(fragment: str) -> str:
    # Keep block tags through the clean so they can become spaces ("<p>a</p><p>b</p>" is "a b").
    return _text_of_cleaned(nh3.clean(fragment, tags=_BLOCK_TAGS, attributes={}))


def _text_of_cleaned(cleaned: str) -> str:
    text = html.unescape(_TAG.sub("", _BLOCK_TAG.sub(" ", cleaned)))
    return _SPACE.sub(" ", text).strip()
