"""A received newsletter message, read with the standard library's `email` (policy `default`).

Pure: no database, no network. Picks the best body (HTML, else text), decodes its transfer
encoding and charset (a wrong or unknown charset falls back rather than failing), drops inline
images, attachments and tracking pixels, unwraps tracking redirects whose real link is in the
address, and sanitizes with the one sanitizer (ingest/text/sanitize.py). Nothing remote is
fetched: images stay links the reader's browser may load later, like a feed's.
"""

from __future__ import annotations

import hashlib
import html
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses, parsedate_to_datetime
from urllib.parse import parse_qs, urlsplit

from ingest.canonical import InvalidURL, canonicalize_url
from ingest.text.sanitize import html_to_text, sanitize_html

# Query parameters a click-tracking redirect carries the real address in.
_REDIRECT_PARAMS = ("url", "u", "redirect", "redirect_url", "target", "link", "dest", "r", "q")
_IMG = re.compile(r"<img\b[^>]*>", re.IGNORECASE)
_PIXEL = re.compile(
    r"""(?:width|height)\s*=\s*["']?[01](?:px)?["'\s/>]|(?:width|height)\s*:\s*[01]px"""
    r"""|display\s*:\s*none|src\s*=\s*["']?cid:""",
    re.IGNORECASE,
)
_HREF = re.compile(r'href="([^"]*)"')
_ANCHOR = re.compile(r'<a\b[^>]*href="([^"]*)"[^>]*>(.*?)</a>', re.IGNORECASE | re.DOTALL)
_URL_IN_TEXT = re.compile(r"https?://[^\s<>\"')\]]+")
_CONFIRM_SUBJECT = re.compile(
    r"\b(confirm|verify|activate|validate)\w*\b.*\b(subscription|email|e-mail|address|sign.?up)"
    r"|\bplease confirm\b|\bdouble opt.?in\b|\bconfirm your\b",
    re.IGNORECASE,
)
_CONFIRM_LINK = re.compile(r"confirm|verify|activate|opt.?in|validate|subscribe", re.IGNORECASE)
# Links a roundup carries that are not articles.
_NOT_ARTICLE = re.compile(
    r"unsubscribe|manage|preferences|profile|view.?in.?browser|view.?online|forward|"
    r"list-manage|mailto:|twitter\.com/intent|facebook\.com/sharer|linkedin\.com/share",
    re.IGNORECASE,
)
SUBJECT_MAX_CHARS = 500


@dataclass
class ParsedMessage:
    subject: str
    sender_name: str
    sender_email: str
    published_at: datetime | None
    list_id: str
    message_id: str
    # The identity: List-Id + Message-ID (or, without a Message-ID, its content).
    key: str
    html: str  # sanitized
    text: str  # plain text of the body
    links: list[tuple[str, str]] = field(default_factory=list)  # (canonical url, link text)
    confirm_url: str = ""
    attachments_dropped: int = 0

    @property
    def is_confirmation(self) -> bool:
        return bool(self.confirm_url)


def _decoded(part: EmailMessage) -> str:
    """The part's text; a charset Python does not know, or bytes that are not in it, fall back
    to UTF-8 with replacement rather than losing the message."""
    try:
        return part.get_content()
    except (LookupError, UnicodeError, AssertionError, ValueError):
        payload = part.get_payload(decode=True) or b""
        charset = part.get_content_charset() or "utf-8"
        try:
            return payload.decode(charset, errors="replace")
        except LookupError:
            return payload.decode("utf-8", errors="replace")


def _best_body(message: EmailMessage) -> tuple[str, str]:
    """(kind, text) of the best body: HTML over plain text; an unparseable structure falls back
    to the first text part found."""
    try:
        part = message.get_body(preferencelist=("html", "plain"))
    except Exception:  # malformed MIME: walk what there is
        part = None
    if part is None:
        for candidate in message.walk():
            if candidate.get_content_maintype() == "text" and not candidate.is_attachment():
                part = candidate
                break
    if part is None:
        return "plain", ""
    return ("html" if part.get_content_subtype() == "html" else "plain"), _decoded(part)


def _attachments(message: EmailMessage) -> int:
    try:
        return sum(1 for _ in message.iter_attachments()) if message.is_multipart() else 0
    except Exception:
        return 0


