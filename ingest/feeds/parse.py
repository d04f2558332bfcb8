"""Parse feed bytes (RSS 0.9x/1.0/2.0, Atom, RDF, JSON Feed) into plain entries.

feedparser is always handed bytes, never a URL, and runs with its own sanitizer off: nh3 is
faster and stricter (feedparser's lets javascript: links and svg/math through).
"""

from __future__ import annotations

import calendar
import hashlib
import html
import io
import json
import logging
import re
from datetime import UTC, datetime
from urllib.parse import urljoin

import feedparser
import feedparser.api
from bs4 import BeautifulSoup

from ingest.canonical import InvalidURL, canonicalize_url
from ingest.feeds import feedparser_speed
from ingest.pool.entries import DESCRIPTION_MAX_CHARS, ParsedEntry, ParsedFeed
from ingest.text.sanitize import html_to_text, sanitize_html, text_of_sanitized

logger = logging.getLogger(__name__)

# Real feeds carry up to ~1,000 entries (podcast back catalogues); the 5 MB byte cap before
# parsing is what bounds the work, this only stops a pathological feed of tiny items.
MAX_ENTRIES = 2000

_SPACE = re.compile(r"\s+")
# Whitespace, the XML declaration, processing instructions and comments may precede a DOCTYPE.
_PROLOG_TOKEN = re.compile(rb"\s+|<\?.*?\?>|<!--.*?-->", re.DOTALL)
# feedparser puts its own declaration first when it finds none at the very start (a feed
# with blank lines before its own); that original then stands where expat refuses it and the
# whole feed fell to the slower, less exact loose parser. The document is UTF-8 by now, so
# a later declaration says nothing true and is dropped.
_XML_DECLARATION = re.compile(rb"<\?xml\s")
# Inside a DOCTYPE: literals, comments and PIs are skipped whole (they may hold "]" or ">").
_DOCTYPE_TOKEN = re.compile(rb"\"[^\"]*\"|'[^']*'|<!--.*?-->|<\?.*?\?>|[\[\]>]", re.DOTALL)


def _doctype_end(data: bytes, start: int) -> int:
    """Index just past the DOCTYPE declaration starting at `start` (internal subset included),
    or len(data) when it never closes."""
    in_subset = False
    for token in _DOCTYPE_TOKEN.finditer(data, start + len(b"<!DOCTYPE")):
        value = token.group()
        if value == b"[":
            in_subset = True
        elif value == b"]":
            in_subset = False
        elif value == b">" and not in_subset:
            return token.end()
    return len(data)


def _replace_doctype(data: bytes) -> tuple[str | None, bytes, dict[str, str]]:
    """Stand-in for feedparser's replace_doctype(), which receives the document as UTF-8.

    feedparser keeps the internal entities whose value holds no "&" and expands them itself,
    so one 10 KB entity referenced 100 000 times still becomes a gigabyte (quadratic blow-up);
    a DOCTYPE its line-anchored regex misses goes to expat, which expands it too. SPEC §4.2:
    entities are never resolved. So every DOCTYPE in the prolog is removed, internal subset and
    all, and the entity table is always empty: references stay literal text or fail the strict
    parse. External entities go with the DOCTYPE that declared them."""
    version = None
    kept: list[bytes] = []
    position = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    kept.append(data[:position])
    while True:
        token = _PROLOG_TOKEN.match(data, position)
        if token and token.end() > position:
            starts_output = len(kept) == 1  # nothing but the byte-order mark kept before it
            if starts_output or not _XML_DECLARATION.match(token.group()):
                kept.append(token.group())
            position = token.end()
        elif data.startswith(b"<!DOCTYPE", position):
            end = _doctype_end(data, position)
            if b"netscape" in data[position:end].lower():
                version = "rss091n"
            position = end
        else:
            break
    return version, b"".join(kept) + data[position:], {}


# feedparser.api imported replace_doctype by name; parse() looks it up there on every call.
feedparser.api.replace_doctype = _replace_doctype
feedparser_speed.install()


class FeedParseError(Exception):
    pass


def _looks_like_json(content: bytes) -> bool:
    # json.loads accepts a UTF-8 byte-order mark in bytes, and some JSON Feeds carry one.
    return content.removeprefix(b"\xef\xbb\xbf").lstrip()[:1] == b"{"


def _time_from_struct(value) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromtimestamp(calendar.timegm(value), tz=UTC)
    except (OverflowError, ValueError, TypeError):
        return None


