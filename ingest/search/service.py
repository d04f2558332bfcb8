"""`search` sources (SPEC §4.6, §6 step 2): a saved query answered by a provider.

Providers (ingest/search/providers/): `pool` — full-text search over the content pool, which
links matching items to the source; `searxng` — a SearXNG instance's JSON API, whose results
are canonicalized and upserted into the pool; `naver_news` — NAVER's News Search API,
discovery only (the Korean pack's supplement), asked with the interests of the subscription
whose run collects it, each query at most once per 30 minutes. A source's config is
{"provider", "query"}.

Search sources refresh `on_run`: every run of a subscription that uses one collects it first
(`collect_on_run`, registered with digests.runs.on_run by the ingest app), records one `search` on
the run's meter and stores the answer through the usual refresh pipeline, so failures are
logged in a FetchLog and backed off like any other source's. A search answered less than
REUSE_WINDOW ago (another subscription's run a moment earlier) is not asked again; the run
still meters it, as a cache hit. `read_search` is the reader of the generic refresh pipeline,
for a search source an admin switches to `scheduled`.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ingest.library.bulk_add import SourceSpec, add_sources_to_library
from ingest.library.input import SourceInputError
from ingest.models import SearchQueryPoll, Source, UserSource
from ingest.refresh.outcome import Fetched
from ingest.refresh.pipeline import store_refresh
from ingest.search.providers.base import SearchProvider
from ingest.search.providers.naver import NaverNewsProvider
from ingest.search.providers.pool import PoolProvider, query_terms
from ingest.search.providers.searxng import SearxngProvider

PROVIDERS: dict[str, SearchProvider] = {
    provider.key: provider for provider in (PoolProvider(), SearxngProvider(), NaverNewsProvider())
}
DEFAULT_PROVIDER = "pool"
MAX_QUERY_CHARS = 300
REUSE_WINDOW = timedelta(minutes=10)


def provider_of(source: Source) -> SearchProvider | None:
    return PROVIDERS.get((source.config or {}).get("provider") or DEFAULT_PROVIDER)


def _unusable_reason(source: Source, provider: SearchProvider | None) -> str:
    if provider is None:
        return _("Unknown search provider %(provider)r; Tidings has %(known)s.") % {
            "provider": (source.config or {}).get("provider"),
            "known": ", ".join(PROVIDERS),
        }
    return provider.unavailable_reason()


def read_search(source: Source, prefetched=None) -> Fetched:
    """The reader of `search` sources in the refresh pipeline (ingest/refresh/readers.py)."""
    provider = provider_of(source)
    reason = _unusable_reason(source, provider)
    if reason:
        return Fetched(error=reason)
    if provider.local:
        return Fetched(
            error=_(
                "Searches of the Tidings pool run with each digest run; set this source's "
                "refresh mode to “on each run”."
            )
        )
    return provider.read(source)


def _backing_off(source: Source, now: datetime) -> bool:
    return bool(
        source.consecutive_failures and source.next_refresh_at and now < source.next_refresh_at
    )


def _answered_recently(source: Source, now: datetime) -> bool:
    return (
        not source.consecutive_failures
        and source.last_refresh_at is not None
        and timedelta(0) <= now - source.last_refresh_at < REUSE_WINDOW
    )


def claim_queries(
    source: Source, queries: list[str], *, now: datetime, floor: timedelta
) -> dict[str, datetime | None]:
    """Claim the queries of `source` not asked within `floor`: one conditional UPDATE (or
    INSERT) each, so of two runs asking at once exactly one asks. Returns query -> when it
    was asked before (None: never), for `release_queries`."""
    claimed: dict[str, datetime | None] = {}
    for query in queries:
        previous = (
            SearchQueryPoll.objects.filter(source=source, query=query)
            .values_list("last_asked_at", flat=True)
            .first()
        )
        if previous is None:
            try:
                with transaction.atomic():
                    SearchQueryPoll.objects.create(source=source, query=query, last_asked_at=now)
            except IntegrityError:
                continue  # another run asked it a moment ago
            claimed[query] = None
        elif previous <= now - floor and SearchQueryPoll.objects.filter(
            source=source, query=query, last_asked_at=previous
        ).update(last_asked_at=now):
            claimed[query] = previous
    return claimed


def release_queries(source: Source, claimed: dict[str, datetime | None], *, now: datetime):
    """A collection that failed did not ask: its queries may be asked at the next attempt."""
    for query, previous in claimed.items():
        rows = SearchQueryPoll.objects.filter(source=source, query=query, last_asked_at=now)
        if previous is None:
            rows.delete()
        else:
            rows.update(last_asked_at=previous)


def _collect_queries(source, provider, now, meter, subscription) -> None:
    queries = provider.queries_for(source, subscription)
    claimed = claim_queries(source, queries, now=now, floor=provider.query_floor)
    if not claimed:
        # Every query was asked less than the floor ago: the pool already has the answers.
        meter.record("search", cache_hit=True)
        return
    started = time.monotonic()
    fetched = provider.read(source, queries=list(claimed))
    fetched.duration_ms = int((time.monotonic() - started) * 1000)
    outcome = provider.store(source, fetched, now=now)
    if outcome.ok:
        meter.record("search", cache_hit=False)
    else:
        release_queries(source, claimed, now=now)


def collect_on_run(source: Source, now: datetime, meter, subscription=None) -> None:
    """The on-run collector of search sources (digests.runs.on_run): fetch fresh results now, store
    them, meter the search. A source in back-off after failures is skipped until its next
    attempt time, and nothing is metered for it. Providers with a per-query floor (NAVER) ask
    `subscription`'s interests, each query at most once per floor."""
    if _backing_off(source, now):
        return
    provider = provider_of(source)
    if provider is not None and provider.query_floor and not _unusable_reason(source, provider):
        _collect_queries(source, provider, now, meter, subscription)
        return
    if _answered_recently(source, now):
        meter.record("search", cache_hit=True)
        return
    reason = _unusable_reason(source, provider)
    if reason:
        store_refresh(source, Fetched(error=reason), now=now)
        return
    started = time.monotonic()
    fetched = provider.read(source)
    fetched.duration_ms = int((time.monotonic() - started) * 1000)
    outcome = provider.store(source, fetched, now=now)
    if outcome.ok:
        meter.record("search", cache_hit=provider.local)


