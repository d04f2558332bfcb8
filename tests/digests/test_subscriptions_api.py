"""Subscriptions through the API and the console: the same service, the same refusals."""

from __future__ import annotations

import pytest
import time_machine
from django.urls import reverse

from digests.models import Run, Subscription, SubscriptionSource
from ingest.library.sources import add_to_library
from ingest.models import Source
from tests.factories import add_item


def create(api, **data):
    payload = {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}
    payload.update(data)
    return api.post("/api/v1/subscriptions", payload, format="json")


def test_create_returns_the_subscription_with_its_next_run(api, alice):
    response = create(api, timezone="Asia/Tokyo", length="brief")
    assert response.status_code == 201
    body = response.json()
    assert body["max_items"] == 10
    assert body["next_run_at"].endswith("23:00:00Z")  # 08:00 in Tokyo
    assert body["status"] == "active"


@pytest.mark.parametrize(
    ("data", "field", "fragment"),
    [
        ({"cron": "0 25 * * *"}, "cron", "the hour field cannot be 25"),
        ({"cron": "@reboot"}, "cron", "Unknown macro"),
        ({"timezone": "Moon/Base"}, "timezone", "IANA"),
        ({"max_items": 31}, "max_items", "at most 30"),
        ({"min_score": -1}, "min_score", "at least 0"),
        ({"redelivery": "sometimes"}, "redelivery", "Choose one of"),
        ({"length": "epic"}, "length", "Choose one of brief, standard, deep"),
        ({"interests": ["x" * 101]}, "interests.0", "At most 100 characters"),
        ({"interests": "PostgreSQL, Rust"}, "interests", "Must be a list"),
        ({"source_ids": [99999]}, "source_ids", "Not in your source library"),
        ({"cron": "", "run_at": "2000-01-01T00:00:00+00:00"}, "run_at", "future"),
        ({"cron": "", "run_at": "tomorrow"}, "run_at", "ISO 8601"),
        ({"name": "", "interests": []}, "name", "Required"),
    ],
)
def test_bad_input_is_refused_naming_the_field_and_creates_nothing(api, data, field, fragment):
    response = create(api, **data)
    # Ids that name nothing of yours are 404 (what exists decides); a moment already past is
    # 422 (the clock decides); the rest breaks a rule the schema states.
    expected = {"source_ids": 404}.get(field, 422 if fragment == "future" else 400)
    assert response.status_code == expected
    error = response.json()["error"]
    assert field in error["fields"], error
    assert fragment in error["fields"][field]
    assert Subscription.objects.count() == 0
    assert SubscriptionSource.objects.count() == 0


def test_a_subscription_needs_something_to_follow(api):
    response = create(api, interests=[], topic="")
    # Each field is valid; together they leave nothing to read: 422, not a broken schema rule.
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_combination"
    assert response.json()["error"]["fields"]["topic"].startswith("Give a topic")
    assert Subscription.objects.count() == 0


def test_a_cron_whose_fields_never_fire_together_is_422(api):
    # Day 30 and month 2 are each valid; together they name no date.
    response = create(api, cron="0 8 30 2 *")
    assert response.status_code == 422, response.content
    assert response.json()["error"]["code"] == "invalid_combination"
    assert "never fires" in response.json()["error"]["fields"]["cron"]
    assert Subscription.objects.count() == 0


def test_a_field_s_own_rule_is_answered_before_a_combination(api):
    # Nothing to read (422) and a cron that never fires (400): the field's own rule wins.
    response = create(api, interests=[], topic="", cron="0 25 * * *")
    assert response.status_code == 400
    assert set(response.json()["error"]["fields"]) == {"cron"}