def parse_iso_time(value: object) -> datetime | None:
    """An ISO 8601 time from untrusted data (JSON Feed, JSON-LD, meta tags, search results) as
    aware UTC; None for anything else."""
    # JSON gives no type guarantee: a number or list here must not crash the whole feed.
    if not value or not isinstance(value, str) or not value.strip():
        return None
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    # Aware UTC like the feedparser path, whatever offset the feed used.
    return parsed.astimezone(UTC) if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _plain_text(value: str, content_type: str = "text/plain") -> str:
    """Plain text from an already XML-decoded text construct. Only HTML is stripped and
    unescaped: "Q&amp;A &lt;b&gt;" in an RSS title is the literal text "Q&A <b>", and a second
    decoding pass would turn it into "Q&A" (or "AT&amp;T" into "AT&T")."""
    if "html" in (content_type or ""):
        return html_to_text(value)
    return _SPACE.sub(" ", value or "").strip()


def _text_as_html(value: str, content_type: str = "text/html") -> str:
    """HTML for a text construct: plain text is escaped so its "<" survives sanitizing."""
    return value if "html" in (content_type or "") else html.escape(value or "")


def _fallback_url(base_url: str, title: str, content: str) -> str:
    """Entries without a usable link get a stable identity from their title and content;
    the link itself points at the feed's site."""
    digest = hashlib.sha256(f"{title}\n{content}".encode()).hexdigest()[:32]
    try:
        site = canonicalize_url(base_url)
    except InvalidURL:
        site = "https://unknown.invalid/"
    return f"{site}#tidings-entry-{digest}"


def _split_reused_identities(entries: list[ParsedEntry], base_url: str) -> None:
    """A feed that gives several different entries the same link or GUID does not really
    identify them: fall back to title + content for those entries."""
    by_url: dict[str, list[ParsedEntry]] = {}
    for entry in entries:
        by_url.setdefault(entry.url, []).append(entry)
    for group in by_url.values():
        if len(group) > 1 and len({(e.title, e.content_html) for e in group}) > 1:
            for entry in group:
                entry.url = _fallback_url(base_url, entry.title, entry.content_html)


def _entry_url(link: str, guid: str, base_url: str) -> str | None:
    for candidate in (link, guid if guid.startswith(("http://", "https://")) else ""):
        if candidate:
            try:
                return canonicalize_url(urljoin(base_url, candidate.strip()))
            except (InvalidURL, ValueError):  # ValueError: urljoin on "http://[::1"
                continue
    return None


MAX_CATEGORIES = 20
MAX_CATEGORY_CHARS = 100


def _categories(entry) -> list[str]:
    """RSS <category> / Atom <category term|label> as plain text (the item's tags; the first
    naming a section is its section)."""
    found = []
    for tag in entry.get("tags") or []:
        value = (tag.get("label") or tag.get("term") or "") if hasattr(tag, "get") else ""
        if isinstance(value, str) and value.strip():
            found.append(_plain_text(value)[:MAX_CATEGORY_CHARS])
    return found[:MAX_CATEGORIES]


def _make_entry(
    *, link, guid, title, summary_html, content_html, author, published, base, categories=()
):
    """`title`, `author` and `categories` are plain text already; `summary_html` and
    `content_html` are HTML."""
    title = title[:500]
    # Relative links and images in the body are relative to the item's page; stored as they
    # are they would point into this site once shown.
    try:
        content_base = urljoin(base, link.strip()) if link else base
    except ValueError:  # "http://[::1": no usable link (found by the property tests)
        content_base = base
    body_html = sanitize_html(content_html or summary_html, base_url=content_base)
    if content_html and summary_html:  # a summary of its own
        description = html_to_text(summary_html, limit=DESCRIPTION_MAX_CHARS)
    else:  # the body is all there is: its text comes from the HTML sanitized above
        description = text_of_sanitized(body_html, limit=DESCRIPTION_MAX_CHARS)
    description = description[:DESCRIPTION_MAX_CHARS]
    url = _entry_url(link or "", guid or "", base) or _fallback_url(base, title, body_html)
    return ParsedEntry(
        url=url,
        entry_id=(guid or link or "")[:2048],
        title=title or description[:120],
        description=description,
        content_html=body_html,
        author=author[:300],
        published_at=published,
        categories=[c for c in categories if c][:MAX_CATEGORIES],
    )


_JSON_TEXT_FIELDS = (
    "id",
    "url",
    "external_url",
    "title",
    "summary",
    "content_html",
    "content_text",
)


def _type_name(value: object) -> str:
    kinds = {dict: "an object", list: "a list", bool: "true/false", str: "text"}
    return kinds.get(type(value), "a number")


def _json_text(value: object, where: str) -> str:
    """A JSON Feed string field: absent/null is "", a number (ids often are) its digits; any
    other type is a malformed feed (str() of a nested list is no title)."""
    if value is None or isinstance(value, str):
        return value or ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    raise FeedParseError(f"JSON Feed {where} is {_type_name(value)}, not a string")


