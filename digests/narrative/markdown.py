"""A small, safe Markdown subset for narratives (which a model may have written): paragraphs,
bullet and numbered lists, headings, **bold**, *italics*, `code` and [links](https://…).

Everything is HTML-escaped first and only then turned into the few tags above; a link is
kept only when its URL is http(s). nh3 then cleans the result once more with the same
allowlist, so a bug here cannot become an injection.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit

import nh3
from django.utils.safestring import SafeString, mark_safe

ALLOWED_TAGS = {"p", "ul", "ol", "li", "strong", "em", "code", "a", "h3", "h4", "br"}
LINK_REL = "noopener noreferrer nofollow"

_ESCAPED = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
_PLACEHOLDER = re.compile("\ue000(\\d+)\ue001")
_PRIVATE_USE = re.compile("[\ue000-\ue003]")
_LINK_SLOT = re.compile("\ue002(\\d+)\ue003")
# [text](url), the URL allowed one level of balanced parentheses.
_LINK = re.compile(r"\[([^\[\]\n]{1,500})\]\(\s*<?((?:[^\s()<>]|\([^\s()<>]*\)){1,2048})>?\s*\)")
_BULLET = re.compile(r"^\s{0,3}[-*+]\s+(.*)$")
_NUMBERED = re.compile(r"^\s{0,3}\d{1,3}[.)]\s+(.*)$")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_EMPHASIS = [
    (re.compile(r"`([^`\n]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"__(?=\S)(.+?)(?<=\S)__"), r"<strong>\1</strong>"),
    (re.compile(r"\*(?=\S)(.+?)(?<=\S)\*"), r"<em>\1</em>"),
    (re.compile(r"(?<![\w])_(?=\S)(.+?)(?<=\S)_(?![\w])"), r"<em>\1</em>"),
]


def is_web_url(url: str) -> bool:
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc)


class _Escapes:
    """Backslash escapes are set aside before formatting and put back, escaped, after."""

    def __init__(self):
        self.characters: list[str] = []

    def protect(self, text: str) -> str:
        def keep(match):
            self.characters.append(match.group(1))
            return f"\ue000{len(self.characters) - 1}\ue001"

        return _ESCAPED.sub(keep, _PRIVATE_USE.sub("", text))

    def restore(self, text: str, *, escape: bool = True) -> str:
        def put_back(match):
            character = self.characters[int(match.group(1))]
            return html.escape(character) if escape else character

        return _PLACEHOLDER.sub(put_back, text)


def _emphasis(text: str, escapes: _Escapes) -> str:
    text = html.escape(text)
    for pattern, replacement in _EMPHASIS:
        text = pattern.sub(replacement, text)
    return escapes.restore(text)


def _inline(text: str, escapes: _Escapes) -> str:
    """Links are rendered first and set aside, so emphasis may wrap a link: **[a](b)**."""
    links: list[str] = []

    def link(match):
        label = _emphasis(match.group(1), escapes)
        url = escapes.restore(match.group(2), escape=False)
        if is_web_url(url):
            links.append(f'<a href="{html.escape(url)}" target="_blank">{label}</a>')
        else:
            links.append(label)
        return f"\ue002{len(links) - 1}\ue003"

    text = _emphasis(_LINK.sub(link, text), escapes)
    return _LINK_SLOT.sub(lambda match: links[int(match.group(1))], text)


def _blocks(lines: list[str]):
    """(kind, lines) groups: 'ul', 'ol', 'h1'…'h6' or 'p'; blank lines end a group."""
    kind, group = None, []
    for line in [*lines, ""]:
        if not line.strip():
            line_kind = None
        elif _BULLET.match(line):
            line_kind = "ul"
        elif _NUMBERED.match(line):
            line_kind = "ol"
        elif heading := _HEADING.match(line):
            line_kind = f"h{len(heading.group(1))}"
        else:
            line_kind = "p"
        if group and (line_kind != kind or kind.startswith("h")):
            yield kind, group
            group = []
        kind = line_kind
        if line_kind:
            group.append(line)


def render(markdown: str) -> SafeString:
    """Safe HTML for `markdown`."""
    escapes = _Escapes()
    lines = escapes.protect(markdown or "").replace("\r\n", "\n").split("\n")
    parts = []
    for kind, group in _blocks(lines):
        if kind in ("ul", "ol"):
            pattern = _BULLET if kind == "ul" else _NUMBERED
            items = "".join(
                f"<li>{_inline(pattern.match(line).group(1), escapes)}</li>" for line in group
            )
            parts.append(f"<{kind}>{items}</{kind}>")
        elif kind.startswith("h"):
            tag = "h3" if kind in ("h1", "h2") else "h4"
            parts.append(f"<{tag}>{_inline(_HEADING.match(group[0]).group(2), escapes)}</{tag}>")
        else:
            text = " ".join(line.strip() for line in group)
            parts.append(f"<p>{_inline(text, escapes)}</p>")
    cleaned = nh3.clean(
        "".join(parts),
        tags=ALLOWED_TAGS,
        attributes={"a": {"href", "target"}},
        url_schemes={"http", "https"},
        link_rel=LINK_REL,
    )
    return mark_safe(cleaned)  # escaped above, then cleaned by nh3


_PLAIN_EMPHASIS = [
    (re.compile(r"`([^`\n]+)`"), r"\1"),
    (re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*"), r"\1"),
    (re.compile(r"__(?=\S)(.+?)(?<=\S)__"), r"\1"),
    (re.compile(r"\*(?=\S)(.+?)(?<=\S)\*"), r"\1"),
    (re.compile(r"(?<![\w])_(?=\S)(.+?)(?<=\S)_(?![\w])"), r"\1"),
]


def plain(markdown: str) -> str:
    """The same subset as plain text (an email's text part): no `**`, `#` or link syntax left —
    emphasis dropped, a heading its words, a link "label (address)", bullets as "•"."""
    escapes = _Escapes()
    out = []
    for line in escapes.protect(markdown or "").replace("\r\n", "\n").split("\n"):
        if heading := _HEADING.match(line):
            line = heading.group(2)
        elif bullet := _BULLET.match(line):
            line = f"• {bullet.group(1)}"

        def link(match):
            url = escapes.restore(match.group(2), escape=False)
            return f"{match.group(1)} ({url})" if is_web_url(url) else match.group(1)

        line = _LINK.sub(link, line)
        for pattern, replacement in _PLAIN_EMPHASIS:
            line = pattern.sub(replacement, line)
        out.append(escapes.restore(line, escape=False))
    return "\n".join(out)
