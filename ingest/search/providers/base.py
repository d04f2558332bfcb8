"""What a search provider is: a network half and a database half, like any refresh."""

from __future__ import annotations

from datetime import datetime

from ingest.models import Source
from ingest.refresh.outcome import Fetched, RefreshOutcome
from ingest.refresh.pipeline import store_refresh


class SearchProvider:
    """One way of answering a search source's query.

    `read()` is the network half (no database access; safe on a refresh worker thread) and
    `store()` the database half. Most providers return entries and store them like a feed
    (`refresh.store_refresh`: upsert, FetchLog, back-off). A provider whose answers are already
    in the pool (`local`) stores its own way and only runs with each digest run.
    """

    key: str = ""
    label: str = ""
    # Answered from Tidings' own pool, not from outside: metered as a cache hit, and not
    # runnable by the generic (scheduled) refresh pipeline.
    local: bool = False

    def unavailable_reason(self) -> str:
        """Why this provider cannot be used on this server ("" when it can)."""
        return ""

    def read(self, source: Source) -> Fetched:
        raise NotImplementedError

    def store(self, source: Source, fetched: Fetched, *, now: datetime) -> RefreshOutcome:
        return store_refresh(source, fetched, now=now)
