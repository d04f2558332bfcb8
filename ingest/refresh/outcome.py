"""What the two halves of a refresh hand each other, for every source kind.

A reader (ingest/refresh/readers.py) returns a `Fetched`: the network half's result, no database
state. `store_refresh` (ingest/refresh/pipeline.py) turns it into a `RefreshOutcome`. Readers
import only this module, never the pipeline that calls them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ingest.fetching import fetch
from ingest.models import Source
from ingest.pool.entries import ParsedFeed
from ingest.pool.upsert import UpsertCounts


@dataclass
class RefreshOutcome:
    source: Source
    ok: bool
    counts: UpsertCounts
    not_modified: bool = False
    error: str = ""
    # Not fetched: refreshed successfully less than MIN_REFRESH_INTERVAL ago.
    skipped: bool = False


@dataclass
class Fetched:
    """What the network half of a refresh produced. Holds no database state."""

    result: fetch.FetchResult | None = None  # None for file sources
    parsed: ParsedFeed | None = None  # None on 304 or on failure
    error: str = ""
    http_status: int | None = None
    retry_after: int | None = None
    duration_ms: int = 0

    @property
    def ok(self) -> bool:
        return not self.error

    def fail(self, exc: fetch.FetchError) -> None:
        """Record a fetch error the way the refresh's back-off rules read it."""
        self.error = exc.message
        self.http_status = getattr(exc, "status", None)
        self.retry_after = getattr(exc, "retry_after", None)
