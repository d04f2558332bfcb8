"""Main-content extraction (SPEC §4.5): a page's bytes in, its article as clean text out.

`extract_main_content(html, url=…)` turns a page's bytes into clean text: the article, not the
navigation, teasers and "read more" links around it. It never fetches anything — callers fetch
through ingest/fetching/fetch.py and pass the bytes — and it decodes the bytes itself, so no
library gets to guess at (or decompress) a raw response. Full text for pool items (fetching their
pages, storing the text) is ingest/pool/full_text.py.

How, and why (measured by `python -m tests.bench extraction` on 300 labelled pages, mostly
German, and on Zyte's 181 English articles, each set also in two halves; README "Full text"):
trafilatura beats readability-lxml on the first set (F1 0.91 against 0.86) and matches it on the
second (0.95-0.97 against 0.96). Its precision setting drops boilerplate best but on some pages
also drops real paragraphs; so both its precision and its recall settings run, and the precision
result is kept unless it has less than PRECISION_KEEPS of the recall result's text (then
precision lost content, not boilerplate). Its HTML is then read one block per line — line breaks
in the page's source are not paragraph breaks — and boilerplate lines are dropped: short lines
of mostly link labels ("Read more: <a>…</a>"; a link whose text is the address itself is
information, not a label), captions, picture credits ("© dpa", "Foto: …"), advertising labels
("Anzeige – …"), lines that are only a date, and trailing lead-ins ending in ":".
readability-lxml is the fallback when trafilatura finds nothing. The headline is not part of
the text (it is `title`): both sets count it as outside the body often enough that adding it
lost on Zyte's set (0.964 → 0.955); so did a standfirst found between headline and body.
"""

from __future__ import annotations

import hashlib
import logging
import re
import unicodedata
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import lxml.etree
import lxml.html
import trafilatura
from charset_normalizer import from_bytes
from django.utils.translation import gettext as _
from readability import Document
from tld import get_fld

from ingest.canonical import InvalidURL, canonicalize_url
from ingest.text.sanitize import sanitize_html

logger = logging.getLogger(__name__)

# The precision result is kept while it has at least this share of the recall result's text.
PRECISION_KEEPS = 0.7
# A line at most this long whose text is mostly link labels is a teaser or a share bar.
LINK_LINE_MAX_CHARS = 200
LINK_LINE_MIN_DENSITY = 0.5
# Credits and advertising labels are short: a longer line that starts alike is text.
CREDIT_MAX_CHARS = 100
AD_LABEL_MAX_CHARS = 160
# An element named a caption that holds more than this is a container, not a caption.
CAPTION_MAX_CHARS = 500
LEAD_MAX_CHARS = 600
LEAD_MIN_CHARS = 80

_SPACE = re.compile(r"[^\S\n]+")
# Control characters (PostgreSQL refuses NUL), and invisible ones that only split words for
# search and matching: soft hyphens, zero-width spaces, word joiners, stray byte-order marks.
_INVISIBLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u00ad\u200b\u2060\ufeff]")
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)""", re.IGNORECASE)
_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?([\w.:-]+)", re.IGNORECASE)
_LANGUAGE = re.compile(r"^[a-zA-Z]{2,3}(?:[-_][a-zA-Z0-9]{1,8})*$")
_BLOCKS = frozenset(
    {
        "p", "div", "section", "article", "li", "ul", "ol", "dl", "dt", "dd", "blockquote",
        "pre", "table", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "br", "hr", "figure",
        "figcaption", "header", "footer", "main", "aside", "nav", "details", "summary", "body",
    }
)  # fmt: skip
# A line that is only a date (and maybe a time) is a dateline, page furniture, not text.
_DATELINE = re.compile(
    r"^(?:\d{1,2}[./-] ?\d{1,2}[./-] ?\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}\.? \w+\.? \d{4}"
    r"|\w+\.? \d{1,2},? \d{4})(?:[, ]+(?:um )?\d{1,2}[:.]\d{2}(?: ?(?:uhr|h|am|pm))?)?$",
    re.IGNORECASE,
)
# A picture credit or a source line: "© dpa", "Foto: Max Muster", "Photo: AP", "Quelle: BMF".
_CREDIT = re.compile(
    r"^(?:©|\(c\)\s|copyright\b|fot\.\s|(?:fotos?|photos?|bild(?:er)?|images?|pictures?|credits?"
    r"|(?:photo|image|picture) credits?|quelle|source)\s*:)",
    re.IGNORECASE,
)
# A line that opens with an advertising label: "Anzeige – …", "*Werbung.", "[Werbung]".
_AD_LABEL = re.compile(
    r"^[\W_]{0,2}(?:anzeige|werbung|advertisement|advertising|sponsored|gesponsert|publicidad"
    r"|publicité|pubblicità|reklama)(?:\s*[-–—:.,|\])*]|\s*$)",
    re.IGNORECASE,
)
# Link text that spells out the address itself (a URL, an e-mail address) is information.
_ADDRESS = re.compile(r"^(?:https?://|www\.)\S+$|^[^@\s]+@[^@\s]+\.\w+$", re.IGNORECASE)
_ANY_SPACE = re.compile(r"\s+")
# lxml refuses text with control characters; a page's are never text.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_WORD = re.compile(r"\w")
# Private-use characters mark link labels and captions while a block is turned into lines.
_LINK_OPEN, _LINK_CLOSE, _CAPTION = "\ue000", "\ue001", "\ue002"


class ExtractionError(Exception):
    """No main text could be extracted; `message` is fit to show a user."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Extracted:
    text: str  # normalized plain text, one paragraph per line
    html: str  # the main content as sanitized HTML (links absolute)
    title: str
    language: str  # BCP 47 as the page declares it, lower case; "" when it does not say
    canonical_url: str  # the page's rel=canonical or og:url when same-site, canonicalized
    lead: str  # the opening paragraph(s), for a summary
    extractor: str  # "trafilatura-precision", "trafilatura-recall" or "readability"
    site_name: str = ""  # og:site_name, else the host name

    @property
    def content_hash(self) -> str:
        return text_hash(self.text)


