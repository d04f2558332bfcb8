"""Tier limits: each one refused with a message naming the field and the limit, in the console
and the API, and each tried from another side — update instead of create, pause then create,
a one-off turned recurring, a follow, six-field crons, a time zone with odd clock changes,
racing requests."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.urls import reverse

from billing.limits import LIMITS, TierLimitError
from billing.models import Account, CreditTransaction, Tier
from digests.models import Run, Subscription
from digests.schedules.scheduler import claim_due_subscriptions
from digests.subscriptions.service import (
    create_subscription,
    pause,
    request_manual_run,
    resume,
    update_subscription,
)
from tests.conftest import api_client_for
from tests.factories import on_plan
from tests.threads import at_once


def subscribe(user, now, **data) -> Subscription:
    base = {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}
    return create_subscription(user, {**base, **data}, now=now)


@pytest.fixture
def api(alice):
    return api_client_for(alice)


@pytest.fixture
def console(alice):
    client = Client()
    client.force_login(alice)
    return client


def refusal(response, field: str) -> str:
    """The 403 tier_limit answer's message for `field`, after checking its shape."""
    assert response.status_code == 403, response.content
    error = response.json()["error"]
    assert error["code"] == "tier_limit"
    assert list(error["fields"]) == [field]
    assert error["message"] == error["fields"][field]
    return error["fields"][field]


# The console's subscription form with an advanced (cron) schedule.
FORM = {
    "name": "Databases",
    "interests": "PostgreSQL",
    "timezone": "UTC",
    "length": "standard",
    "schedule_preset": "advanced",
    "cron": "0 8 * * *",
}


def post_new(console, **data):
    return console.post(reverse("digests:new"), {**FORM, **data})


def test_the_table_matches_the_spec():
    assert [LIMITS[t].subscriptions for t in Tier] == [3, 20, 100, 500]
    assert [LIMITS[t].min_interval for t in Tier] == [
        timedelta(minutes=60),
        timedelta(minutes=10),
        timedelta(minutes=1),
        timedelta(minutes=1),
    ]
    assert LIMITS[Tier.FREE].public_topics == 3 and not LIMITS[Tier.FREE].private_topics


# --- Subscriptions per user -------------------------------------------------------------------


def test_a_free_user_gets_three_subscriptions_in_the_api_and_a_403_for_the_fourth(api, alice):
    for n in range(3):
        created = api.post(
            "/api/v1/subscriptions",
            {"name": f"S{n}", "topic": "PostgreSQL", "cron": "0 8 * * *"},
            format="json",
        )
        assert created.status_code == 201
    response = api.post(
        "/api/v1/subscriptions", {"name": "S3", "topic": "x", "cron": "0 8 * * *"}, format="json"
    )
    message = refusal(response, "subscriptions")
    assert "Free plan allows 3 recurring subscriptions and you have 3" in message
    assert Subscription.objects.count() == 3


def test_the_console_shows_the_same_refusal_and_creates_nothing(console, alice, now):
    for n in range(3):
        subscribe(alice, now, name=f"S{n}")
    response = post_new(console, name="Fourth")
    assert response.status_code == 200
    assert "Free plan allows 3 recurring subscriptions and you have 3" in response.content.decode()
    # The one-click templates say it too.
    response = console.post(reverse("digests:new"), {"template": "ai-daily"}, follow=True)
    assert "Free plan allows 3 recurring subscriptions" in response.content.decode()
    assert Subscription.objects.count() == 3


def test_pausing_does_not_make_room_and_deleting_does(alice, now):
    subscriptions = [subscribe(alice, now, name=f"S{n}") for n in range(3)]
    pause(subscriptions[0])
    with pytest.raises(TierLimitError) as refused:
        subscribe(alice, now, name="While one is paused")
    assert refused.value.limit == "subscriptions"
    from digests.subscriptions.service import soft_delete

    soft_delete(subscriptions[0], now=now)
    assert subscribe(alice, now, name="After deleting one").pk


def test_a_one_off_is_not_counted_but_giving_it_a_cron_is(api, alice, now):
    for n in range(3):
        subscribe(alice, now, name=f"S{n}")
    with time_machine.travel(now, tick=False):
        one_off = api.post(
            "/api/v1/subscriptions",
            {"name": "Once", "topic": "x", "run_at": (now + timedelta(days=1)).isoformat()},
            format="json",
        )
        assert one_off.status_code == 201
        response = api.patch(
            f"/api/v1/subscriptions/{one_off.json()['id']}", {"cron": "0 9 * * *"}, format="json"
        )
    refusal(response, "subscriptions")
    assert Subscription.objects.get(pk=one_off.json()["id"]).cron == ""


