"""The local content pool as a search provider: full-text search over what Tidings already has
(`ingest.pool.search_index.search_pool`: PostgreSQL FTS with GIN, SQLite FTS5).

A pool search source adds nothing to the pool. It links the newest matching items to itself as
sightings, so a subscription that picks the search source among its sources sees them like
items of a feed (ingest/pool/recent.py reads sightings). Items already linked are left alone: a
repeated search rewrites nothing and inserts only the new matches.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from ingest.models import ContentItem, ContentItemSource, FetchLog, Source
from ingest.pool.entries import ParsedFeed
from ingest.pool.recent import id_set
from ingest.pool.search_index import search_pool
from ingest.pool.upsert import UpsertCounts
from ingest.pool.visibility import visible_to
from ingest.refresh.outcome import Fetched, RefreshOutcome
from ingest.refresh.pipeline import store_refresh
from ingest.search.providers.base import SearchProvider

# How far back a search looks and how many matches it links, newest first. Runs apply their
# own window to publication time; this only bounds the work of one search.
SEARCH_WINDOW = timedelta(days=30)
SEARCH_LIMIT = 300


def query_terms(query: str) -> list[str]:
    """Comma-separated alternatives, each matched as a phrase (as subscription interests are)."""
    return [term.strip() for term in query.split(",") if term.strip()]


class PoolProvider(SearchProvider):
    key = "pool"
    label = _("Tidings pool")
    local = True

    def read(self, source: Source, queries: list[str] | None = None) -> Fetched:
        # Nothing to fetch: the database half does the search.
        return Fetched(parsed=ParsedFeed(title="", site_url="", language=""))

    def store(self, source: Source, fetched: Fetched, *, now: datetime) -> RefreshOutcome:
        terms = query_terms(source.config.get("query", ""))
        ids = search_pool(
            terms,
            since=now - SEARCH_WINDOW,
            until=now + timedelta(hours=1),
            limit=SEARCH_LIMIT,
            order="recent",
        )
        if ids:
            # A search source is shared by everyone who adds the same query: no reader's
            # newsletter issue may enter it.
            public = set(
                ContentItem.objects.filter(visible_to(None), pk__in=id_set(ids)).values_list(
                    "pk", flat=True
                )
            )
            ids = [item_id for item_id in ids if item_id in public]
        with transaction.atomic():
            linked = (
                set(
                    ContentItemSource.objects.filter(
                        source=source, item_id__in=id_set(ids)
                    ).values_list("item_id", flat=True)
                )
                if ids
                else set()
            )
            new = [item_id for item_id in ids if item_id not in linked]
            ContentItemSource.objects.bulk_create(
                [
                    ContentItemSource(item_id=item_id, source=source, first_seen_at=now)
                    for item_id in new
                ],
                ignore_conflicts=True,
            )
            outcome = store_refresh(source, fetched, now=now)
            # The log says how many items matched; none entered the pool ("inserted" stays 0).
            FetchLog.objects.filter(source=source, started_at=now).update(fetched=len(ids))
        outcome.counts = UpsertCounts(seen=len(ids))
        return outcome
