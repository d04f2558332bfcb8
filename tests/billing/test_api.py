"""/api/v1/billing/: balance, the ledger, estimates; /api/v1/admin/billing/stats for staff."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from ingest.library.sources import add_to_library
from ingest.models import Source
from tests.conftest import api_client_for, make_user
from tests.factories import charged_run, on_plan


@pytest.fixture
def api(alice):
    return api_client_for(alice)


def test_the_balance_says_tier_balance_monthly_credits_and_period(api, alice, now):
    charged_run(alice, now, credits=7)
    body = api.get("/api/v1/billing/balance").json()
    assert {k: body[k] for k in ("tier", "balance", "monthly_credits")} == {
        "tier": "free",
        "balance": 93,
        "monthly_credits": 100,
    }
    assert (body["period_start"], body["period_end"]) == ("2026-11-20", "2026-12-20")
    assert body["limits"]["subscriptions"] == 3
    assert body["limits"]["min_interval_seconds"] == 3600


def test_the_transactions_are_cursor_paginated_newest_first(api, alice, now):
    runs = [charged_run(alice, now, credits=2, name=f"S{n}")[1] for n in range(3)]
    first = api.get("/api/v1/billing/transactions?limit=2").json()
    assert [row["run_id"] for row in first["results"]] == [runs[2].pk, runs[1].pk]
    row = first["results"][0]
    assert set(row) >= {"id", "kind", "amount", "run_id", "created_at", "breakdown"}
    assert (row["kind"], row["amount"]) == ("charge", -2)
    assert row["breakdown"]["operations"]["page_fetch"] == 1
    second = api.get(first["next"]).json()
    assert [r["kind"] for r in second["results"]] == ["charge", "monthly_reset"]
    assert second["next"] is None


def test_nobody_reads_anothers_ledger(alice, bob, now):
    charged_run(alice, now, credits=5)
    rows = api_client_for(bob).get("/api/v1/billing/transactions").json()["results"]
    assert [(r["kind"], r["amount"]) for r in rows] == [("monthly_reset", 100)]


def test_runs_report_what_they_cost(api, alice, now):
    _sub, run = charged_run(alice, now, credits=4)
    _sub, empty = charged_run(alice, now, credits=3, delivered=0, name="Empty")
    assert api.get(f"/api/v1/runs/{run.pk}").json()["credits_charged"] == 4
    body = api.get(f"/api/v1/runs/{empty.pk}").json()
    assert (body["credits_charged"], body["credits_refunded"]) == (3, 3)


@override_settings(FULLTEXT_TOP_K=5)
def test_an_estimate_before_creating(api, alice, now):
    with time_machine.travel(now, tick=False):
        body = api.get(
            "/api/v1/billing/estimate", {"cron": "0 8 * * 1-5", "timezone": "Europe/Berlin"}
        ).json()
    assert body == {
        "per_run_max": 10,
        "runs_per_month": 21,
        "per_month_max": 210,
        "monthly_credits": 100,
        "balance": 100,
        "tier": "free",  # the key, as /billing/balance says it
        "tier_label": "Free",
        "fits_plan": True,
        "plan_refusal": "",
    }
    too_often = api.get("/api/v1/billing/estimate", {"cron": "*/5 * * * *"}).json()
    assert not too_often["fits_plan"]
    assert "5 minutes apart" in too_often["plan_refusal"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"cron": "not cron"}, "cron"),
        ({"cron": "0 8 * * *", "timezone": "Mars/Olympus"}, "timezone"),
        ({"cron": "0 8 * * *", "source_ids": "1,two"}, "source_ids"),
    ],
)
def test_a_bad_estimate_query_is_a_400_naming_the_field(api, query, field):
    response = api.get("/api/v1/billing/estimate", query)
    assert response.status_code == 400
    assert field in response.json()["error"]["fields"]


def test_an_estimate_says_nothing_about_another_readers_sources(api, alice, bob, now):
    search = Source.objects.create(
        type="search",
        config={"query": "bob's secret"},
        config_hash="s" * 64,
        refresh_mode=Source.RefreshMode.ON_RUN,
    )
    add_to_library(bob, search)
    response = api.get(
        "/api/v1/billing/estimate", {"cron": "0 8 * * *", "source_ids": str(search.pk)}
    )
    assert response.status_code == 404  # as if it did not exist
    assert "Not in your source library" in response.json()["error"]["fields"]["source_ids"]
    add_to_library(alice, search)
    with time_machine.travel(now, tick=False):
        mine = api.get(
            "/api/v1/billing/estimate", {"cron": "0 8 * * *", "source_ids": str(search.pk)}
        )
    assert mine.status_code == 200
    assert mine.json()["per_run_max"] > 0


def test_staff_read_spend_by_operation_user_and_tier(alice, bob, now):
    staff = make_user("ops@example.com", now=now)
    staff.is_staff = True
    staff.save()
    charged_run(alice, now, credits=7)
    charged_run(bob, now, credits=3)
    charged_run(bob, now, credits=2, delivered=0, name="Empty")

    url = "/api/v1/admin/billing/stats"
    since = (now - timedelta(days=1)).isoformat()
    until = (now + timedelta(days=1)).isoformat()
    body = api_client_for(staff).get(url, {"since": since, "until": until}).json()

    assert body["spent"] == 10
    assert body["by_operation"]["search"] == {"count": 3, "cache_hits": 3, "credits": 3}
    assert body["by_operation"]["page_fetch"]["credits"] == 9
    assert [(u["email"], u["spent"]) for u in body["top_users"]] == [
        ("alice@example.com", 7),
        ("bob@example.com", 3),
    ]
    assert body["by_tier"] == {"free": 10}
    assert body["by_kind"]["refund"] == {"count": 1, "credits": 2}
    assert body["accounts_by_tier"]["free"] == 3

    assert api_client_for(alice).get(url).status_code == 403
    from rest_framework.test import APIClient

    session = APIClient()
    session.force_login(staff)
    assert session.get(url).status_code == 401  # staff tokens only, never a session
    bad = api_client_for(staff).get(url, {"since": "yesterday"})
    assert bad.status_code == 400 and "since" in bad.json()["error"]["fields"]


def test_a_page_of_the_ledger_costs_the_same_queries_however_long_it_is(
    api, alice, now, django_assert_max_num_queries
):
    charged_run(alice, now, credits=2)
    with CaptureQueriesContext(connection) as short:
        api.get("/api/v1/billing/transactions")
    on_plan(alice, "team", now=now)
    for n in range(6):
        charged_run(alice, now, credits=2, name=f"S{n}")
    with django_assert_max_num_queries(len(short)):
        assert len(api.get("/api/v1/billing/transactions").json()["results"]) == 9
    assert len(short) <= 4  # token, account, page
