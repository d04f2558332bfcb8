"""The watched text of a page: the whole page's visible text, or the part a CSS selector or an
XPath expression picks, as lines (one per block element) with whitespace collapsed.

Whitespace never counts as a change: every run of spaces, tabs and newlines inside a line is
one space and blank lines are dropped, so re-indented markup compares equal.
"""

from __future__ import annotations

import re

from cssselect import SelectorError
from django.utils.translation import gettext as _
from lxml import etree
from lxml import html as lxml_html
from lxml.cssselect import CSSSelector

SELECTOR_MAX_CHARS = 500
TEXT_MAX_CHARS = 200_000  # a watched part larger than this is cut (and the cut is stable)
_UNRENDERED = ("script", "style", "noscript", "template", "head")
_BLOCKS = {
    "p", "div", "li", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "br", "section",
    "article", "header", "footer", "pre", "blockquote", "dt", "dd", "table", "ul", "ol",
    "main", "nav", "aside", "form", "hr", "figcaption", "caption", "option",
}  # fmt: skip
_SPACE = re.compile(r"\s+")
# XPath functions that reach outside the document or loop for long are refused outright.
_XPATH_REFUSED = re.compile(r"\b(document|doc|unparsed-text|collection|system-property)\s*\(")


class ExtractError(Exception):
    def __init__(self, message: str, *, field: str = "selector", code: str = "invalid_selector"):
        super().__init__(message)
        self.message, self.field, self.code = message, field, code


def _xpath_too_costly(expression: str) -> bool:
    """Predicates nested more than two deep, or an absolute path inside a predicate
    (`//*[count(//*) > 0]` walks the whole document once per element): lxml cannot stop an
    evaluation, so what could run for minutes on a large page is refused when saved."""
    depth, quote, previous = 0, "", "["
    for char in expression:
        if quote:
            quote = "" if char == quote else quote
            continue
        if char in "'\"":
            quote = char
        elif char == "[":
            depth += 1
            if depth > 2:
                return True
        elif char == "]":
            depth = max(0, depth - 1)
        elif char == "/" and depth and previous in "[(,=<>!|+-*":
            return True
        if not char.isspace():
            previous = char
    return False


def check_selector(kind: str, selector: str) -> str:
    """The selector, stripped, or an ExtractError naming the `selector` field."""
    selector = (selector or "").strip()
    if not kind:
        return ""
    if not selector:
        raise ExtractError(
            _("Enter the selector of the part to watch, or watch the whole page."),
            code="invalid_combination",
        )
    if len(selector) > SELECTOR_MAX_CHARS:
        raise ExtractError(
            _("The selector is longer than %(limit)d characters.") % {"limit": SELECTOR_MAX_CHARS}
        )
    if kind == "css":
        _css_selector(selector)
        return selector
    if kind == "xpath":
        if _XPATH_REFUSED.search(selector):
            raise ExtractError(_("This XPath function is not allowed in a watch."))
        if _xpath_too_costly(selector):
            raise ExtractError(
                _(
                    "This XPath expression could take too long on a large page: use at most "
                    "two nested [ ] and no absolute path (/ or //) inside them."
                )
            )
        try:
            etree.XPath(selector)
        except etree.XPathSyntaxError as exc:
            raise ExtractError(
                _("The expression %(selector)r is not valid XPath: %(detail)s")
                % {"selector": selector, "detail": exc}
            ) from None
        return selector
    raise ExtractError(
        _("Choose how to pick the part: 'css', 'xpath' or nothing (the whole page)."),
        field="selector_kind",
        code="invalid_choice",
    )


def _lines_of(element, out: list[str]) -> None:
    """Append the text of `element` to `out`, breaking lines at block elements."""
    buffer: list[str] = []

    def flush():
        line = _SPACE.sub(" ", "".join(buffer)).strip()
        if line:
            out.append(line)
        buffer.clear()

    def walk(node):
        tag = node.tag if isinstance(node.tag, str) else ""
        if tag in _UNRENDERED:
            if node.tail:
                buffer.append(node.tail)
            return
        block = tag in _BLOCKS
        if block:
            flush()
        if isinstance(node.tag, str) and node.text:
            buffer.append(node.text)
        for child in node:
            walk(child)
        if block:
            flush()
        if node.tail:
            buffer.append(node.tail)

    if isinstance(element, str):
        buffer.append(element)
    else:
        node_tail, element.tail = element.tail, None  # the part ends where the element ends
        walk(element)
        element.tail = node_tail
    flush()


def extract_text(content: bytes | str, *, kind: str = "", selector: str = "") -> str:
    """The watched text: lines joined with newlines. Raises ExtractError when the selector is
    invalid or picks nothing (a part that vanished is an error, not an empty change)."""
    selector = check_selector(kind, selector)
    if not content or not content.strip():
        raise ExtractError(_("The page is empty."), field="url", code="empty_page")
    try:
        root = lxml_html.fromstring(content)
    except (etree.ParserError, ValueError):
        raise ExtractError(
            _("The page is not readable HTML."), field="url", code="not_html"
        ) from None
    if kind == "css":
        parts = _css_selector(selector)(root)
    elif kind == "xpath":
        try:
            parts = root.xpath(selector)
        except etree.XPathError as exc:
            raise ExtractError(
                _("The expression %(selector)r could not be evaluated: %(detail)s")
                % {"selector": selector, "detail": exc}
            ) from None
        if not isinstance(parts, list):
            parts = [str(parts)]
    else:
        body = root.find("body")
        parts = [body if body is not None else root]
    lines: list[str] = []
    for part in parts:
        _lines_of(part if not isinstance(part, bytes) else part.decode(), lines)
    if kind and not lines:
        raise ExtractError(
            _("The selector %(selector)r picks nothing on this page.") % {"selector": selector},
            code="selector_empty",
        )
    return "\n".join(lines)[:TEXT_MAX_CHARS]


def _css_selector(selector: str) -> CSSSelector:
    try:
        return CSSSelector(selector)
    except SelectorError as exc:
        raise ExtractError(
            _("The selector %(selector)r is not valid CSS: %(detail)s")
            % {"selector": selector, "detail": exc}
        ) from None
