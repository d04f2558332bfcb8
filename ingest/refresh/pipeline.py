"""Refreshing a source: fetch (conditionally), parse, upsert into the pool, log, reschedule.

A refresh has two halves: `fetch_and_parse()` (network and parsing, no database) and
`store_refresh()` (one short transaction). `refresh_source()` runs both for one source — the
worker task, the `ingest` command and "add a source" in the console call it; `refresh_many()`
runs the network halves of a batch on a thread pool and stores each result as it arrives —
the scheduler's batches call it. Either way no HTTP request is made inside a transaction.
"""

from __future__ import annotations

import logging
import queue
import re
import threading
import time
from collections import defaultdict
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db import DatabaseError, connection, connections, transaction
from django.utils.module_loading import import_string

from config import leases
from ingest.fetching import fetch, politeness
from ingest.models import ContentItemSource, FetchLog, Source
from ingest.pool.boundary import clean_parsed
from ingest.pool.entries import ParsedFeed
from ingest.pool.upsert import UpsertCounts, upsert_entries
from ingest.refresh import readers
from ingest.refresh.outcome import Fetched, RefreshOutcome

logger = logging.getLogger(__name__)

MIN_REFRESH_INTERVAL = timedelta(minutes=30)
MAX_REFRESH_INTERVAL = timedelta(hours=24)
BACKOFF_STEPS = (timedelta(minutes=5), timedelta(minutes=15), timedelta(minutes=60))
DEGRADED_AFTER_FAILURES = 12
# A claimed source whose worker died this many times in a row (its lease ran out each time) is
# counted as a failed refresh and backs off, so a feed that kills its worker cannot loop.
MAX_REFRESH_ATTEMPTS = 3
REFRESH_WRITER_THREADS = 4
_MAX_AGE = re.compile(r"max-age\s*=\s*(\d+)", re.IGNORECASE)
# Who hears, inside the storing transaction, that a check of a source of this type found items
# the source never had before: a watched list's notifiers become due (digests/watches/notifiers.py).
# Named, not imported, for the reason readers.py gives: they build on this pipeline.
CHANGE_HANDLERS = {"list": "digests.watches.notifiers.changes_seen"}


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
    if parsed.language and source.type == Source.Type.FEED:
        source.language = parsed.language.strip().lower()[:16]
    return upsert_entries(source, parsed.entries, now=now, baseline=parsed.baseline)


def _reads_left_a_gap(source: Source, counts: UpsertCounts, now: datetime) -> bool:
    """Every item of this read is new to a feed that had items before: more was published
    between two reads than the feed holds, so some items may never have been seen. (One
    extra query, only when every item is new.)"""
    return (
        source.type == Source.Type.FEED
        and source.last_refresh_at is not None  # (not yet updated: the previous read's time)
        and counts.distinct >= 2
        and counts.new_sightings == counts.distinct
        and ContentItemSource.objects.filter(source=source, first_seen_at__lt=now).exists()
    )


def fetch_and_parse(
    source: Source,
    *,
    prefetched: fetch.FetchResult | None = None,
    preparsed: ParsedFeed | None = None,
) -> Fetched:
    """The network half of a refresh, whatever the source type (see ingest/refresh/readers.py): it
    reads only fields of `source` already in memory and never writes to the database, so it is
    safe on a worker thread and never runs inside a transaction. `preparsed` is what the caller
    already parsed from `prefetched` (adding a feed): the reader is not run again.

    Whatever a reader produced passes the pool's border check (ingest/pool/boundary.py) here,
    so no feed's text can make storing raise."""
    started = time.monotonic()
    if preparsed is not None:
        status = prefetched.status if prefetched is not None else None
        return Fetched(result=prefetched, parsed=clean_parsed(preparsed), http_status=status)
    fetched = readers.reader_for(source.type)(source, prefetched)
    if fetched.parsed is not None:
        clean_parsed(fetched.parsed)
    fetched.duration_ms = int((time.monotonic() - started) * 1000)
    return fetched


_REFRESH_FIELDS = [
    "url",
    "title",
    "site_url",
    "etag",
    "last_modified",
    "consecutive_failures",
    "last_error",
    "status",
    "last_refresh_at",
    "next_refresh_at",
    "attempts",
    "lease_expires_at",
    "language",
    "gap_detected_at",
    "backfill_requested_at",
]


# A refresh's commit does not wait for its WAL to reach disk (PostgreSQL's synchronous_commit
# off, for this transaction only; set by the refresh's last statement, `_save_source_and_log()`,
# since the setting counts at the commit). A database crash can then lose the last fraction of
# a second of refreshes, which is safe: the source row's schedule and validators roll back with
# its items, so the next tick fetches them again; and any transaction that saw those items and
# committed normally (a run) flushed the WAL up to them too, so nothing durable ever points at a
# lost item.
_COMMIT_WITHOUT_WAITING_FOR_DISK = "set_config('synchronous_commit', 'off', true)"


