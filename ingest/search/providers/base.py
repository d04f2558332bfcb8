"""What a search provider is: a network half and a database half, like any refresh."""

from __future__ import annotations

from datetime import datetime, timedelta

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
    # Set: the provider asks its queries one by one (`queries_for`), each at most once per
    # this long whoever asks (ingest.models.SearchQueryPoll); unset: a source's one query is
    # reused for the service's REUSE_WINDOW.
    query_floor: timedelta | None = None

    def unavailable_reason(self) -> str:
        """Why this provider cannot be used on this server ("" when it can)."""
        return ""

    def queries_for(self, source: Source, subscription=None) -> list[str]:
        """What to ask when `subscription`'s run collects `source` (None: a scheduled refresh)."""
        query = (source.config or {}).get("query", "")
        return [query] if query else []

    def read(self, source: Source, queries: list[str] | None = None) -> Fetched:
        raise NotImplementedError

    def store(self, source: Source, fetched: Fetched, *, now: datetime) -> RefreshOutcome:
        return store_refresh(source, fetched, now=now)
