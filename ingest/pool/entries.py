"""What every reader hands the pool: plain entries, whatever the source kind.

Feeds, saved pages, watched lists, crawls and searches all produce a `ParsedFeed` of
`ParsedEntry` rows (their network half, on worker threads); `ingest.pool.upsert.upsert_entries`
stores them. Nothing here touches the database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

# The pool keeps this much of an entry's description (a summary, not the article).
DESCRIPTION_MAX_CHARS = 2000


@dataclass
class ParsedEntry:
    url: str  # canonical
    entry_id: str
    title: str
    description: str
    content_html: str
    author: str
    published_at: datetime | None
    # Who published the item, when the reader knows better than the source's title (a search
    # names the publisher of each result; "" means the source's title).
    site_name: str = ""
    # Feed categories, plain text (the item's tags; the first that names a section is its
    # section, ingest/text/sections.py).
    categories: list[str] = field(default_factory=list)


@dataclass
class ParsedFeed:
    title: str
    site_url: str
    language: str
    entries: list[ParsedEntry] = field(default_factory=list)
    skipped: int = 0
    # A first look at a watched list or site: its entries are recorded as already seen, so
    # the first check does not flood anybody's Inbox (ContentItemSource.baseline).
    baseline: bool = False