def _json_author(item: dict, where: str) -> str:
    """The first author's name: `authors` (1.1) is a list of objects, `author` (1.0) one. An
    author that is no object, or a name that is no string, is passed over (a feed listing
    "Ann" beside {"name": "Ann"} is still readable); `authors` that is no list is malformed."""
    authors = item.get("authors")
    if authors is None:
        authors = [item["author"]] if item.get("author") is not None else []
    if not isinstance(authors, list):
        raise FeedParseError(f"JSON Feed {where} 'authors' is {_type_name(authors)}, not a list")
    for author in authors:
        name = author.get("name") if isinstance(author, dict) else None
        if isinstance(name, str) and name:
            return name
    return ""


def _check_json_tags(item: dict, where: str) -> None:
    tags = item.get("tags")
    if tags is None:
        return
    if not isinstance(tags, list) or not all(isinstance(tag, str) for tag in tags):
        raise FeedParseError(f"JSON Feed {where} 'tags' is not a list of strings")


def _parse_json_feed(content: bytes, base_url: str) -> ParsedFeed:
    """A JSON Feed (1.0/1.1). JSON promises no types. A text field holding a list or an object,
    `authors` that is no list, `tags` that is no list of strings: a malformed feed
    (FeedParseError naming the item and the field), never a TypeError or str() of a list stored
    as a title; nesting too deep for the decoder is refused, never a RecursionError. Numbers
    read as text; a date or an author of the wrong type is passed over."""
    try:
        document = json.loads(content)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FeedParseError(f"not valid JSON: {exc}") from None
    except RecursionError:
        raise FeedParseError("not a usable JSON document: nested too deeply") from None
    version = document.get("version") if isinstance(document, dict) else None
    if not isinstance(version, str) or "jsonfeed.org/version" not in version:
        raise FeedParseError("JSON document is not a JSON Feed (missing jsonfeed.org version)")
    items = document.get("items") or []
    if not isinstance(items, list):
        raise FeedParseError("JSON Feed 'items' is not a list")
    feed_url = _json_text(document.get("home_page_url"), "'home_page_url'") or base_url or ""
    # JSON Feed: title and summary are plain text; content_html is HTML, content_text is not.
    parsed = ParsedFeed(
        title=_plain_text(_json_text(document.get("title"), "'title'"))[:300],
        site_url=feed_url,
        language=_json_text(document.get("language"), "'language'")[:16],
    )
    for number, item in enumerate(items[:MAX_ENTRIES], start=1):
        if not isinstance(item, dict):
            parsed.skipped += 1
            continue
        where = f"item {number}"
        text = {name: _json_text(item.get(name), f"{where} '{name}'") for name in _JSON_TEXT_FIELDS}
        author = _json_author(item, where)
        _check_json_tags(item, where)
        content_html = text["content_html"] or html.escape(text["content_text"])
        parsed.entries.append(
            _make_entry(
                link=text["url"] or text["external_url"],
                guid=text["id"],
                title=_plain_text(text["title"]),
                summary_html=html.escape(text["summary"]),
                content_html=content_html,
                author=_plain_text(author),
                # A date of the wrong type is no date (parse_iso_time): first-seen time then.
                published=parse_iso_time(item.get("date_published"))
                or parse_iso_time(item.get("date_modified")),
                base=feed_url,
                categories=[
                    _plain_text(tag)[:MAX_CATEGORY_CHARS]
                    for tag in (item.get("tags") if isinstance(item.get("tags"), list) else [])
                    if isinstance(tag, str)
                ],
            )
        )
    parsed.skipped += max(0, len(items) - MAX_ENTRIES)
    _split_reused_identities(parsed.entries, feed_url)
    return parsed


_XML_ENCODING_DECLARED = re.compile(rb"^\s*<\?xml[^>]*encoding=", re.IGNORECASE)
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
_CHARSET = re.compile(r"charset\s*=\s*[\"']?([A-Za-z0-9._:-]+)", re.IGNORECASE)


def _content_type_for(content: bytes, http_content_type: str) -> str:
    """The Content-Type feedparser should assume. The document's own BOM or encoding
    declaration wins; only an undeclared document takes the server's charset."""
    match = _CHARSET.search(http_content_type or "")
    if not match or content.startswith(_BOMS) or _XML_ENCODING_DECLARED.match(content[:512]):
        return "application/xml"
    return f"application/xml; charset={match.group(1)}"


