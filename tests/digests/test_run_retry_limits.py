"""A retry of a failed run is a "Run now" under the same id: it counts against the tier's
"Run now" limit, and a run gets at most MAX_RUN_ATTEMPTS attempts — decided atomically under the
account lock, so retries at once cannot slip past either (PostgreSQL, real threads)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.db.models import F
from django.test import Client
from django.urls import reverse

from billing.limits import LIMITS, TierLimitError
from billing.models import Tier
from digests.models import Run
from digests.runs.runner import MAX_RUN_ATTEMPTS
from digests.subscriptions.service import (
    RunStateError,
    create_subscription,
    request_manual_run,
    retry_run,
)
from tests.conftest import api_client_for, make_user
from tests.threads import at_once


def subscribe(user, now):
    return create_subscription(
        user, {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )


def failed_run(subscription, now, attempts: int = 1) -> Run:
    run = request_manual_run(subscription, now=now)
    Run.objects.filter(pk=run.pk).update(status="failed", attempts=attempts, finished_at=now)
    run.refresh_from_db()
    return run


def test_a_retry_counts_against_the_run_now_limit(alice, now):
    limit = LIMITS[Tier.FREE].manual_runs_per_hour
    subscription = subscribe(alice, now)
    runs = [failed_run(subscription, now) for _ in range(limit - 1)]
    retry_run(runs[0], now=now + timedelta(minutes=1))  # the hour's last "Run now"
    with pytest.raises(TierLimitError) as refused:
        request_manual_run(subscription, now=now + timedelta(minutes=2))
    assert refused.value.field == "manual_runs_per_hour"
    with pytest.raises(TierLimitError):
        retry_run(runs[1], now=now + timedelta(minutes=2))
    assert Run.objects.get(pk=runs[1].pk).status == "failed"  # nothing changed
    # An hour after the first requests, there is room again.
    assert retry_run(runs[1], now=now + timedelta(minutes=61)).status == "pending"


def test_a_run_that_used_its_attempts_cannot_be_retried_and_the_console_says_why(alice, now):
    run = failed_run(subscribe(alice, now), now, attempts=MAX_RUN_ATTEMPTS)
    with pytest.raises(RunStateError) as refused:
        retry_run(run, now=now)
    assert "the most a run gets" in refused.value.message
    console = Client()
    console.force_login(alice)
    with time_machine.travel(now, tick=False):
        response = console.post(
            reverse("digests:retry", args=[run.subscription_id, run.pk]), follow=True
        )
    assert "the most a run gets" in response.content.decode()
    assert Run.objects.get(pk=run.pk).status == "failed"


def test_the_api_answers_a_retry_past_the_limit_403_tier_limit(alice, now):
    limit = LIMITS[Tier.FREE].manual_runs_per_hour
    subscription = subscribe(alice, now)
    runs = [failed_run(subscription, now) for _ in range(limit)]
    with time_machine.travel(now + timedelta(minutes=5), tick=False):
        response = api_client_for(alice).post(f"/api/v1/runs/{runs[0].pk}/retry")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "tier_limit"
    assert Run.objects.get(pk=runs[0].pk).status == "failed"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_retries_at_once_stay_within_the_attempt_cap(now):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    owner = make_user("owner@example.com", now=now)
    run = failed_run(subscribe(owner, now), now)

    def retry_and_fail_at_once(n: int) -> str:
        try:
            retry_run(Run.objects.get(pk=run.pk), now=now + timedelta(seconds=1))
        except (RunStateError, TierLimitError):
            return "refused"
        # The worst case: the retried run is claimed and fails again at once.
        Run.objects.filter(pk=run.pk).update(status="failed", attempts=F("attempts") + 1)
        return "accepted"

    outcomes = at_once(retry_and_fail_at_once, range(20))
    assert outcomes.count("accepted") == 1, outcomes
    assert Run.objects.get(pk=run.pk).attempts == MAX_RUN_ATTEMPTS