def _save_source_and_log(source: Source, log: FetchLog) -> None:
    """The source's row (the fields of _REFRESH_FIELDS) and its new FetchLog. On PostgreSQL one
    statement, which also turns synchronous_commit off (above) — the three cost a round trip
    each before. Raises as `save(update_fields=...)` does when the source's row is gone."""
    if connection.vendor != "postgresql":
        source.save(update_fields=_REFRESH_FIELDS)
        log.save()
        return
    quote = connection.ops.quote_name
    source_fields = [Source._meta.get_field(name) for name in _REFRESH_FIELDS]
    log_fields = [f for f in FetchLog._meta.concrete_fields if not f.primary_key]
    assignments = ", ".join(f"{quote(f.column)} = %s" for f in source_fields)
    columns = ", ".join(quote(f.column) for f in log_fields)
    placeholders = ", ".join(["%s"] * len(log_fields))
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH source AS (UPDATE {quote(Source._meta.db_table)} SET {assignments} "  # noqa: S608 - names from the models
            f"WHERE {quote(Source._meta.pk.column)} = %s RETURNING 1) "
            f"INSERT INTO {quote(FetchLog._meta.db_table)} ({columns}) "
            f"SELECT {placeholders} WHERE EXISTS (SELECT FROM source) "
            f"RETURNING {quote(FetchLog._meta.pk.column)}, {_COMMIT_WITHOUT_WAITING_FOR_DISK}",
            [
                *(f.get_db_prep_save(f.pre_save(source, False), connection) for f in source_fields),
                source.pk,
                *(f.get_db_prep_save(f.pre_save(log, True), connection) for f in log_fields),
            ],
        )
        row = cursor.fetchone()
    if row is None:
        raise DatabaseError("Save with update_fields did not affect any rows.")
    log.pk = row[0]
    log._state.adding = False
    log._state.db = connection.alias


def store_refresh(source: Source, fetched: Fetched, *, now: datetime) -> RefreshOutcome:
    """The database half of a refresh: upsert the items, update the source's schedule and
    conditional-GET state, and write exactly one FetchLog — all in one transaction.

    A refresh of a feed with a backfill requested is the backfill read: its log is of kind
    `backfill`, and only a successful one settles the request and the source's gap."""
    started = time.monotonic()
    backfill = source.type == Source.Type.FEED and source.backfill_requested_at is not None
    log = FetchLog(
        source=source,
        kind=FetchLog.Kind.BACKFILL if backfill else FetchLog.Kind.REFRESH,
        started_at=now,
        outcome=FetchLog.Outcome.OK,
        http_status=fetched.http_status,
    )
    outcome = RefreshOutcome(
        source=source, ok=fetched.ok, counts=UpsertCounts(), error=fetched.error
    )
    result = fetched.result
    with transaction.atomic():
        if not fetched.ok:
            _record_failure(source, log, fetched.error, now, fetched.retry_after)
        else:
            if result is not None and result.permanent_redirect:
                # Only now: the new address answered and its content parsed (or was unchanged).
                source.url = result.permanent_redirect[:2048]
            if result is not None and result.not_modified:
                outcome.not_modified = True
                log.outcome = FetchLog.Outcome.NOT_MODIFIED
            else:
                if result is not None:
                    # Validators are kept only for content that parsed: a broken response must
                    # not come back as "304 Not Modified" on the next check.
                    source.etag = result.headers.get("etag", "")[:512]
                    source.last_modified = result.headers.get("last-modified", "")[:128]
                counts = _apply_parsed(source, fetched.parsed, now)
                outcome.counts = counts
                if counts.newly_seen and source.type in CHANGE_HANDLERS:
                    import_string(CHANGE_HANDLERS[source.type])(source, now=now)
                log.fetched = counts.seen
                log.inserted = counts.inserted
                log.updated = counts.updated
                log.deduped = counts.deduped
                log.failed = fetched.parsed.skipped
                if backfill:
                    source.gap_detected_at = None
                if _reads_left_a_gap(source, counts, now):
                    source.gap_detected_at = now
            if backfill:
                source.backfill_requested_at = None
            source.consecutive_failures = 0
            source.last_error = ""
            source.status = Source.Status.ACTIVE
            source.last_refresh_at = now
            source.next_refresh_at = (
                None if result is None else now + _next_check_after_success(source, result.headers)
            )
        log.duration_ms = fetched.duration_ms + int((time.monotonic() - started) * 1000)
        source.attempts = 0  # the claim is done: release its lease
        source.lease_expires_at = None
        _save_source_and_log(source, log)
    if not outcome.ok:
        logger.warning("refresh of source %s failed: %s", source.pk, outcome.error)
    return outcome


