"""The dispatcher tick's own loop (digests/schedules/ticker.py, `manage.py tick --loop`): it
ticks on the beat whatever the task queue holds, because it is not in the queue — a 2,000-run
backlog in the broker does not delay the claim of a subscription that comes due, nor the
reclaim of a dead worker's run."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
import time_machine
from django_q.conf import Conf
from django_q.models import OrmQ
from django_q.tasks import async_task

from digests import tasks
from digests.models import Run, Subscription
from digests.schedules.ticker import next_beat, run_ticker
from digests.subscriptions.service import create_subscription

BACKLOG = 2_000


def test_beats_are_aligned_multiples_of_the_interval():
    assert next_beat(119.9, 60) == 120
    assert next_beat(120.0, 60) == 180
    assert next_beat(0.01, 0.5) == 0.5


def test_a_tick_that_raises_does_not_end_the_loop():
    calls = []

    def flaky_tick():
        calls.append(len(calls))
        if len(calls) == 1:
            raise RuntimeError("database away")
        return {}

    assert run_ticker(flaky_tick, every=0.02, clock=time.monotonic, ticks=3) == 3
    assert calls == [0, 1, 2]


def test_a_stopped_loop_ends_without_ticking_again():
    stop = threading.Event()
    stop.set()
    assert run_ticker(lambda: None, every=0.02, clock=time.monotonic, stop=stop) == 0


@pytest.fixture
def queued_not_run(monkeypatch):
    """Tasks go to the ORM broker, as in production, and stay there (no worker runs here)."""
    monkeypatch.setattr(Conf, "SYNC", False)


def test_the_tick_claims_and_reclaims_on_time_behind_a_2000_run_backlog(
    alice, bob, now, queued_not_run
):
    backlog = create_subscription(
        bob, {"name": "Busy", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    runs = Run.objects.bulk_create(
        Run(
            subscription=backlog,
            user=bob,
            trigger=Run.Trigger.MANUAL,
            scheduled_at=now,
            lease_expires_at=now + timedelta(hours=1),
        )
        for _ in range(BACKLOG)
    )
    for run in runs:
        async_task("digests.tasks.execute_run", run.pk, group="runs")
    assert OrmQ.objects.count() == BACKLOG
    due = create_subscription(
        alice, {"name": "Due", "interests": ["Quokka"], "cron": "0 8 * * *"}, now=now
    )
    Subscription.objects.filter(pk=due.pk).update(next_run_at=now - timedelta(seconds=1))
    # A dead worker's run: running, its lease run out.
    orphan = Run.objects.create(
        subscription=due,
        user=alice,
        trigger=Run.Trigger.MANUAL,
        scheduled_at=now - timedelta(minutes=5),
        status=Run.Status.RUNNING,
        attempts=1,
        lease_expires_at=now - timedelta(seconds=1),
    )

    lateness: list[float] = []
    with time_machine.travel(now, tick=False):
        run_ticker(
            tasks.dispatch_tick,
            every=0.05,
            clock=time.monotonic,
            ticks=1,
            on_tick=lambda beat, late: lateness.append(late),
        )
    run = Run.objects.get(subscription=due, trigger=Run.Trigger.SCHEDULED)
    orphan.refresh_from_db()
    assert orphan.status == Run.Status.PENDING  # reclaimed in the same tick, re-enqueued
    assert lateness[0] < 1.0
    # Its run waits in the queue behind the backlog (with the tick's hourly chores); the tick
    # itself did not.
    assert OrmQ.objects.count() > BACKLOG
    assert run.status == "pending"
    assert Run.objects.filter(subscription=backlog, status="pending").count() == BACKLOG
