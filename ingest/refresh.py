"""Refreshing a source: fetch (conditionally), parse, upsert into the pool, log, reschedule.

`refresh_source()` is the one place a feed is refreshed; the tick, the worker task, the
`ingest` command and "add a source" in the console all call it.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from django.db import transaction

from ingest import fetch
from ingest.feeds import FeedParseError, ParsedFeed, parse_feed
from ingest.models import FetchLog, Source
from ingest.pool import UpsertCounts, upsert_entries

logger = logging.getLogger(__name__)

MIN_REFRESH_INTERVAL = timedelta(minutes=30)
MAX_REFRESH_INTERVAL = timedelta(hours=24)
BACKOFF_STEPS = (timedelta(minutes=5), timedelta(minutes=15), timedelta(minutes=60))
DEGRADED_AFTER_FAILURES = 12
CLAIM_LEASE = timedelta(minutes=10)
_MAX_AGE = re.compile(r"max-age\s*=\s*(\d+)", re.IGNORECASE)


@dataclass
class RefreshOutcome:
    source: Source
    ok: bool
    counts: UpsertCounts
    not_modified: bool = False
    error: str = ""


def backoff_after(failures: int) -> timedelta:
    return BACKOFF_STEPS[min(failures, len(BACKOFF_STEPS)) - 1]


def _next_check_after_success(source: Source, headers: dict[str, str]) -> timedelta:
    interval = timedelta(minutes=source.refresh_interval_minutes)
    match = _MAX_AGE.search(headers.get("cache-control", ""))
    if match:
        interval = max(interval, timedelta(seconds=int(match.group(1))))
    return min(MAX_REFRESH_INTERVAL, max(MIN_REFRESH_INTERVAL, interval))


def _record_failure(source: Source, log: FetchLog, error: str, now: datetime, retry_after=None):
    source.consecutive_failures += 1
    source.last_error = error[:2000]
    source.last_refresh_at = now
    delay = backoff_after(source.consecutive_failures)
    if retry_after:
        delay = max(delay, timedelta(seconds=min(retry_after, 86400)))
    source.next_refresh_at = now + delay
    if source.consecutive_failures > DEGRADED_AFTER_FAILURES:
        source.status = Source.Status.DEGRADED
    log.outcome = FetchLog.Outcome.ERROR
    log.error = error[:2000]
    log.failed = 1


def _apply_parsed(source: Source, parsed: ParsedFeed, now: datetime) -> UpsertCounts:
    if parsed.title and not source.title:
        source.title = parsed.title[:300]
    if parsed.site_url and not source.site_url and parsed.site_url.startswith("http"):
        source.site_url = parsed.site_url[:2048]
    return upsert_entries(source, parsed.entries, now=now)


def refresh_source(
    source: Source, *, now: datetime, prefetched: fetch.FetchResult | None = None
) -> RefreshOutcome:
    """Refresh one feed source now. Never raises for fetch or parse problems: they are
    recorded on the source (backoff, degraded) and in a FetchLog row.

    `prefetched` is a response already fetched for this source (adding a source validates
    by fetching), so the first refresh does not fetch twice.
    """
    started = time.monotonic()
    base_url = ""
    log = FetchLog(source=source, started_at=now, outcome=FetchLog.Outcome.OK)
    counts = UpsertCounts()
    outcome = RefreshOutcome(source=source, ok=True, counts=counts)
    try:
        if "file" in source.config:
            content = Path(source.config["file"]).read_bytes()
            headers: dict[str, str] = {}
        else:
            result = prefetched or fetch.fetch(
                source.url,
                max_bytes=fetch.FEED_MAX_BYTES,
                accept=fetch.FEED_ACCEPT,
                etag=source.etag,
                last_modified=source.last_modified,
            )
            log.http_status = result.status
            headers = result.headers
            if result.permanent_redirect:
                source.url = result.permanent_redirect[:2048]
            if result.not_modified:
                outcome.not_modified = True
                log.outcome = FetchLog.Outcome.NOT_MODIFIED
                content = b""
            else:
                content = result.content
                base_url = result.url
                source.etag = headers.get("etag", "")[:512]
                source.last_modified = headers.get("last-modified", "")[:128]
        if not outcome.not_modified:
            parsed = parse_feed(content, base_url=base_url)
            counts = _apply_parsed(source, parsed, now)
            outcome.counts = counts
            log.fetched = counts.seen
            log.inserted = counts.inserted
            log.updated = counts.updated
            log.deduped = counts.deduped
            log.failed = parsed.skipped
        source.consecutive_failures = 0
        source.last_error = ""
        source.status = Source.Status.ACTIVE
        source.last_refresh_at = now
        source.next_refresh_at = (
            None if "file" in source.config else now + _next_check_after_success(source, headers)
        )
    except fetch.FetchError as exc:
        outcome.ok = False
        outcome.error = exc.message
        _record_failure(source, log, exc.message, now, getattr(exc, "retry_after", None))
        log.http_status = getattr(exc, "status", None)
    except (FeedParseError, OSError) as exc:
        outcome.ok = False
        outcome.error = f"Could not read the feed: {exc}"
        _record_failure(source, log, outcome.error, now)
    log.duration_ms = int((time.monotonic() - started) * 1000)
    with transaction.atomic():
        source.save()
        log.save()
    if not outcome.ok:
        logger.warning("refresh of source %s failed: %s", source.pk, outcome.error)
    return outcome


def claim_due_sources(*, now: datetime, limit: int = 200) -> list[Source]:
    """Claim scheduled sources whose next refresh is due. Each claim is a conditional UPDATE
    that pushes `next_refresh_at` forward by a lease, so of several tickers or workers exactly
    one wins each source, and a crashed worker's source comes due again after the lease."""
    due = list(
        Source.objects.filter(
            refresh_mode=Source.RefreshMode.SCHEDULED,
            status__in=[Source.Status.ACTIVE, Source.Status.DEGRADED],
            next_refresh_at__lte=now,
        )
        .order_by("next_refresh_at")
        .values_list("pk", "next_refresh_at")[:limit]
    )
    claimed_ids = [
        pk
        for pk, due_at in due
        if Source.objects.filter(pk=pk, next_refresh_at=due_at).update(
            next_refresh_at=now + CLAIM_LEASE
        )
    ]
    return list(Source.objects.filter(pk__in=claimed_ids))