def refresh_source(
    source: Source,
    *,
    now: datetime,
    prefetched: fetch.FetchResult | None = None,
    preparsed: ParsedFeed | None = None,
) -> RefreshOutcome:
    """Refresh one feed source now. Never raises for fetch or parse problems: they are
    recorded on the source (backoff, degraded) and in a FetchLog row.

    `prefetched` is a response already fetched for this source (adding a source validates
    by fetching), so the first refresh does not fetch twice; `preparsed`, its parse, so a
    feed is not parsed twice either (a parse can take seconds for a large feed).
    """
    # A site crawl can take minutes: the heartbeat keeps a scheduled claim's lease alive.
    with leases.Heartbeat(Source, [source.pk], now=now):
        fetched = fetch_and_parse(source, prefetched=prefetched, preparsed=preparsed)
        return _store_or_record_failure(source, fetched, now=now)


def _store_or_record_failure(source: Source, fetched: Fetched, *, now: datetime) -> RefreshOutcome:
    """Store a refresh; if storing raises for anything but a dropped connection (a bug, data
    no check foresaw), the failure is this source's error row and back-off — never an
    exception that ends its batch or its caller."""
    try:
        return store_refresh(source, fetched, now=now)
    except Exception as exc:
        if (isinstance(exc, DatabaseError) and leases.is_transient(exc)) or (
            connection.needs_rollback
        ):
            raise  # the caller's to handle: a new connection, or its own transaction's end
        error = exc
    logger.exception("could not store the refresh of source %s", source.pk, exc_info=error)
    source.refresh_from_db()  # drop whatever the failed store changed in memory
    failed = Fetched(
        error=f"The refresh could not be stored: {type(error).__name__}: {error}"[:2000],
        http_status=fetched.http_status,
        duration_ms=fetched.duration_ms,
    )
    return store_refresh(source, failed, now=now)


def _refreshed_recently(source: Source, now: datetime) -> bool:
    return (
        source.last_refresh_at is not None
        and source.consecutive_failures == 0
        and now - source.last_refresh_at < MIN_REFRESH_INTERVAL
    )


def _interleave_hosts(sources: list[Source]) -> list[Source]:
    """Round-robin over hosts, so a batch does not queue many workers behind one host's
    politeness limits while other hosts wait."""
    by_host: dict[str, list[Source]] = defaultdict(list)
    for source in sources:
        by_host[politeness.host_key(urlsplit(source.url).hostname or "")].append(source)
    queues = list(by_host.values())
    ordered: list[Source] = []
    for depth in range(max(map(len, queues), default=0)):
        ordered.extend(q[depth] for q in queues if depth < len(q))
    return ordered


def _writer_threads() -> int:
    """How many threads store results besides the caller. PostgreSQL: a few, each on its own
    connection — a store mostly waits for round trips and the commit. SQLite has one writer at
    a time, and inside a transaction (tests) other connections would not see the caller's
    uncommitted rows: there the calling thread stores everything itself."""
    if connection.vendor == "sqlite" or connection.in_atomic_block:
        return 0
    return REFRESH_WRITER_THREADS


