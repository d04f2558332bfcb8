"""The dispatcher tick (pull-mode): claim what is due, create runs, hand them to workers.

django-q2 calls `tick()` every minute (one platform schedule, see the digests migration that
creates it); `manage.py tick` calls it by hand. Per-user cron and timezone work happens here,
never in django-q2 schedules (those run in the server's timezone and double-fire on DST).
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from config import leases
from digests.delivery import service as deliveries
from digests.models import Run, Subscription
from digests.runs.runner import MAX_RUN_ATTEMPTS
from digests.schedules.next_run import ScheduleError, next_due_after_run
from ingest.models import Source
from ingest.refresh.pipeline import claim_due_sources

logger = logging.getLogger(__name__)

CLAIM_BATCH = 1000
LOST_RUN_GIVE_UP = timedelta(hours=24)
# Claimed sources go to workers in batches this size (ingest.refresh.pipeline.refresh_many fetches a
# batch concurrently). Small enough that a batch of worst-case 30 s fetches stays well inside
# the task timeout.
SOURCE_BATCH = 50


@dataclass
class TickResult:
    sources: list[int] = field(default_factory=list)
    runs: list[int] = field(default_factory=list)
    swept: list[int] = field(default_factory=list)
    editions: list[int] = field(default_factory=list)
    deliveries: list[int] = field(default_factory=list)


def _next_after(subscription: Subscription, scheduled_at: datetime, now: datetime):
    if not subscription.cron:
        return None  # one-off: runs once
    try:
        return next_due_after_run(subscription.cron, subscription.timezone, scheduled_at, now)
    except ScheduleError:
        logger.warning("subscription %s has an invalid schedule; pausing it", subscription.pk)
        return None


def claim_due_subscriptions(*, now: datetime, limit: int = CLAIM_BATCH) -> list[Run]:
    """Create one scheduled Run per due subscription, at most `limit` of them, in a handful of
    statements whatever the batch size.

    The claim is a conditional UPDATE of `next_run_at` (only rows still at the slot that was
    read move): of several concurrent tickers exactly one claims a row. PostgreSQL first locks
    the batch with `SELECT … FOR UPDATE SKIP LOCKED`, so a concurrent ticker takes the next
    rows instead of waiting for these. The runs are inserted in bulk, in the same transaction.
    The unique (subscription, scheduled_at) constraint on scheduled runs is the last line of
    defence: if it fires, the batch is rolled back and claimed row by row, where a slot that
    already has its run is not run again and the schedule moves on (otherwise it would stay
    due and collide on every tick)."""
    if not _BATCH_UPDATE_RETURNING:
        return _claim_row_by_row(now, limit)
    try:
        return _claim_batch(now, limit)
    except IntegrityError:
        logger.warning("a scheduled run already existed for a claimed slot; claiming per row")
        return _claim_row_by_row(now, limit)


# UPDATE … FROM … RETURNING: PostgreSQL; SQLite from 3.35.
_BATCH_UPDATE_RETURNING = sqlite3.sqlite_version_info >= (3, 35, 0)


def _due(now: datetime, limit: int):
    return (
        Subscription.objects.alive()
        .filter(status=Subscription.Status.ACTIVE, next_run_at__lte=now)
        .order_by("next_run_at")
        .only("id", "owner_id", "cron", "timezone", "next_run_at", "run_at")[:limit]
    )


class _NextRuns:
    """`_next_after` memoized for one claim: due subscriptions mostly share a few popular
    (cron, timezone, slot) triples, and croniter is the slow part of a tick."""

    def __init__(self, now: datetime):
        self.now = now
        self.cache: dict[tuple[str, str, datetime], datetime] = {}

    def __call__(self, subscription: Subscription) -> datetime | None:
        key = (subscription.cron, subscription.timezone, subscription.next_run_at)
        if key in self.cache:
            return self.cache[key]
        upcoming = _next_after(subscription, subscription.next_run_at, self.now)
        if upcoming is not None:  # None (one-off, or a bad schedule to log) is not shared
            self.cache[key] = upcoming
        return upcoming


def _scheduled_run(subscription: Subscription, scheduled_at: datetime, now: datetime) -> Run:
    return Run(
        subscription_id=subscription.pk,
        user_id=subscription.owner_id,
        trigger=Run.Trigger.SCHEDULED,
        scheduled_at=scheduled_at,
        # A worker should claim it within a lease; if not, its task was lost (reclaim_runs).
        lease_expires_at=leases.lease_until(now),
    )


def _claim_batch(now: datetime, limit: int) -> list[Run]:
    next_after = _NextRuns(now)
    locking = connection.features.has_select_for_update_skip_locked
    # SQLite: compute the next runs before taking the (database-wide) write lock.
    due = [] if locking else list(_due(now, limit))
    upcoming = [next_after(subscription) for subscription in due]
    with transaction.atomic():
        if locking:
            due = list(_due(now, limit).select_for_update(skip_locked=True, of=("self",)))
            upcoming = [next_after(subscription) for subscription in due]
        if not due:
            return []
        claimed = _move_next_runs(due, upcoming)
        return Run.objects.bulk_create(
            [_scheduled_run(s, s.next_run_at, now) for s in due if s.pk in claimed]
        )


def _move_next_runs(due: list[Subscription], upcoming: list[datetime | None]) -> set[int]:
    """Set each subscription's next_run_at if it still is the slot that was read; return the
    ids that moved. One statement (per 300 rows on SQLite)."""
    table = Subscription._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"UPDATE {table} AS s SET next_run_at = v.upcoming "  # noqa: S608
                "FROM unnest(%s::bigint[], %s::timestamptz[], %s::timestamptz[]) "
                "AS v(id, scheduled, upcoming) "
                "WHERE s.id = v.id AND s.next_run_at = v.scheduled RETURNING s.id",
                [[s.pk for s in due], [s.next_run_at for s in due], upcoming],
            )
            return {row[0] for row in cursor.fetchall()}
        adapt = connection.ops.adapt_datetimefield_value
        claimed: set[int] = set()
        rows = [(s.pk, adapt(s.next_run_at), adapt(u)) for s, u in zip(due, upcoming, strict=True)]
        for start in range(0, len(rows), 300):
            chunk = rows[start : start + 300]
            cursor.execute(
                f"UPDATE {table} SET next_run_at = v.column3 "  # noqa: S608
                f"FROM (VALUES {', '.join(['(%s, %s, %s)'] * len(chunk))}) AS v "
                f"WHERE {table}.id = v.column1 AND {table}.next_run_at = v.column2 "
                f"RETURNING {table}.id",
                [value for row in chunk for value in row],
            )
            claimed.update(row[0] for row in cursor.fetchall())
        return claimed


def _claim_row_by_row(now: datetime, limit: int) -> list[Run]:
    next_after = _NextRuns(now)
    due = [(subscription, next_after(subscription)) for subscription in _due(now, limit)]
    runs: list[Run] = []
    # One transaction for the batch (one commit instead of one per row); a savepoint per run
    # keeps an existing slot from undoing the others.
    with transaction.atomic():
        for subscription, upcoming in due:
            scheduled_at = subscription.next_run_at
            claimed = Subscription.objects.filter(
                pk=subscription.pk, next_run_at=scheduled_at
            ).update(next_run_at=upcoming)
            if not claimed:
                continue  # another ticker got there first
            run = _scheduled_run(subscription, scheduled_at, now)
            try:
                with transaction.atomic():
                    run.save(force_insert=True)
                runs.append(run)
            except IntegrityError:
                logger.info("run for subscription %s at %s exists", subscription.pk, scheduled_at)
    return runs


def reclaim_runs(*, now: datetime, limit: int = CLAIM_BATCH) -> list[int]:
    """Runs whose lease ran out, to hand out again (config/leases.py).

    - `running`: the worker died (or lost its database) without renewing the lease. The run
      goes back to `pending` for another attempt, or is failed after MAX_RUN_ATTEMPTS claims.
    - `pending`: the task was lost before a worker claimed the run (a killed cluster had
      already pulled it from the broker, the broker was down when it was enqueued). It is
      handed out again at most once per lease; a task still queued behind a backlog then
      arrives twice, which the runner's claim makes harmless. After a day of this it is failed
      so it can be retried by hand.

    Each move is a conditional UPDATE, so of several tickers exactly one reclaims a run."""
    requeue: list[int] = []
    running = leases.expired(Run.objects.filter(status=Run.Status.RUNNING), now=now)
    for pk, attempts in running.values_list("pk", "attempts")[:limit]:
        still_expired = leases.expired(
            Run.objects.filter(pk=pk, status=Run.Status.RUNNING, attempts=attempts), now=now
        )
        if attempts < MAX_RUN_ATTEMPTS:
            if still_expired.update(
                status=Run.Status.PENDING,
                lease_expires_at=leases.lease_until(now),
                error="The worker stopped mid-run; retrying.",
            ):
                requeue.append(pk)
        else:
            still_expired.update(
                status=Run.Status.FAILED,
                finished_at=now,
                lease_expires_at=None,
                error="The worker stopped mid-run on every attempt; retry the run to try again.",
            )
    # Real creation times are compared with the real clock, never with an injected `now`.
    leases.expired(
        Run.objects.filter(
            status=Run.Status.PENDING, created_at__lt=timezone.now() - LOST_RUN_GIVE_UP
        ),
        now=now,
    ).update(
        status=Run.Status.FAILED,
        finished_at=now,
        lease_expires_at=None,
        error="No worker picked this run up within a day.",
    )
    pending = leases.expired(Run.objects.filter(status=Run.Status.PENDING), now=now)
    for pk in pending.exclude(pk__in=requeue).values_list("pk", flat=True)[:limit]:
        if leases.expired(Run.objects.filter(pk=pk, status=Run.Status.PENDING), now=now).update(
            lease_expires_at=leases.lease_until(now)
        ):
            requeue.append(pk)
    return requeue


def tick(
    *,
    now: datetime,
    run_source: Callable[[int], object],
    run_run: Callable[[int], object],
    run_sources: Callable[[list[int]], object] | None = None,
    run_edition: Callable[[int], object] | None = None,
    run_delivery: Callable[[int], object] | None = None,
) -> TickResult:
    """One scheduler pass. `run_source` / `run_run` either enqueue (the worker's tick) or
    execute inline (`manage.py tick --inline`, tests). With `run_sources`, claimed sources are
    handed over in batches of SOURCE_BATCH instead of one by one. With `run_edition`, public
    topics whose next edition is due are claimed and handed over too. With `run_delivery`,
    email and webhook deliveries that are due (a retry's time came, a worker died mid-send, a
    task was lost) are handed over."""
    result = TickResult()
    batched: list[int] = []
    for source in claim_due_sources(now=now):
        result.sources.append(source.pk)
        # A site crawl can take minutes: it gets a task of its own, never a batch's slot.
        if run_sources is None or source.type == Source.Type.CRAWL:
            run_source(source.pk)
        else:
            batched.append(source.pk)
    if run_sources is not None:
        for start in range(0, len(batched), SOURCE_BATCH):
            run_sources(batched[start : start + SOURCE_BATCH])
    for run_id in reclaim_runs(now=now):
        result.swept.append(run_id)
        run_run(run_id)
    for run in claim_due_subscriptions(now=now):
        result.runs.append(run.pk)
        run_run(run.pk)
    if run_delivery is not None:
        for delivery_id in deliveries.due_ids(now=now):
            result.deliveries.append(delivery_id)
            run_delivery(delivery_id)
    if run_edition is not None:
        from topics.editions import claim_due_topics, reclaim_editions

        reclaim_editions(now=now)
        for topic_id in claim_due_topics(now=now):
            result.editions.append(topic_id)
            run_edition(topic_id)
    return result
