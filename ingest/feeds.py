"""Parse feed bytes (RSS 0.9x/1.0/2.0, Atom, RDF, JSON Feed) into plain entries.

feedparser is always handed bytes, never a URL, and runs with its own sanitizer off: nh3 is
faster and stricter (feedparser's lets javascript: links and svg/math through).
"""

from __future__ import annotations

import calendar
import hashlib
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from urllib.parse import urljoin

import feedparser
from bs4 import BeautifulSoup

from ingest.canonical import InvalidURL, canonicalize_url
from ingest.sanitize import html_to_text, sanitize_html

MAX_ENTRIES = 500
DESCRIPTION_MAX_CHARS = 2000

# feedparser resolves XML entities itself only for the predefined ones; these off switches keep
# it from reaching out for anything and from spending time on work nh3 redoes.
feedparser.RESOLVE_RELATIVE_URIS = 0
feedparser.SANITIZE_HTML = 0


class FeedParseError(Exception):
    pass


@dataclass
class ParsedEntry:
    url: str  # canonical
    entry_id: str
    title: str
    description: str
    content_html: str
    author: str
    published_at: datetime | None


@dataclass
class ParsedFeed:
    title: str
    site_url: str
    language: str
    entries: list[ParsedEntry] = field(default_factory=list)
    skipped: int = 0


def _looks_like_json(content: bytes) -> bool:
    return content.lstrip()[:1] == b"{"


def _time_from_struct(value) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromtimestamp(calendar.timegm(value), tz=UTC)
    except (OverflowError, ValueError, TypeError):
        return None


def _parse_iso(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


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
            except InvalidURL:
                continue
    return None


def _make_entry(*, link, guid, title_html, summary_html, content_html, author, published, base):
    title = html_to_text(title_html)[:500]
    body_html = sanitize_html(content_html or summary_html)
    description = html_to_text(summary_html or content_html)[:DESCRIPTION_MAX_CHARS]
    url = _entry_url(link or "", guid or "", base) or _fallback_url(base, title, body_html)
    return ParsedEntry(
        url=url,
        entry_id=(guid or link or "")[:2048],
        title=title or description[:120],
        description=description,
        content_html=body_html,
        author=html_to_text(author)[:300],
        published_at=published,
    )


def _parse_json_feed(content: bytes, base_url: str) -> ParsedFeed:
    try:
        document = json.loads(content)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FeedParseError(f"not valid JSON: {exc}") from None
    if not isinstance(document, dict) or "jsonfeed.org/version" not in str(
        document.get("version", "")
    ):
        raise FeedParseError("JSON document is not a JSON Feed (missing jsonfeed.org version)")
    items = document.get("items") or []
    if not isinstance(items, list):
        raise FeedParseError("JSON Feed 'items' is not a list")
    feed_url = str(document.get("home_page_url") or base_url or "")
    parsed = ParsedFeed(
        title=html_to_text(str(document.get("title") or ""))[:300],
        site_url=feed_url,
        language=str(document.get("language") or "")[:16],
    )
    for item in items[:MAX_ENTRIES]:
        if not isinstance(item, dict):
            parsed.skipped += 1
            continue
        authors = item.get("authors") or ([item["author"]] if item.get("author") else [])
        author = next((a.get("name", "") for a in authors if isinstance(a, dict)), "")
        parsed.entries.append(
            _make_entry(
                link=str(item.get("url") or item.get("external_url") or ""),
                guid=str(item.get("id") or ""),
                title_html=str(item.get("title") or ""),
                summary_html=str(item.get("summary") or ""),
                content_html=str(item.get("content_html") or item.get("content_text") or ""),
                author=str(author or ""),
                published=_parse_iso(item.get("date_published"))
                or _parse_iso(item.get("date_modified")),
                base=feed_url,
            )
        )
    parsed.skipped += max(0, len(items) - MAX_ENTRIES)
    _split_reused_identities(parsed.entries, feed_url)
    return parsed


def parse_feed(content: bytes, *, base_url: str = "") -> ParsedFeed:
    """Parse feed bytes; raise FeedParseError when nothing usable is there."""
    if _looks_like_json(content):
        return _parse_json_feed(content, base_url)
    result = feedparser.parse(content, response_headers={"content-location": base_url})
    if not result.get("version") and not result.entries:
        reason = result.get("bozo_exception") or "no feed format recognised"
        raise FeedParseError(f"not a feed: {reason}")
    feed = result.feed
    site_url = feed.get("link") or base_url
    parsed = ParsedFeed(
        title=html_to_text(feed.get("title", ""))[:300],
        site_url=site_url,
        language=(feed.get("language") or "")[:16],
    )
    for entry in result.entries[:MAX_ENTRIES]:
        contents = entry.get("content") or []
        content_html = max((c.get("value", "") for c in contents), key=len, default="")
        parsed.entries.append(
            _make_entry(
                link=entry.get("link", ""),
                guid=entry.get("id", ""),
                title_html=entry.get("title", ""),
                summary_html=entry.get("summary", ""),
                content_html=content_html,
                author=entry.get("author", ""),
                published=_time_from_struct(entry.get("published_parsed"))
                or _time_from_struct(entry.get("updated_parsed")),
                base=site_url or base_url,
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