@pytest.mark.parametrize(
    ("data", "field", "code"),
    [
        # Clearing the schedule of a subscription that has no run_at: no schedule left.
        ({"cron": ""}, "cron", "invalid_combination"),
        ({"cron": "", "run_at": "2000-01-01T00:00:00+00:00"}, "run_at", "invalid_time"),
    ],
)
def test_a_patch_that_would_leave_no_schedule_is_422_and_changes_nothing(api, data, field, code):
    subscription_id = create(api).json()["id"]
    response = api.patch(f"/api/v1/subscriptions/{subscription_id}", data, format="json")
    assert response.status_code == 422, response.content
    error = response.json()["error"]
    assert error["code"] == code
    assert field in error["fields"]
    assert Subscription.objects.get().cron == "0 8 * * *"


def test_update_pause_resume_delete(api, alice, now):
    subscription_id = create(api).json()["id"]
    url = f"/api/v1/subscriptions/{subscription_id}"
    response = api.patch(url, {"cron": "30 6 * * 1-5", "timezone": "Europe/Berlin"}, format="json")
    assert response.status_code == 200
    assert response.json()["cron"] == "30 6 * * 1-5"
    bad = api.patch(url, {"cron": "every day"}, format="json")
    assert bad.status_code == 400
    assert Subscription.objects.get().cron == "30 6 * * 1-5"  # unchanged
    assert api.delete(url).status_code == 204
    assert api.get(url).status_code == 404
    assert Subscription.objects.get().deleted_at is not None  # soft delete


def test_run_now_creates_a_manual_run_that_executes(api, alice, now):
    add_item("PostgreSQL run now", now=now)
    # The API reads the clock once at the edge, and the inline django-q2 task once again: both
    # must be the item's pinned `now`, or the item leaves the 7-day window a week after it.
    with time_machine.travel(now, tick=False):  # tests run django-q2 tasks inline
        subscription_id = create(api).json()["id"]
        response = api.post(f"/api/v1/subscriptions/{subscription_id}/run")
    assert response.status_code == 202
    run = Run.objects.get()
    assert run.trigger == "manual"
    detail = api.get(f"/api/v1/runs/{run.pk}").json()
    assert detail["status"] == "succeeded"
    assert [item["title"] for item in detail["items"]] == ["PostgreSQL run now"]
    runs = api.get(f"/api/v1/subscriptions/{subscription_id}/runs").json()
    assert [r["id"] for r in runs["results"]] == [run.pk]


def test_other_users_subscriptions_are_invisible(api, bob, now):
    from digests.subscriptions.service import create_subscription

    theirs = create_subscription(
        bob, {"name": "Bob's", "interests": ["x"], "cron": "0 8 * * *"}, now=now
    )
    assert api.get(f"/api/v1/subscriptions/{theirs.pk}").status_code == 404
    assert api.post(f"/api/v1/subscriptions/{theirs.pk}/run").status_code == 404
    assert api.get("/api/v1/subscriptions").json()["results"] == []


def test_sources_from_the_library_can_be_chosen(api, alice):
    source = Source.objects.create(type="feed", config={"url": "u"}, config_hash="h" * 64)
    add_to_library(alice, source)
    response = create(api, source_ids=[source.pk])
    assert response.json()["source_ids"] == [source.pk]


def test_the_console_form_shows_the_same_errors(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("digests:new"),
        {"name": "X", "interests": "a", "cron": "0 8 * *", "timezone": "UTC", "length": "brief"},
    )
    assert response.status_code == 200
    assert "has 4" in response.content.decode()
    assert Subscription.objects.count() == 0


def test_a_template_creates_a_working_subscription_in_one_click(client, alice):
    client.force_login(alice)
    response = client.post(reverse("digests:new"), {"template": "ai-daily"})
    subscription = Subscription.objects.get()
    assert response["Location"] == reverse("digests:detail", args=[subscription.pk])
    assert subscription.name == "AI Daily"
    assert subscription.timezone == "Europe/Berlin"  # alice's preference
    assert subscription.next_run_at is not None


