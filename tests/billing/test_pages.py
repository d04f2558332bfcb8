"""What the user sees: plan, balance and period in the header; the credits page with the
ledger; the cost of each run in the run history; the expected cost before creating."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client, override_settings
from django.urls import reverse

from billing import charges, ledger
from billing.accounts import ensure_account
from billing.models import CreditTransaction
from digests.subscriptions.service import request_manual_run
from inbox.models import UserPreference
from tests.factories import charged_run, on_plan

Kind = CreditTransaction.Kind


@pytest.fixture
def console(alice):
    client = Client()
    client.force_login(alice)
    return client


def test_the_header_shows_plan_balance_and_period_on_every_console_page(console, alice, now):
    charged_run(alice, now, credits=7)
    for name in ("inbox:index", "digests:list", "ingest:list", "billing:credits"):
        body = console.get(reverse(name)).content.decode()
        assert '<span class="badge">Free</span> 93 credits' in body
        # The period in the one date format (config/moments.py), with its year.
        assert '<time datetime="2026-11-20">20 Nov 2026</time> – ' in body
        assert '<time datetime="2026-12-20">20 Dec 2026</time>' in body
        assert f'href="{reverse("billing:credits")}"' in body


def test_the_header_period_reads_in_chinese(console, alice, now):
    charged_run(alice, now, credits=7)
    UserPreference.objects.filter(user=alice).update(
        ui_locale="zh-hans", locale_mode=UserPreference.LocaleMode.MANUAL
    )
    body = console.get(reverse("inbox:index")).content.decode()
    assert "2026年11月20日</time> – " in body and "2026年12月20日</time>" in body
    assert "十一月" not in body  # a month's name as a word, with the day after it


def test_the_credits_page_lists_the_ledger_and_the_plans_limits(console, alice, now):
    _subscription, run = charged_run(alice, now, credits=7)
    charged_run(alice, now, credits=3, delivered=0, name="Empty")
    ledger.grant_or_adjust(
        ensure_account(alice, now=now).pk,
        kind=Kind.GRANT,
        amount=25,
        reason="Sorry about the outage",
        actor=None,
        now=now,
        key="g",
    )
    with time_machine.travel(now + timedelta(minutes=5), tick=False):
        body = console.get(reverse("billing:credits")).content.decode()
    table = body[body.index('id="ledger"') :]
    assert table.index("Grant") < table.index("Refund") < table.index("Charge")  # newest first
    assert "Sorry about the outage" in table
    assert "nothing was delivered to your Inbox" in table
    assert "searches: 1 (1 from a cache), page fetches: 6" in table
    assert f'href="{reverse("inbox:run", args=[run.pk])}">Databases</a>' in table
    assert "+25" in table and "-7" in table
    assert "2 of 3" in body  # recurring subscriptions
    assert "60 minutes" in body  # the shortest time between runs
    assert "2 of 5 in the last hour" in body  # Run now


def test_the_credits_page_pages_through_a_long_ledger(console, alice, now):
    account = ensure_account(alice, now=now)
    for n in range(60):
        ledger.post(account.pk, kind=Kind.GRANT, amount=1, key=f"g{n}", now=now, reason=f"n{n}")
    first = console.get(reverse("billing:credits")).content.decode()
    assert "n59" in first and "n10" in first and "n9<" not in first
    older = first[first.index('href="?before=') + len('href="?before=') :].split('"')[0]
    second = console.get(reverse("billing:credits") + f"?before={older}").content.decode()
    assert "n9<" in second and "n59" not in second and "Account opened" not in second


def test_the_run_history_shows_what_each_run_cost(console, alice, now):
    subscription, run = charged_run(alice, now, credits=7)
    refunded = request_manual_run(subscription, now=now + timedelta(minutes=1))
    charges.settle(refunded, breakdown={"operations": {"search": 3}}, delivered=0, now=now)
    body = console.get(reverse("digests:detail", args=[subscription.pk])).content.decode()
    assert "<s>3</s>" in body and "refunded" in body
    row = body[body.index(f'href="{reverse("inbox:run", args=[run.pk])}"') :]
    assert ">7\n</td>" in row[: row.index("</tr>")]


def test_the_new_subscription_page_shows_the_expected_cost_first(console, alice, now):
    body = console.get(reverse("digests:new")).content.decode()
    assert "Expected cost" in body
    assert "about 30 runs in 30 days" in body  # the default daily schedule
    assert "Your Free plan grants 100 credits a month; your balance is 100." in body
    assert 'data-endpoint="/api/v1/billing/estimate"' in body
    # After a refused submission the estimate is the posted schedule's.
    response = console.post(
        reverse("digests:new"),
        {
            "name": "Often",
            "interests": "PostgreSQL",
            "timezone": "UTC",
            "length": "standard",
            "schedule_preset": "advanced",
            "cron": "*/10 * * * *",
        },
    )
    body = response.content.decode()
    assert "about 4320 runs in 30 days" in body


def test_the_credits_page_in_chinese(console, alice):
    from inbox.models import UserPreference

    UserPreference.objects.filter(user=alice).update(ui_locale="zh-hans", locale_mode="manual")
    body = console.get(reverse("billing:credits")).content.decode()
    assert "积分" in body


def count_queries(client, url) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_credits_page_costs_the_same_queries_for_a_short_or_long_ledger(
    console, alice, now, django_assert_num_queries
):
    on_plan(alice, "team", now=now)
    charged_run(alice, now, credits=2)
    short = count_queries(console, reverse("billing:credits"))
    for n in range(8):
        charged_run(alice, now, credits=2 + n, name=f"S{n}")
    with django_assert_num_queries(short):
        console.get(reverse("billing:credits"))
    assert short <= 9


@override_settings(FULLTEXT_TOP_K=5)
def test_each_template_says_what_it_would_cost(console, now):
    with time_machine.travel(now, tick=False):  # a Friday: five Fridays in the next 30 days
        body = console.get(reverse("digests:new")).content.decode()
    daily = body[body.index("<h3>AI Daily</h3>") :]
    assert "At most 10 credits a run, 300 a month" in daily[: daily.index("</form>")]
    weekly = body[body.index("<h3>Frontend weekly</h3>") :]
    assert "At most 10 credits a run, 50 a month" in weekly[: weekly.index("</form>")]
