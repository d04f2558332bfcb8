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


# Bounds before nh3 sees markup. Its HTML parser takes time quadratic in the depth of open
# elements (80,000 nested <div> took 26 s, 20,000 <b> with distinct attributes 12 s), so a
# hostile feed under the 5 MB cap could hold a worker for minutes. Real articles nest a few
# dozen levels; tags opened deeper than MAX_NESTING_DEPTH are dropped (their text is kept). And
# no one field is read beyond MAX_MARKUP_CHARS (a feed's full-article body is ~100 KB at most).
MAX_NESTING_DEPTH = 256
MAX_MARKUP_CHARS = 1_000_000
# Elements that never hold others (HTML's void elements): they add no depth.
_VOID_TAGS = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "keygen",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)
# Where a tag starts: its end is found only for the tags dropped, so a run of "<a" with no ">"
# costs no backtracking.
_TAG_START = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)")


def _depths(starts: list[tuple[str, str]]) -> list[int]:
    """For each tag start (closing slash, name): the depth it opens or closes at (0 for a void
    element or an end tag that closes nothing), modelling the parser's stack of open elements
    closely enough to bound it from above — an end tag closes the innermost open element of
    its name and what is inside it; one with no such open element is ignored, as the parser
    ignores it (so stray end tags cannot hide depth)."""
    stack: list[str] = []
    open_count: dict[str, int] = {}
    depths: list[int] = []
    void = _VOID_TAGS
    for closing, name in starts:
        name = name.lower()
        if name in void:
            depths.append(0)
        elif not closing:
            stack.append(name)
            open_count[name] = open_count.get(name, 0) + 1
            depths.append(len(stack))
        elif open_count.get(name):
            depths.append(len(stack))
            while True:
                popped = stack.pop()
                open_count[popped] -= 1
                if popped == name:
                    break
        else:
            depths.append(0)
    return depths


def _depth_bound(starts: list[tuple[str, str]]) -> int:
    """At least the deepest the stack of `_depths` gets, in about half its time: an end tag is
    taken to close one open element of its name, where the parser closes that one and whatever
    is open inside it; a stray end tag closes nothing. Names are compared as written, so a
    case mismatch only makes the bound higher (then `_depths` decides)."""
    open_count: dict[str, int] = {}
    depth = deepest = 0
    void = _VOID_TAGS
    for closing, name in starts:
        if closing:
            count = open_count.get(name)
            if count:
                open_count[name] = count - 1
                depth -= 1
        elif name not in void:
            open_count[name] = open_count.get(name, 0) + 1
            depth += 1
            if depth > deepest:
                deepest = depth
    return deepest


def bound_markup(fragment: str) -> str:
    """`fragment` cut to MAX_MARKUP_CHARS (before its last tag there) and with every tag that
    would open deeper than MAX_NESTING_DEPTH removed, with its end tag: linear time, so that
    whatever nh3 is then handed parses in bounded time."""
    if len(fragment) > MAX_MARKUP_CHARS:
        head = fragment[:MAX_MARKUP_CHARS]
        fragment = head[: head.rfind("<")] if "<" in head else head
    # Depth is at most the number of tags opened; an end tag or a comment opens nothing. Most
    # long articles have far more "<" than 256 but few opened at once: this costs two counts.
    if fragment.count("<") - fragment.count("</") - fragment.count("<!") <= MAX_NESTING_DEPTH:
        return fragment
    starts = _TAG_START.findall(fragment)
    if len(starts) <= MAX_NESTING_DEPTH or _depth_bound(starts) <= MAX_NESTING_DEPTH:
        return fragment
    depths = _depths(starts)
    if max(depths) <= MAX_NESTING_DEPTH:
        return fragment
    kept: list[str] = []
    position = 0
    for match, depth in zip(_TAG_START.finditer(fragment), depths, strict=True):
        if depth <= MAX_NESTING_DEPTH:
            continue
        start = match.start()
        if start < position:  # inside a tag already dropped (a "<x" in its attribute value)
            continue
        end = fragment.find(">", match.end())
        kept.append(fragment[position:start])
        position = len(fragment) if end < 0 else end + 1
    kept.append(fragment[position:])
    return "".join(kept)


def sanitize_html(fragment: str, *, base_url: str = "") -> str:
    """Keep structure and links; drop scripts, styles, forms, event handlers, svg/math and any
    URL scheme other than http, https and mailto. With `base_url`, relative URLs are resolved
    against it; links that are still not absolute http(s)/mailto are dropped. Markup nested
    deeper than MAX_NESTING_DEPTH is flattened first (bound_markup)."""
    if not fragment:
        return ""
    cleaned = nh3.clean(
        bound_markup(fragment),
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
    return _whole_start(markup[: limit * _PREFIX_PER_TEXT_CHAR])


def _whole_start(head: str) -> str:
    """`head`, the start of markup cut anywhere, cut again before its last tag and any entity
    it splits."""
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


def text_of_sanitized_start(start: str) -> str:
    """The text of `start`, the first characters of sanitized markup cut anywhere (a
    database's substring of the stored body): no half tag or entity shows in it."""
    return _text_of_cleaned(_whole_start(start))


def _text_of_fragment(fragment: str) -> str:
    # Keep block tags through the clean so they can become spaces ("<p>a</p><p>b</p>" is "a b").
    return _text_of_cleaned(nh3.clean(bound_markup(fragment), tags=_BLOCK_TAGS, attributes={}))


def _text_of_cleaned(cleaned: str) -> str:
    text = html.unescape(_TAG.sub("", _BLOCK_TAG.sub(" ", cleaned)))
    return _SPACE.sub(" ", text).strip()