def _feedparser_result(
    content: bytes, base_url: str, http_content_type: str = ""
) -> feedparser.FeedParserDict:
    """The raw feedparser call, exactly as parse_feed makes it (tests/bench/edgecases.py runs
    feedparser's own test suite through this)."""
    # A file object, never bytes: feedparser first tries open(bytes) as a local path, so a
    # response body of "/etc/passwd" would be read from this machine's disk.
    return feedparser.parse(
        io.BytesIO(content),
        # Any response_headers make feedparser treat the bytes as an HTTP response; without a
        # Content-Type it then decodes an undeclared document as ISO-8859-1 (only element text
        # gets repaired, so links and author names turned to mojibake). application/xml means:
        # the document's own declaration or BOM, else UTF-8, as for bytes without headers.
        response_headers={
            "content-location": base_url,
            "content-type": _content_type_for(content, http_content_type),
        },
        # nh3 sanitizes (faster and stricter); relative links are resolved per item in
        # sanitize_html, so feedparser's own passes would be work done twice.
        sanitize_html=False,
        resolve_relative_uris=False,
    )


def parse_feed(
    content: bytes, *, base_url: str = "", headers: dict[str, str] | None = None
) -> ParsedFeed:
    """Parse feed bytes; raise FeedParseError when nothing usable is there. `headers` are the
    HTTP response's (lower-case names): its charset applies to an undeclared document and its
    Content-Language is the feed's language when the feed names none."""
    headers = headers or {}
    if _looks_like_json(content):
        return _parse_json_feed(content, base_url)
    try:
        result = _feedparser_result(content, base_url, headers.get("content-type", ""))
    except Exception as exc:  # feedparser on hostile bytes, e.g. "&#x110000;" in a loose parse
        logger.warning("feedparser failed on a feed from %s", base_url or "a file", exc_info=True)
        raise FeedParseError(f"the feed could not be read ({type(exc).__name__})") from None
    if not result.get("version") and not result.entries:
        reason = result.get("bozo_exception") or "no feed format recognised"
        raise FeedParseError(f"not a feed: {reason}")
    feed = result.feed
    site_url = feed.get("link") or base_url
    feed_title = _plain_text(feed.get("title", ""), feed.get("title_detail", {}).get("type", ""))
    parsed = ParsedFeed(
        title=feed_title[:300],
        site_url=site_url,
        language=(
            feed.get("language") or headers.get("content-language", "").split(",")[0].strip()
        )[:16],
    )
    for entry in result.entries[:MAX_ENTRIES]:
        contents = entry.get("content") or []
        content = max(contents, key=lambda c: len(c.get("value", "")), default={})
        link = entry.get("link", "")
        if entry.get("guidislink") and link == entry.get("id"):
            # feedparser copies an isPermaLink guid into `link` even when it is "42" or
            # "post-0001"; SPEC §4.2 uses a guid only when it is a URL (checked below).
            link = ""
        parsed.entries.append(
            _make_entry(
                link=link,
                guid=entry.get("id", ""),
                title=_plain_text(
                    entry.get("title", ""), entry.get("title_detail", {}).get("type", "")
                ),
                summary_html=_text_as_html(
                    entry.get("summary", ""),
                    entry.get("summary_detail", {}).get("type", "text/html"),
                ),
                content_html=_text_as_html(
                    content.get("value", ""), content.get("type", "text/html")
                ),
                author=_plain_text(entry.get("author", "")),
                published=_time_from_struct(entry.get("published_parsed"))
                or _time_from_struct(entry.get("updated_parsed")),
                base=site_url or base_url,
                categories=_categories(entry),
            )
        )
    parsed.skipped += max(0, len(result.entries) - MAX_ENTRIES)
    _split_reused_identities(parsed.entries, site_url or base_url)
    return parsed


FEED_LINK_TYPES = (
    "application/rss+xml",
    "application/atom+xml",
    "application/feed+json",
    "application/json",
    "application/rdf+xml",
)


def looks_like_html(content: bytes) -> bool:
    head = content[:1024].lstrip().lower()
    return head.startswith((b"<!doctype html", b"<html")) or b"<head" in head


def discover_feed_links(content: bytes, *, base_url: str) -> list[str]:
    """Feed URLs a web page announces with <link rel="alternate" type="...">, best first."""
    soup = BeautifulSoup(content[: 512 * 1024], "html.parser")
    found: list[str] = []
    for link in soup.find_all("link", href=True):
        rel = {value.lower() for value in (link.get("rel") or [])}
        kind = (link.get("type") or "").lower().strip()
        if "alternate" in rel and kind in FEED_LINK_TYPES:
            url = urljoin(base_url, link["href"].strip())
            if url.startswith(("http://", "https://")) and url not in found:
                found.append(url)
    return found