def register_on_run_collector() -> None:
    from digests.runs.on_run import register_collector

    register_collector(Source.Type.SEARCH, collect_on_run)


# --- Adding a search source -------------------------------------------------------------------


def clean_search_input(query, provider) -> tuple[str, str]:
    """Validate a search's query and provider (no network); raise SourceInputError naming
    every refused field."""
    errors: dict[str, str] = {}
    query = " ".join(str(query or "").split())
    provider_key = str(provider or DEFAULT_PROVIDER).strip().lower()
    if not query:
        errors["query"] = _("Enter what to search for.")
    elif len(query) > MAX_QUERY_CHARS:
        errors["query"] = _("At most %(count)d characters.") % {"count": MAX_QUERY_CHARS}
    elif provider_key == PoolProvider.key and not query_terms(query):
        errors["query"] = _("Enter at least one word or phrase (alternatives separated by commas).")
    chosen = PROVIDERS.get(provider_key)
    if chosen is None:
        errors["provider"] = _("Choose one of %(known)s.") % {"known": ", ".join(PROVIDERS)}
    if errors:
        raise SourceInputError(errors)
    if chosen.unavailable_reason():
        # After the input's own rules: this server is not set up for it (422 in the API).
        raise SourceInputError({"provider": chosen.unavailable_reason()}, code="not_configured")
    return query, provider_key


def add_search(user, query, *, provider=DEFAULT_PROVIDER, now: datetime) -> tuple[UserSource, bool]:
    """Add a search source to the user's library (shared by everyone with the same provider and
    query). Nothing is fetched now: each run that uses it searches. Returns (entry, created)."""
    query, provider_key = clean_search_input(query, provider)
    label = PROVIDERS[provider_key].label
    title = _("%(provider)s search: %(query)s") % {"provider": label, "query": query}
    spec = SourceSpec(
        type=Source.Type.SEARCH,
        config={"provider": provider_key, "query": query},
        title=title[:300],
        refresh_mode=Source.RefreshMode.ON_RUN,
    )
    (added,) = add_sources_to_library(user, [(spec, title[:300])], now=now)
    return added.user_source, added.created