def test_following_a_topic_counts_like_any_subscription(alice, bob, now):
    from topics import following, publishing
    from topics.publishing import PublishInput

    topic = publishing.publish(
        bob, subscribe(bob, now), PublishInput(title="Databases daily"), now=now
    )
    for n in range(3):
        subscribe(alice, now, name=f"S{n}")
    with pytest.raises(TierLimitError):
        following.follow(alice, topic, now=now)
    client = Client()
    client.force_login(alice)
    response = client.post(reverse("topics:follow", args=[topic.slug]), follow=True)
    assert "Free plan allows 3 recurring subscriptions" in response.content.decode()
    assert Subscription.objects.filter(owner=alice).count() == 3


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_creates_never_pass_the_limit(alice, now):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    outcomes = at_once(lambda n: subscribe(alice, now, name=f"Race {n}"), range(6))
    created = [o for o in outcomes if isinstance(o, Subscription)]
    refused = [o for o in outcomes if isinstance(o, TierLimitError)]
    assert (len(created), len(refused)) == (3, 3)
    assert Subscription.objects.filter(owner=alice).count() == 3


# --- The minimum interval between runs --------------------------------------------------------


@pytest.mark.parametrize(
    ("cron", "gap"),
    [
        ("*/5 * * * *", "5 minutes apart"),
        ("* 8 * * *", "1 minute apart"),  # every minute between 8 and 9
        ("*/30 * * * * *", "30 seconds apart"),  # six fields, seconds first
        ("0 * * * * *", "1 minute apart"),  # six fields, once a minute
        ("0,30 8 * * 1", "30 minutes apart"),  # only on Mondays
        ("0,59 0 1 * *", "59 minutes apart"),  # only on the 1st
    ],
)
def test_a_free_schedule_runs_at_most_hourly(api, cron, gap):
    response = api.post(
        "/api/v1/subscriptions", {"name": "Often", "topic": "x", "cron": cron}, format="json"
    )
    message = refusal(response, "cron")
    assert "Free plan runs a subscription at most once every 60 minutes" in message
    assert gap in message
    assert not Subscription.objects.exists()


def test_a_clock_change_that_brings_runs_closer_is_caught(api, now):
    # The API looks for the next clock change from its own `now`, pinned here: on the wall
    # clock the night named below would be a different one after 2027-10-03.
    with time_machine.travel(now, tick=False):
        ok = api.post(
            "/api/v1/subscriptions",
            {"name": "Night", "topic": "x", "cron": "0 2,3 * * *", "timezone": "UTC"},
            format="json",
        )
        assert ok.status_code == 201
        # Only the time zone changes: in Lord Howe that night has runs 30 minutes apart.
        response = api.patch(
            f"/api/v1/subscriptions/{ok.json()['id']}",
            {"timezone": "Australia/Lord_Howe"},
            format="json",
        )
    message = refusal(response, "cron")
    assert "30 minutes apart on 2027-10-03, when the clocks change" in message
    assert Subscription.objects.get().timezone == "UTC"


def test_updating_the_schedule_is_held_to_the_same_limit(api, alice, now):
    subscription = subscribe(alice, now)
    response = api.patch(
        f"/api/v1/subscriptions/{subscription.pk}", {"cron": "*/15 * * * *"}, format="json"
    )
    refusal(response, "cron")
    subscription.refresh_from_db()
    assert subscription.cron == "0 8 * * *"


def test_the_console_puts_the_interval_refusal_on_the_cron_field(console, alice, now):
    response = post_new(console, cron="*/10 * * * *")
    body = response.content.decode()
    assert "this schedule has runs 10 minutes apart" in body
    assert not Subscription.objects.exists()
    subscription = subscribe(alice, now)
    edit = reverse("digests:edit", args=[subscription.pk])
    body = console.post(edit, {**FORM, "cron": "*/10 * * * *"}).content.decode()
    assert "this schedule has runs 10 minutes apart" in body
    subscription.refresh_from_db()
    assert subscription.cron == "0 8 * * *"


@pytest.mark.parametrize(
    ("tier", "allowed", "refused"),
    [
        ("basic", "*/10 * * * *", "*/5 * * * *"),
        ("pro", "* * * * *", "*/30 * * * * *"),
        ("team", "0 * * * * *", "*/20 * * * * *"),
    ],
)
def test_paid_tiers_have_their_own_minimum(alice, now, tier, allowed, refused):
    on_plan(alice, tier, now=now)
    assert subscribe(alice, now, cron=allowed, timezone="Europe/Berlin").pk
    with pytest.raises(TierLimitError) as error:
        subscribe(alice, now, name="Too often", cron=refused)
    assert error.value.field == "cron"