# --- text ------------------------------------------------------------------------------------


def normalize_text(text: str) -> str:
    """NFC, no control or invisible characters, one space between words, one paragraph per
    line, no empty lines. `content_hash` is the sha256 of this."""
    text = _INVISIBLE.sub("", unicodedata.normalize("NFC", text or ""))
    lines = (_SPACE.sub(" ", line).strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def text_hash(normalized: str) -> str:
    return hashlib.sha256(normalized.encode("utf-8")).hexdigest()


def lead_of(text: str) -> str:
    """The first paragraphs, up to LEAD_MAX_CHARS, skipping short lines (datelines, captions)
    when a real paragraph follows."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if len(line) >= LEAD_MIN_CHARS), 0)
    lead = ""
    for line in lines[start:]:
        lead = f"{lead} {line}".strip()
        if len(lead) >= LEAD_MIN_CHARS:
            break
    if len(lead) > LEAD_MAX_CHARS:
        cut = lead.rfind(" ", 0, LEAD_MAX_CHARS)
        lead = lead[: cut if cut > LEAD_MAX_CHARS // 2 else LEAD_MAX_CHARS].rstrip() + "…"
    return lead


def decode_html(data: bytes | str, content_type: str = "") -> str:
    """Text of a page: a byte-order mark, valid UTF-8, the charset the server or the page
    declares, then a statistical guess; undecodable bytes become U+FFFD."""
    if isinstance(data, str):
        return data
    for bom, encoding in (
        (b"\xef\xbb\xbf", "utf-8"),
        (b"\xff\xfe", "utf-16"),
        (b"\xfe\xff", "utf-16"),
    ):
        if data.startswith(bom):
            return data.decode(encoding, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    declared = [m.group(1) for m in [_HEADER_CHARSET.search(content_type or "")] if m]
    declared += [
        m.group(1).decode("ascii", "ignore") for m in [_META_CHARSET.search(data[:4096])] if m
    ]
    for encoding in declared:
        try:
            return data.decode(encoding)
        except (LookupError, UnicodeDecodeError):
            continue
    guess = from_bytes(data[:200_000]).best()
    if guess is not None:
        try:
            return data.decode(guess.encoding, errors="replace")
        except LookupError:
            pass
    return data.decode("utf-8", errors="replace")


# --- metadata --------------------------------------------------------------------------------


_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")


def _parse(html_text: str):
    try:
        # lxml refuses a str that still declares its encoding (XHTML pages often do).
        return lxml.html.document_fromstring(_XML_DECLARATION.sub("", html_text, count=1))
    except (lxml.etree.ParserError, ValueError):
        return None


def _meta(doc, *names: str) -> str:
    for name in names:
        for attribute in ("property", "name", "http-equiv"):
            found = doc.xpath(f"//meta[@{attribute}=$name]/@content", name=name)
            if found and found[0].strip():
                return found[0].strip()
    return ""


def _title(doc) -> str:
    if doc is None:
        return ""
    title = _meta(doc, "og:title", "twitter:title")
    if not title:
        headings = doc.xpath("//h1")
        if len(headings) == 1:
            title = headings[0].text_content()
    if not title:
        found = doc.xpath("//title")
        title = found[0].text_content() if found else ""
    return _SPACE.sub(" ", title.replace("\n", " ")).strip()[:500]


def _language(doc) -> str:
    if doc is None:
        return ""
    candidates = [
        doc.get("lang") or doc.get("{http://www.w3.org/XML/1998/namespace}lang") or "",
        _meta(doc, "content-language", "language", "og:locale"),
    ]
    for candidate in candidates:
        candidate = candidate.split(",")[0].strip()
        if _LANGUAGE.match(candidate):
            return candidate.replace("_", "-").lower()[:16]
    return ""


def _site(host: str) -> str:
    """The registrable domain (eTLD+1, the public-suffix list's "site") of `host`, so that
    blog.example.co.uk and www.example.co.uk are one site but a.github.io and b.github.io
    are not. An IP address or an unknown suffix is its own site."""
    host = host.lower().rstrip(".")
    site = get_fld(host, fix_protocol=True, fail_silently=True)
    return site or host


def same_site(url: str, other: str) -> bool:
    try:
        first, second = urlsplit(url), urlsplit(other)
    except ValueError:
        return False
    if not first.hostname or not second.hostname:
        return False
    return _site(first.hostname) == _site(second.hostname)


def _site_name(doc, url: str) -> str:
    name = _meta(doc, "og:site_name", "application-name") if doc is not None else ""
    if not name:
        try:
            name = (urlsplit(url).hostname or "").removeprefix("www.")
        except ValueError:
            name = ""
    return _SPACE.sub(" ", name).strip()[:300]


def _canonical(doc, url: str) -> str:
    """rel=canonical (else og:url) made absolute and canonicalized — only when it stays on
    the page's own site: another site's address would let a page take over that site's item
    (SPEC §4.3, no poisoning)."""
    if doc is None or not url:
        return ""
    hrefs = doc.xpath(
        "//link[contains(concat(' ', normalize-space(@rel), ' '), ' canonical ')]/@href"
    )
    for candidate in [*hrefs[:1], _meta(doc, "og:url")]:
        candidate = (candidate or "").strip()
        if not candidate:
            continue
        try:
            absolute = canonicalize_url(urljoin(url, candidate))
        except (InvalidURL, ValueError):
            continue
        if same_site(url, absolute):
            return absolute
    return ""


# --- main text -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Line:
    text: str
    label_chars: int  # characters of link labels in it ("Read more", a teaser's headline)
    caption: bool  # it belongs to a picture's caption


def _is_caption(element) -> bool:
    named = element.tag == "figcaption" or "caption" in (element.get("class") or "").lower()
    return named and len(element.text_content()) <= CAPTION_MAX_CHARS


def _one_line(text: str | None) -> str | None:
    return _ANY_SPACE.sub(" ", text) if text else text


def _preformatted(enclosing: list) -> bool:
    """Whether text inside `enclosing` (innermost first) keeps its line breaks: text in a
    <pre>, and text right inside a <blockquote>, which is what trafilatura makes of a bare
    <pre> (a quote's paragraphs are <p>s of their own)."""
    if any(element.tag == "pre" for element in enclosing):
        return True
    block = next((element for element in enclosing if element.tag in _BLOCKS), None)
    return block is not None and block.tag == "blockquote"


def _lines_of(fragment_html: str) -> list[_Line]:
    """One line per block of an HTML fragment. Line breaks in the page's source are spaces
    (except in preformatted text): a paragraph that the page's author wrapped is still one
    paragraph, and a link on a source line of its own is still part of its sentence."""
    root = _parse(fragment_html)
    if root is None:
        return []
    captions = {el for el in root.iter() if isinstance(el.tag, str) and _is_caption(el)}
    for element in root.iter():
        ancestors = list(element.iterancestors())
        if not _preformatted(ancestors):
            element.tail = _one_line(element.tail)
        if not isinstance(element.tag, str):
            continue  # a comment: only its tail is text
        if not _preformatted([element, *ancestors]):
            element.text = _one_line(element.text)
        if element.tag == "a" and not _ADDRESS.match(element.text_content().strip()):
            element.text = _LINK_OPEN + (element.text or "")
            element.tail = _LINK_CLOSE + (element.tail or "")
        elif element.tag in _BLOCKS:
            in_caption = any(ancestor in captions for ancestor in ancestors)
            mark = _CAPTION if in_caption or element in captions else ""
            element.text = "\n" + mark + (element.text or "")
            element.tail = "\n" + (_CAPTION if in_caption else "") + (element.tail or "")
    lines = []
    for raw in root.text_content().split("\n"):
        line = _SPACE.sub(" ", raw).strip()
        caption = _CAPTION in line
        line = line.replace(_CAPTION, "")
        plain = line.replace(_LINK_OPEN, "").replace(_LINK_CLOSE, "").strip()
        if not plain:
            continue
        labels = sum(len(part.split(_LINK_CLOSE)[0]) for part in line.split(_LINK_OPEN)[1:])
        lines.append(_Line(plain, labels, caption))
    return lines


def _is_boilerplate(line: _Line) -> bool:
    """Teasers and share bars (short lines of mostly link labels), captions, picture credits,
    advertising labels and datelines: what surrounds the text, not the text."""
    text = line.text
    return (
        (len(text) <= LINK_LINE_MAX_CHARS and line.label_chars >= LINK_LINE_MIN_DENSITY * len(text))
        or line.caption
        or (len(text) <= CREDIT_MAX_CHARS and _CREDIT.match(text) is not None)
        or (len(text) <= AD_LABEL_MAX_CHARS and _AD_LABEL.match(text) is not None)
        or _DATELINE.match(text) is not None
    )


def clean_text(content_html: str) -> str:
    """The normalized text of an extractor's content HTML: one line per block, boilerplate
    lines dropped."""
    kept = [line.text for line in _lines_of(content_html) if not _is_boilerplate(line)]
    while kept and kept[-1].endswith(":"):
        kept.pop()  # a lead-in ("Read also:", "Related:") whose list was boilerplate
    return normalize_text("\n".join(kept))


def _trafilatura(html_text: str, url: str, **mode) -> tuple[str, str]:
    """(clean text, content HTML) by trafilatura in one mode; ("", "") when it finds none."""
    content = trafilatura.extract(
        html_text,
        url=url or None,
        output_format="html",
        include_comments=False,
        include_links=True,
        # With formatting on, a link inside italics comes out as italics only: the link
        # would be invisible to the link-density filter.
        include_formatting=False,
        include_tables=True,
        include_images=False,
        with_metadata=False,
        **mode,
    )
    if not content:
        return "", ""
    return clean_text(content), content


def _readability(html_text: str, url: str) -> tuple[str, str]:
    try:
        content = Document(html_text, url=url or None).summary(html_partial=True)
    except Exception:  # readability raises bare Exceptions on documents it cannot read
        return "", ""
    return clean_text(content), content


def _body_html(content: str, url: str) -> str:
    inner = re.sub(r"(?is)^.*?<body[^>]*>|</body>.*$", "", content)
    return sanitize_html(inner.strip(), base_url=url)


def extract_main_content(html: bytes | str, *, url: str, content_type: str = "") -> Extracted:
    """The main content of one page. `url` is where the page was fetched from (for relative
    links and the same-site check); `content_type` the response header, for its charset.

    Raises ExtractionError, and nothing else, for anything about the page: no main text, or
    bytes a parser chokes on. Callers catch that one exception (ingest/crawl/service.py falls
    back to its own content, ingest/pages/service.py and ensure_full_text record the message)."""
    html_text = _CONTROL.sub("", decode_html(html, content_type))
    if not html_text.strip():
        raise ExtractionError(_("The page is empty."))
    try:
        return _extract(html_text, url)
    except ExtractionError:
        raise
    except Exception as exc:  # third-party parsers on hostile pages: one page's failure
        logger.exception("extracting %s failed", url)
        raise ExtractionError(_("The page could not be read.")) from exc


def _extract(html_text: str, url: str) -> Extracted:
    doc = _parse(html_text)
    precise, precise_html = _trafilatura(html_text, url, favor_precision=True)
    recalled, recalled_html = _trafilatura(html_text, url, favor_recall=True)
    if precise and len(precise) >= PRECISION_KEEPS * len(recalled):
        text, content, extractor = precise, precise_html, "trafilatura-precision"
    else:
        text, content, extractor = recalled, recalled_html, "trafilatura-recall"
    if not _WORD.search(text):
        text, content = _readability(html_text, url)
        extractor = "readability"
    if not _WORD.search(text):
        raise ExtractionError(_("No readable main text was found on this page."))
    return Extracted(
        text=text,
        html=_body_html(content, url),
        title=_title(doc),
        language=_language(doc),
        canonical_url=_canonical(doc, url),
        lead=lead_of(text),
        extractor=extractor,
        site_name=_site_name(doc, url),
    )