def refresh_many(
    source_ids: Iterable[int], *, now: datetime, concurrency: int | None = None
) -> list[RefreshOutcome]:
    """Refresh a batch of sources: the network halves run on a pool of `concurrency` threads
    (per-host limits still apply inside the fetch client), and each result is stored in its own
    short transaction as soon as it arrives — by the calling thread, or on PostgreSQL by a few
    writer threads.

    A source refreshed successfully less than MIN_REFRESH_INTERVAL ago (a redelivered task, a
    claim that outlived its lease) is not fetched again, only rescheduled.
    """
    concurrency = concurrency or settings.REFRESH_CONCURRENCY
    outcomes: list[RefreshOutcome] = []
    due: list[Source] = []
    for source in Source.objects.filter(pk__in=list(source_ids)).order_by("pk"):
        if _refreshed_recently(source, now):
            source.next_refresh_at = source.last_refresh_at + MIN_REFRESH_INTERVAL
            source.save(update_fields=["next_refresh_at"])
            outcomes.append(
                RefreshOutcome(source=source, ok=True, counts=UpsertCounts(), skipped=True)
            )
        else:
            due.append(source)
    if not due:
        return outcomes
    done: queue.SimpleQueue[tuple[Source, Fetched] | None] = queue.SimpleQueue()

    def network_half(source: Source) -> None:
        fetched = Fetched(error="The refresh stopped unexpectedly.")
        try:
            fetched = fetch_and_parse(source)
        except Exception as exc:  # a bug must not cost the rest of the batch
            logger.exception("refresh of source %s crashed", source.pk)
            fetched = Fetched(error=f"The refresh failed unexpectedly: {exc}")
        finally:
            done.put((source, fetched))

    def store(source: Source, fetched: Fetched) -> None:
        try:
            outcomes.append(_store_or_record_failure(source, fetched, now=now))
        except DatabaseError as exc:
            if not (leases.is_transient(exc) and not connection.in_atomic_block):
                # Its claim lease runs out and it comes due again.
                logger.exception("could not store the refresh of source %s", source.pk)
                return
            # The connection dropped: store once more on a new one, from the row as it is.
            logger.warning("storing source %s failed; retrying on a new connection", source.pk)
            connection.close()
            try:
                source.refresh_from_db()
                outcomes.append(_store_or_record_failure(source, fetched, now=now))
            except DatabaseError:
                logger.exception("could not store the refresh of source %s", source.pk)
        finally:
            heartbeat.release(source.pk)

    def writer() -> None:
        try:
            while (item := done.get()) is not None:
                store(*item)
        except BaseException:
            # Whatever escaped, the batch keeps its writers: a replacement takes this
            # thread's place on the queue (the item that raised is that source's lease to
            # run out), so every other result is still stored in this cycle.
            logger.exception("a refresh writer thread failed; starting a replacement")
            start_writer()
        finally:
            connections.close_all()  # this thread's connections only

    writers: list[threading.Thread] = []

    def start_writer() -> None:
        thread = threading.Thread(target=writer, name=f"refresh-writer-{len(writers)}", daemon=True)
        writers.append(thread)
        thread.start()

    writer_count = _writer_threads()
    for _ in range(writer_count):
        start_writer()
    # The batch's claims stay alive while any of its sources is still being fetched.
    heartbeat = leases.Heartbeat(Source, [source.pk for source in due], now=now).start()
    try:
        with ThreadPoolExecutor(
            max_workers=min(concurrency, len(due)), thread_name_prefix="refresh"
        ) as pool:
            for source in _interleave_hosts(due):
                pool.submit(network_half, source)
            if not writers:
                for _ in range(len(due)):
                    store(*done.get())
    finally:
        for _ in range(writer_count):
            done.put(None)  # every network half has finished: the queue ends here
        joined = 0
        while joined < len(writers):  # replacements append while earlier writers end
            writers[joined].join()
            joined += 1
        heartbeat.stop()
    return outcomes


def claim_due_sources(*, now: datetime, limit: int = 200) -> list[Source]:
    """Claim scheduled sources whose next refresh is due and that no live lease holds. Each
    claim is a conditional UPDATE that takes a lease (config/leases.py), so of several tickers
    or workers exactly one wins each source; the refresh's heartbeat keeps the lease while it
    runs, and a dead worker's source is claimed again as soon as its lease runs out. One that
    died MAX_REFRESH_ATTEMPTS times in a row is recorded as a failed refresh and backs off."""
    due = list(
        Source.objects.filter(
            refresh_mode=Source.RefreshMode.SCHEDULED,
            status__in=[Source.Status.ACTIVE, Source.Status.DEGRADED],
            next_refresh_at__lte=now,
        )
        .filter(leases.free(now))
        .order_by("next_refresh_at")
        .values_list("pk", "next_refresh_at", "attempts")[:limit]
    )
    claimed_ids = []
    for pk, due_at, attempts in due:
        claimable = Source.objects.filter(pk=pk, next_refresh_at=due_at).filter(leases.free(now))
        if attempts >= MAX_REFRESH_ATTEMPTS:
            _record_abandoned(claimable, now)
        elif leases.claim(claimable, now=now, seen_attempts=attempts):
            claimed_ids.append(pk)
    return list(Source.objects.filter(pk__in=claimed_ids))


def _record_abandoned(claimable, now: datetime) -> None:
    """A source whose refresh never finished MAX_REFRESH_ATTEMPTS times: one failed refresh,
    with its FetchLog and backoff, and the attempts start over."""
    with transaction.atomic():
        source = claimable.select_for_update().first()
        if source is None:
            return  # another ticker got there first
        log = FetchLog(source=source, started_at=now, outcome=FetchLog.Outcome.ERROR)
        _record_failure(
            source,
            log,
            f"The refresh stopped before it finished {MAX_REFRESH_ATTEMPTS} times in a row "
            "(its worker died or timed out).",
            now,
        )
        source.attempts = 0
        source.lease_expires_at = None
        source.save(update_fields=_REFRESH_FIELDS)
        log.save()