def test_the_refusal_is_in_the_askers_language(api):
    response = api.post(
        "/api/v1/subscriptions",
        {"name": "Often", "topic": "x", "cron": "*/5 * * * *"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    message = refusal(response, "cron")
    assert "免费" in message and "5 分钟" in message


# --- Manual runs per hour ---------------------------------------------------------------------


def test_run_now_is_limited_per_hour_in_the_api_and_the_console(api, console, alice, now):
    subscription = subscribe(alice, now)
    with time_machine.travel(now, tick=False):
        for _ in range(5):
            assert api.post(f"/api/v1/subscriptions/{subscription.pk}/run").status_code == 202
        message = refusal(
            api.post(f"/api/v1/subscriptions/{subscription.pk}/run"), "manual_runs_per_hour"
        )
        assert "allows 5 “Run now” requests an hour; try again in 60 minutes" in message
        page = console.post(reverse("digests:run_now", args=[subscription.pk]), follow=True)
        assert "allows 5 “Run now” requests an hour" in page.content.decode()
    assert Run.objects.filter(trigger="manual").count() == 5
    with time_machine.travel(now + timedelta(hours=1, seconds=1), tick=False):
        assert api.post(f"/api/v1/subscriptions/{subscription.pk}/run").status_code == 202


def test_scheduled_runs_do_not_use_up_run_now(alice, now):
    subscription = subscribe(alice, now, cron="0 * * * *")
    for hour in range(1, 7):
        claim_due_subscriptions(now=now + timedelta(hours=hour, minutes=1))
    assert Run.objects.filter(trigger="scheduled").count() == 6
    assert request_manual_run(subscription, now=now + timedelta(hours=6)).pk


# --- A change of tier -------------------------------------------------------------------------


def test_a_downgrade_pauses_what_no_longer_fits_and_deletes_nothing(alice, now):
    on_plan(alice, "team", now=now)
    often = subscribe(alice, now, name="Often", cron="*/5 * * * *")
    kept = [subscribe(alice, now, name=f"Daily {n}") for n in range(4)]

    on_plan(alice, "free", now=now)

    states = dict(Subscription.objects.values_list("name", "paused_reason"))
    assert states == {
        "Often": "plan_interval",
        "Daily 0": "",
        "Daily 1": "",
        "Daily 2": "",
        "Daily 3": "plan_subscriptions",  # the newest beyond three
    }
    assert Subscription.objects.filter(status="paused").count() == 2
    assert Subscription.objects.count() == 5
    # The owner reads why, on the page and in the API.
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("digests:detail", args=[often.pk])).content.decode()
    assert "Paused by Tidings: its schedule runs more often than your plan allows." in page
    body = api_client_for(alice).get(f"/api/v1/subscriptions/{kept[3].pk}").json()
    assert (body["status"], body["paused_reason"]) == ("paused", "plan_subscriptions")
    # Paused subscriptions do not run.
    claimed = claim_due_subscriptions(now=now + timedelta(days=2))
    assert often.pk not in {run.subscription_id for run in claimed}


def test_resuming_needs_room_and_a_schedule_that_fits(alice, now):
    on_plan(alice, "team", now=now)
    often = subscribe(alice, now, name="Often", cron="*/5 * * * *")
    daily = [subscribe(alice, now, name=f"Daily {n}") for n in range(3)]
    on_plan(alice, "free", now=now)
    often.refresh_from_db()
    with pytest.raises(TierLimitError) as refused:
        resume(often, now=now)
    assert refused.value.field == "subscriptions"  # three already run
    pause(daily[0])
    with pytest.raises(TierLimitError) as refused:
        resume(often, now=now)
    assert refused.value.field == "cron"
    update_subscription(often, {"cron": "0 9 * * *"}, now=now)
    resume(often, now=now)
    often.refresh_from_db()
    assert (often.status, often.paused_reason) == ("active", "")
    # And the console answers a refused resume with the message.
    client = Client()
    client.force_login(alice)
    response = client.post(reverse("digests:state", args=[daily[0].pk, "resume"]), follow=True)
    assert "runs at most 3 recurring subscriptions at once" in response.content.decode()


def test_an_upgrade_grants_the_difference_for_the_current_period(alice, now):
    on_plan(alice, "basic", now=now)
    account = Account.objects.get(user=alice)
    assert (account.tier, account.monthly_quota, account.balance) == ("basic", 5000, 5000)
    grant = CreditTransaction.objects.get(kind="grant")
    assert grant.amount == 4900 and "Upgrade from Free to Basic" in grant.reason
    on_plan(alice, "free", now=now)  # a downgrade takes nothing back this period
    account.refresh_from_db()
    assert (account.monthly_quota, account.balance) == (100, 5000)


# --- Public and private topics ----------------------------------------------------------------


def test_topic_limits_are_tier_limits_in_the_api(api, alice, now):
    subscription = subscribe(alice, now)
    response = api.post(
        "/api/v1/topics",
        {"subscription_id": subscription.pk, "title": "Private stuff", "visibility": "private"},
        format="json",
    )
    assert "Only paid plans can keep a topic private." in refusal(response, "visibility")
    for n in range(3):
        created = api.post(
            "/api/v1/topics",
            {"subscription_id": subscription.pk, "title": f"Public {n}"},
            format="json",
        )
        assert created.status_code == 201
    response = api.post(
        "/api/v1/topics", {"subscription_id": subscription.pk, "title": "Four"}, format="json"
    )
    assert "at most 3 public topics" in refusal(response, "public_topics")
