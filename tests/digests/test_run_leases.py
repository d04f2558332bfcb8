"""Runs under leases: a dead worker's run comes back within a lease, never runs twice, and a
dropped database connection never leaves a run `running`."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import OperationalError

from config import leases
from digests.models import Run, RunItem
from digests.runs import runner
from digests.schedules.scheduler import claim_due_subscriptions, reclaim_runs
from digests.subscriptions.service import create_subscription, request_manual_run
from tests.factories import add_item


def subscribe(user, now, **data):
    base = {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}
    base.update(data)
    return create_subscription(user, base, now=now)


@pytest.fixture
def lease(settings) -> timedelta:
    return timedelta(seconds=settings.WORK_LEASE_SECONDS)


def died_mid_run(run: Run, now) -> None:
    """What a worker killed mid-run leaves: the run claimed and never finished."""
    assert runner._claim(run, now) == run.attempts + 1


def test_a_run_whose_worker_died_comes_back_after_its_lease_then_is_failed(alice, now, lease):
    run = request_manual_run(subscribe(alice, now), now=now)
    died_mid_run(run, now)
    assert reclaim_runs(now=now + lease - timedelta(seconds=1)) == []  # the lease still holds
    assert reclaim_runs(now=now + lease + timedelta(seconds=1)) == [run.pk]
    run.refresh_from_db()
    assert (run.status, run.attempts) == ("pending", 1)
    assert "stopped mid-run" in run.error

    later = now + lease * 3
    died_mid_run(run, later)
    assert reclaim_runs(now=later + lease + timedelta(seconds=1)) == []
    run.refresh_from_db()
    assert (run.status, run.attempts) == ("failed", runner.MAX_RUN_ATTEMPTS)
    assert "every attempt" in run.error


def test_a_run_whose_worker_died_is_delivered_once_by_the_next_attempt(alice, now, lease):
    add_item("PostgreSQL 18 released", now=now)
    run = request_manual_run(subscribe(alice, now), now=now)
    died_mid_run(run, now)
    later = now + lease + timedelta(seconds=1)
    assert reclaim_runs(now=later) == [run.pk]
    done = runner.execute_run(run.pk, now=later)
    assert (done.status, done.attempts, done.delivered_count) == ("succeeded", 2, 1)
    assert done.lease_expires_at is None
    assert runner.execute_run(run.pk, now=later).attempts == 2  # succeeded: never run again
    assert reclaim_runs(now=later + lease * 10) == []


def test_a_pending_run_whose_task_was_lost_is_handed_out_again_once_per_lease(alice, now, lease):
    run = request_manual_run(subscribe(alice, now), now=now)
    assert run.lease_expires_at == now + lease
    assert reclaim_runs(now=now + lease - timedelta(seconds=1)) == []
    assert reclaim_runs(now=now + lease + timedelta(seconds=1)) == [run.pk]
    assert reclaim_runs(now=now + lease + timedelta(seconds=2)) == []  # not on every tick
    assert reclaim_runs(now=now + 2 * lease + timedelta(seconds=2)) == [run.pk]
    assert Run.objects.get().status == "pending"


def test_a_pending_run_nobody_picks_up_for_a_real_day_is_failed(alice, now, lease):
    run = request_manual_run(subscribe(alice, now), now=now)
    Run.objects.filter(pk=run.pk).update(created_at=now - timedelta(days=1, minutes=1))
    # Creation times are compared with the real clock, not with the injected `now`.
    with time_machine.travel(now, tick=False):
        assert reclaim_runs(now=now + lease + timedelta(seconds=1)) == []
    failed = Run.objects.get()
    assert failed.status == "failed"
    assert "No worker picked this run up" in failed.error


def test_a_ticker_with_an_injected_future_clock_leaves_fresh_runs_alone(alice, now, lease):
    """`tick --now` far ahead of the real clock: the runs a concurrent ticker with the same
    clock just made are neither re-enqueued nor given up (creation times are real, `now` is
    not, and leases compare lease times only)."""
    future = now + timedelta(days=400)
    subscription = subscribe(alice, now)
    type(subscription).objects.filter(pk=subscription.pk).update(next_run_at=future)
    made = claim_due_subscriptions(now=future)
    assert len(made) == 1
    assert reclaim_runs(now=future + timedelta(seconds=5)) == []
    assert Run.objects.get().status == "pending"


def test_a_reclaimed_run_whose_first_worker_comes_back_writes_nothing(
    alice, now, lease, monkeypatch
):
    add_item("PostgreSQL 18 released", now=now)
    run = request_manual_run(subscribe(alice, now), now=now)
    later = now + lease + timedelta(seconds=1)
    real_prepare = runner.prepare_texts

    def presumed_dead(*args, **kwargs):
        # While attempt 1 is still working, its lease runs out and attempt 2 claims the run.
        monkeypatch.setattr(runner, "prepare_texts", real_prepare)
        assert reclaim_runs(now=later) == [run.pk]
        assert runner.execute_run(run.pk, now=later).status == "succeeded"
        return real_prepare(*args, **kwargs)

    monkeypatch.setattr(runner, "prepare_texts", presumed_dead)
    first = runner.execute_run(run.pk, now=now)
    assert (first.status, first.attempts, first.delivered_count) == ("succeeded", 2, 1)
    assert RunItem.objects.count() == 1  # attempt 1 reached its fence and wrote nothing


def test_a_dropped_database_connection_puts_the_run_back_for_the_next_tick(
    alice, now, lease, monkeypatch
):
    add_item("PostgreSQL 18 released", now=now)
    run = request_manual_run(subscribe(alice, now), now=now)

    def connection_lost(*args, **kwargs):
        raise OperationalError("terminating connection due to administrator command")

    monkeypatch.setattr(runner, "_deliver", connection_lost)
    dropped = runner.execute_run(run.pk, now=now)
    assert (dropped.status, dropped.attempts) == ("pending", 1)
    assert "connection dropped" in dropped.error
    assert reclaim_runs(now=now + timedelta(seconds=1)) == [run.pk]  # at once, not a lease later

    later = now + timedelta(minutes=1)
    again = runner.execute_run(run.pk, now=later)  # the last attempt fails for good
    assert (again.status, again.attempts) == ("failed", 2)
    assert "OperationalError" in again.error
    monkeypatch.undo()
    assert runner.execute_run(run.pk, now=later).status == "succeeded"  # a retry by hand


def test_a_failure_write_survives_a_dropped_connection(monkeypatch):
    calls = []
    closed = []
    monkeypatch.setattr(leases.connection, "close", lambda: closed.append(True))
    monkeypatch.setattr(leases.time, "sleep", lambda seconds: None)

    def write():
        calls.append(True)
        if len(calls) < 3:
            raise OperationalError("server closed the connection unexpectedly")
        return 1

    assert leases.write_status(write, what="run 1") == 1
    assert (len(calls), len(closed)) == (3, 2)
