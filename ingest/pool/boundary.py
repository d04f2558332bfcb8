"""The pool's border check: what any reader hands the pool is made storable here, once.

A reader turns bytes from a stranger into a `ParsedFeed` (ingest/pool/entries.py). Some bytes
no database takes: PostgreSQL refuses a NUL in text (`DataError`), and a lone UTF-16
surrogate (a JSON Feed's `"\\ud800"`) cannot be encoded at all (`UnicodeEncodeError`, on
SQLite too). Such a feed used to raise in storage, every few minutes, and take its batch's
writer threads with it. `clean_parsed()` drops NULs and other C0 controls, turns lone
surrogates into U+FFFD (a pair left split is joined), and bounds every length to its column;
an entry whose address does not fit is skipped and counted. Every reader's output passes here
(ingest/refresh/pipeline.py), so no reader needs to know.
"""

from __future__ import annotations

import re

from ingest.pool.entries import DESCRIPTION_MAX_CHARS, ParsedEntry, ParsedFeed

# Tab, newline and carriage return are text; every other C0 control is not.
_UNSTORABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")

URL_MAX_CHARS = 2048  # Source.url, ContentItem.canonical_url, ContentItemSource.entry_id
FEED_TITLE_MAX_CHARS = 300  # Source.title
ENTRY_TITLE_MAX_CHARS = 500  # ContentItem.title
NAME_MAX_CHARS = 300  # ContentItem.author, ContentItem.site_name
LANGUAGE_MAX_CHARS = 16
CATEGORY_MAX_CHARS = 100
MAX_CATEGORIES = 20
# An item's body: far more than any article, far less than a response could hold.
CONTENT_MAX_CHARS = 2_000_000


def storable(text: str | None, limit: int | None = None) -> str:
    """`text` as any database stores it: no NUL or other control (tab and newlines kept), no
    lone surrogate, at most `limit` characters."""
    text = text or ""
    if _UNSTORABLE.search(text):
        text = _CONTROLS.sub("", text)
        # Through UTF-16: a split pair becomes its character again, a lone half U+FFFD.
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text[:limit] if limit is not None else text


def _clean_entry(entry: ParsedEntry) -> ParsedEntry | None:
    url = storable(entry.url)
    if not url or len(url) > URL_MAX_CHARS:
        return None
    entry.url = url
    entry.entry_id = storable(entry.entry_id, URL_MAX_CHARS)
    entry.title = storable(entry.title, ENTRY_TITLE_MAX_CHARS)
    entry.description = storable(entry.description, DESCRIPTION_MAX_CHARS)
    entry.content_html = storable(entry.content_html, CONTENT_MAX_CHARS)
    entry.author = storable(entry.author, NAME_MAX_CHARS)
    entry.site_name = storable(entry.site_name, NAME_MAX_CHARS)
    entry.categories = [
        kept
        for kept in (storable(c, CATEGORY_MAX_CHARS) for c in entry.categories[:MAX_CATEGORIES])
        if kept
    ]
    return entry


def clean_parsed(parsed: ParsedFeed) -> ParsedFeed:
    """Make `parsed` storable in place (and return it): see the module docstring."""
    parsed.title = storable(parsed.title, FEED_TITLE_MAX_CHARS)
    site_url = storable(parsed.site_url)
    parsed.site_url = site_url if len(site_url) <= URL_MAX_CHARS else ""
    parsed.language = storable(parsed.language, LANGUAGE_MAX_CHARS)
    kept = [cleaned for cleaned in map(_clean_entry, parsed.entries) if cleaned is not None]
    parsed.skipped += len(parsed.entries) - len(kept)
    parsed.entries = kept
    return parsed
