"""The dispatcher tick (pull-mode): claim what is due, create runs, hand them to workers.

django-q2 calls `tick()` every minute (one platform schedule, see the digests migration that
creates it); `manage.py tick` calls it by hand. Per-user cron and timezone work happens here,
never in django-q2 schedules (those run in the server's timezone and double-fire on DST).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from django.db import IntegrityError, transaction

from digests.models import Run, Subscription
from digests.runner import RUN_TIMEOUT
from digests.schedule import ScheduleError, next_due_after_run
from ingest.refresh import claim_due_sources

logger = logging.getLogger(__name__)

CLAIM_BATCH = 1000
MAX_RUN_ATTEMPTS = 2


@dataclass
class TickResult:
    sources: list[int] = field(default_factory=list)
    runs: list[int] = field(default_factory=list)
    swept: list[int] = field(default_factory=list)


def _next_after(subscription: Subscription, scheduled_at: datetime, now: datetime):
    if not subscription.cron:
        return None  # one-off: runs once
    try:
        return next_due_after_run(subscription.cron, subscription.timezone, scheduled_at, now)
    except ScheduleError:
        logger.warning("subscription %s has an invalid schedule; pausing it", subscription.pk)
        return None


def claim_due_subscriptions(*, now: datetime, limit: int = CLAIM_BATCH) -> list[Run]:
    """Create one scheduled Run per due subscription. The claim is a conditional UPDATE on
    `next_run_at`: of several concurrent tickers exactly one moves it, and the unique
    (subscription, scheduled_at) constraint on scheduled runs is the last line of defence."""
    due = list(
        Subscription.objects.alive()
        .filter(status=Subscription.Status.ACTIVE, next_run_at__lte=now)
        .order_by("next_run_at")
        .only("id", "owner_id", "cron", "timezone", "next_run_at", "run_at")[:limit]
    )
    runs: list[Run] = []
    for subscription in due:
        scheduled_at = subscription.next_run_at
        upcoming = _next_after(subscription, scheduled_at, now)
        try:
            with transaction.atomic():
                claimed = Subscription.objects.filter(
                    pk=subscription.pk, next_run_at=scheduled_at
                ).update(next_run_at=upcoming)
                if not claimed:
                    continue  # another ticker got there first
                runs.append(
                    Run.objects.create(
                        subscription_id=subscription.pk,
                        user_id=subscription.owner_id,
                        trigger=Run.Trigger.SCHEDULED,
                        scheduled_at=scheduled_at,
                    )
                )
        except IntegrityError:
            logger.info("run for subscription %s at %s exists", subscription.pk, scheduled_at)
    return runs


def sweep_stuck_runs(*, now: datetime) -> list[Run]:
    """Runs left `running` by a killed worker: retried once, then marked failed."""
    stuck = list(Run.objects.filter(status=Run.Status.RUNNING, started_at__lt=now - RUN_TIMEOUT))
    retry: list[Run] = []
    for run in stuck:
        if run.attempts < MAX_RUN_ATTEMPTS:
            moved = Run.objects.filter(pk=run.pk, status=Run.Status.RUNNING).update(
                status=Run.Status.PENDING, error="The worker stopped mid-run; retrying."
            )
            if moved:
                retry.append(run)
        else:
            Run.objects.filter(pk=run.pk, status=Run.Status.RUNNING).update(
                status=Run.Status.FAILED,
                finished_at=now,
                error="The run did not finish within its time limit.",
            )
    return retry


def tick(
    *,
    now: datetime,
    run_source: Callable[[int], object],
    run_run: Callable[[int], object],
) -> TickResult:
    """One scheduler pass. `run_source` / `run_run` either enqueue (the worker's tick) or
    execute inline (`manage.py tick --inline`, tests)."""
    result = TickResult()
    for source in claim_due_sources(now=now):
        result.sources.append(source.pk)
        run_source(source.pk)
    for run in sweep_stuck_runs(now=now):
        result.swept.append(run.pk)
        run_run(run.pk)
    for run in claim_due_subscriptions(now=now):
        result.runs.append(run.pk)
        run_run(run.pk)
    return result
