"""GET /api/v1/admin/stats: the platform at a glance for staff tokens — users, subscriptions,
runs by status, fetch health and LLM spend — in a fixed number of queries."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from rest_framework.test import APIClient

from digests.models import LLMBudgetDay, LLMCall, Run
from digests.subscriptions.service import create_subscription, pause, request_manual_run
from ingest.models import FetchLog, Source
from tests.conftest import api_client_for, make_user

STATS = "/api/v1/admin/stats"


@pytest.fixture
def staff(alice):
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    return api_client_for(alice)


def subscribe(user, now, name="S"):
    return create_subscription(
        user, {"name": name, "interests": ["x"], "cron": "0 8 * * *"}, now=now
    )


def test_staff_read_the_platform_counts(staff, alice, bob, now, django_assert_max_num_queries):
    mine, theirs = subscribe(alice, now), subscribe(bob, now, "B")
    pause(theirs)
    Run.objects.filter(pk=request_manual_run(mine, now=now).pk).update(status="failed")
    request_manual_run(theirs, now=now)
    source = Source.objects.create(
        type="feed",
        config={"url": "u"},
        config_hash="h" * 64,
        status="degraded",
        consecutive_failures=13,
    )
    for outcome in ("ok", "ok", "error"):
        FetchLog.objects.create(source=source, started_at=now, outcome=outcome)
    FetchLog.objects.create(source=source, started_at=now - timedelta(days=2), outcome="error")
    LLMCall.objects.create(
        purpose="summary",
        model="m",
        outcome="ok",
        input_tokens=100,
        output_tokens=20,
        created_at=now,
    )
    LLMCall.objects.create(purpose="narrative", model="m", outcome="error", created_at=now)
    LLMBudgetDay.objects.create(day=now.date(), tokens_used=120)

    with (
        time_machine.travel(now + timedelta(hours=1), tick=False),
        django_assert_max_num_queries(12),
    ):
        response = staff.get(STATS)

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["users"]["total"] == 2 and body["users"]["staff"] == 1
    assert body["subscriptions"] == {"active": 1, "paused": 1, "completed": 0, "total": 2}
    assert body["runs"]["all_time"] == {"pending": 1, "running": 0, "succeeded": 0, "failed": 1}
    assert body["fetch_health"]["sources"]["degraded"] == 1
    assert body["fetch_health"]["sources"]["failing"] == 1
    assert body["fetch_health"]["fetches_24h"] == {"ok": 2, "not_modified": 0, "error": 1}
    llm = body["llm"]
    assert (llm["tokens_today"], llm["calls_30d"], llm["failed_30d"]) == (120, 2, 1)
    assert (llm["input_tokens_30d"], llm["output_tokens_30d"]) == (100, 20)


def test_only_staff_tokens_may_read_them(alice, now):
    assert api_client_for(make_user("carol@example.com")).get(STATS).status_code == 403
    assert APIClient().get(STATS).status_code == 401
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    session = APIClient()
    session.force_login(alice)
    assert session.get(STATS).status_code == 401  # a browser session is not a token