def test_console_pause_resume_and_delete(client, alice, now):
    client.force_login(alice)
    client.post(reverse("digests:new"), {"template": "security-daily"})
    subscription = Subscription.objects.get()
    client.post(reverse("digests:state", args=[subscription.pk, "pause"]))
    subscription.refresh_from_db()
    assert (subscription.status, subscription.next_run_at) == ("paused", None)
    client.post(reverse("digests:state", args=[subscription.pk, "resume"]))
    subscription.refresh_from_db()
    assert subscription.status == "active"
    assert subscription.next_run_at is not None
    client.post(reverse("digests:state", args=[subscription.pk, "delete"]))
    assert client.get(reverse("digests:detail", args=[subscription.pk])).status_code == 404


def test_saving_the_form_keeps_sources_it_cannot_show(client, alice, now):
    # A followed topic's, a pack's or the demo's sources are read by the subscription without
    # being in the reader's library: the form lists only the library, and saving must not
    # drop the rest.
    mine = Source.objects.create(
        type="feed", config={"url": "https://mine.example/feed"}, config_hash="m" * 64
    )
    add_to_library(alice, mine)
    shared = Source.objects.create(
        type="feed", config={"url": "https://demo.example/feed"}, config_hash="d" * 64
    )
    subscription = Subscription.objects.create(
        owner=alice, name="Databases", interests=["PostgreSQL"], cron="0 8 * * *"
    )
    SubscriptionSource.objects.create(subscription=subscription, source=mine)
    SubscriptionSource.objects.create(subscription=subscription, source=shared)
    client.force_login(alice)
    response = client.post(
        reverse("digests:edit", args=[subscription.pk]),
        {
            "name": "Renamed",
            "interests": "PostgreSQL",
            "schedule_preset": "daily",
            "schedule_time": "08:00",
            "timezone": "UTC",
            "length": "standard",
            "source_ids": [str(mine.pk)],
        },
    )
    assert response.status_code == 302, response.context["form"].errors
    subscription.refresh_from_db()
    assert subscription.name == "Renamed"
    assert set(subscription.sources.values_list("pk", flat=True)) == {mine.pk, shared.pk}
    # Unticking a library source still removes it; a source never attached still needs the
    # library.
    client.post(
        reverse("digests:edit", args=[subscription.pk]),
        {
            "name": "Renamed",
            "interests": "PostgreSQL",
            "schedule_preset": "daily",
            "schedule_time": "08:00",
            "timezone": "UTC",
            "length": "standard",
        },
    )
    assert set(subscription.sources.values_list("pk", flat=True)) == {shared.pk}


@pytest.mark.parametrize("zone", ["UTC", "Asia/Tokyo"])
def test_the_list_is_written_byte_for_byte_as_its_serializer_writes_it(
    api, alice, zone, django_assert_max_num_queries
):
    """The list writes each subscription from plain rows (digests.subscriptions.api.
    subscription_rows): the same bytes as a fresh serializer per request, dates in the active
    zone, a webhook (and one without), an address and source weights included."""
    from django.utils import timezone
    from rest_framework.renderers import JSONRenderer

    from digests.subscriptions.api import SubscriptionSerializer

    feed = Source.objects.create(type="feed", config={"url": "u"}, config_hash="h" * 64)
    add_to_library(alice, feed)
    create(api, name="Plain")
    create(
        api,
        name="Über — 東京",
        timezone="Asia/Tokyo",
        source_ids=[feed.pk],
        source_weights={str(feed.pk): 2.5},
        email_enabled=True,
        email_to="Someone@Example.org",
        webhook_url="https://hooks.example/tidings",
    )
    create(api, name="Once", cron="", run_at="2030-01-01T08:00:00+00:00")
    with timezone.override(zone):
        with django_assert_max_num_queries(4):  # token; page; sources (+ a cursor's count)
            answer = api.get("/api/v1/subscriptions")
        assert answer.status_code == 200
        mine = Subscription.objects.filter(owner=alice).order_by("-created_at", "-pk")
        reference = SubscriptionSerializer(
            mine.select_related("owner", "webhook").prefetch_related("subscriptionsource_set"),
            many=True,
        ).data
        assert answer.content.count(b'"id":') >= 3
        assert JSONRenderer().render(answer.json()["results"]) == JSONRenderer().render(reference)
