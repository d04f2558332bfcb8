"""The lease mechanism itself (config/leases.py): claims count attempts and fence, heartbeats
renew from a thread of their own and stop renewing what was released."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.db import connection

from config import leases
from digests.models import Run
from digests.subscriptions.service import create_subscription, request_manual_run


def a_run(user, now) -> Run:
    subscription = create_subscription(
        user, {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    return request_manual_run(subscription, now=now)


def test_a_claim_is_a_compare_and_set_on_the_attempt_count(alice, now):
    run = a_run(alice, now)
    pending = Run.objects.filter(pk=run.pk, status="pending")
    assert leases.claim(pending, now=now, seen_attempts=0, status="running") == 1
    # A second claimant that read the row before the first claim moved it gets nothing.
    assert leases.claim(Run.objects.filter(pk=run.pk), now=now, seen_attempts=0) == 0
    claimed = Run.objects.get()
    assert (claimed.status, claimed.attempts) == ("running", 1)
    assert claimed.lease_expires_at == leases.lease_until(now)
    assert leases.hold(Run.objects.filter(pk=run.pk), attempt=2, now=now) is False
    assert leases.hold(Run.objects.filter(pk=run.pk), attempt=1, now=now) is True


@pytest.mark.django_db(transaction=True)
def test_a_heartbeat_renews_from_its_own_thread_until_released(now):
    from tests.conftest import make_user

    run = a_run(make_user("alice@example.com"), now)
    leases.claim(Run.objects.filter(pk=run.pk), now=now, status="running")
    claimed_until = Run.objects.get().lease_expires_at
    with leases.Heartbeat(Run, [run.pk], now=now, interval=0.05, status="running") as beat:
        deadline = time.monotonic() + 10
        while Run.objects.get().lease_expires_at == claimed_until:
            assert time.monotonic() < deadline, "the heartbeat never renewed the lease"
            time.sleep(0.05)
        beat.release(run.pk)
        time.sleep(0.2)  # a beat in flight when released may still land
        released_at = Run.objects.get().lease_expires_at
        time.sleep(0.3)
        assert Run.objects.get().lease_expires_at == released_at
    # Renewals are in the claim's clock frame: `now` plus the time elapsed since.
    assert now < released_at - timedelta(seconds=1) < now + leases.lease_duration()
    connection.close()


def test_inside_a_transaction_a_heartbeat_starts_no_thread(alice, now):
    run = a_run(alice, now)
    with leases.Heartbeat(Run, [run.pk], now=now, interval=0.01) as beat:
        assert beat._thread is None
        assert beat.beat() == 1  # checkpoint renewals still work on the caller's connection