def unwrap_link(url: str) -> str:
    """The real address behind a click-tracking redirect, when the redirect carries it;
    otherwise the address itself. Canonical (tracking parameters dropped) when it can be."""
    try:
        query = parse_qs(urlsplit(url).query)
    except ValueError:
        return url
    for name in _REDIRECT_PARAMS:
        for value in query.get(name, []):
            if value.startswith(("http://", "https://")):
                return unwrap_link(value)
    try:
        return canonicalize_url(url)
    except InvalidURL:
        return url


def _drop_pixels(markup: str) -> str:
    return _IMG.sub(lambda m: "" if _PIXEL.search(m.group(0)) else m.group(0), markup)


def _text_to_html(text: str) -> str:
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]

    def linked(paragraph: str) -> str:
        escaped = html.escape(paragraph)
        return _URL_IN_TEXT.sub(lambda m: f'<a href="{m.group(0)}">{m.group(0)}</a>', escaped)

    return "".join(f"<p>{linked(p)}</p>".replace("\n", "<br>") for p in paragraphs)


def _links(cleaned: str) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for href, inner in _ANCHOR.findall(cleaned):
        url = html.unescape(href)
        if not url.startswith(("http://", "https://")):
            continue
        label = html_to_text(inner).strip()
        seen.setdefault(url, label)
    return list(seen.items())


def _confirm_url(subject: str, text: str, links: list[tuple[str, str]]) -> str:
    if not _CONFIRM_SUBJECT.search(subject) and not _CONFIRM_SUBJECT.search(text[:2000]):
        return ""
    for url, label in links:
        if _CONFIRM_LINK.search(label) or _CONFIRM_LINK.search(urlsplit(url).path):
            return url
    return ""


def _published(message: EmailMessage) -> datetime | None:
    try:
        value = parsedate_to_datetime(str(message.get("date", "")))
    except (TypeError, ValueError, IndexError):
        return None
    if value.tzinfo is None:  # "-0000": the sender's zone is unknown; the time is UTC
        value = value.replace(tzinfo=UTC)
    return value


def _header(message: EmailMessage, name: str) -> str:
    try:
        return str(message.get(name, "") or "").strip()
    except Exception:  # an undecodable header
        return ""


def message_key(list_id: str, message_id: str, fallback: bytes) -> str:
    identity = f"{list_id.lower()}\n{message_id}".encode() if message_id else b"raw\n" + fallback
    return hashlib.sha256(identity).hexdigest()


def parse_message(raw: bytes) -> ParsedMessage:
    message = BytesParser(policy=policy.default).parsebytes(raw)
    subject = " ".join(_header(message, "subject").split())[:SUBJECT_MAX_CHARS]
    try:
        (sender_name, sender_email), *_rest = getaddresses([_header(message, "from")]) or [("", "")]
    except ValueError:
        sender_name, sender_email = "", ""
    list_id = _header(message, "list-id")[:300]
    message_id = _header(message, "message-id").strip("<> ")[:500]
    kind, body = _best_body(message)
    if kind == "html":
        cleaned = sanitize_html(_drop_pixels(body))
    else:
        cleaned = sanitize_html(_text_to_html(body))
    cleaned = _HREF.sub(
        lambda m: f'href="{html.escape(unwrap_link(html.unescape(m.group(1))))}"', cleaned
    )
    text = html_to_text(cleaned)
    links = _links(cleaned)
    return ParsedMessage(
        subject=subject,
        sender_name=" ".join(sender_name.split())[:300],
        sender_email=sender_email.strip().lower()[:320],
        published_at=_published(message),
        list_id=list_id,
        message_id=message_id,
        key=message_key(list_id, message_id, raw),
        html=cleaned,
        text=text,
        links=links,
        confirm_url=_confirm_url(subject, text, links),
        attachments_dropped=_attachments(message),
    )


def roundup_links(parsed: ParsedMessage, *, limit: int = 50) -> list[tuple[str, str]]:
    """The links of an issue that read as articles: not the sender's own list management,
    not sharing buttons, with a few words of link text."""
    sender_domain = parsed.sender_email.rpartition("@")[2]
    articles = []
    for url, label in parsed.links:
        host = (urlsplit(url).hostname or "").lower()
        if _NOT_ARTICLE.search(url) or _NOT_ARTICLE.search(label):
            continue
        if sender_domain and (host == sender_domain or host.endswith("." + sender_domain)):
            continue
        if len(label.split()) < 3:
            continue
        articles.append((url, label))
    return articles[:limit]
