"""The subscription console pages: list with next/last run and status, creating from a template
in one step, editing (presets read back from cron), pause/resume/delete, run now and preview,
and the run history with its counters, cost and errors."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from billing import charges
from digests.models import Run, Subscription
from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from inbox.models import UserPreference
from tests.conftest import api_client_for
from tests.digests.test_api_engine import rates
from tests.factories import add_item, on_plan


@pytest.fixture
def console(client, alice):
    client.force_login(alice)
    return client


def subscribe(user, now, **data):
    fields = {"name": "Databases", "interests": ["PostgreSQL"], "cron": "30 7 * * 1-5"}
    fields.update(data)
    return create_subscription(user, fields, now=now)


def test_the_list_shows_schedule_next_and_last_run_and_status(console, alice, now):
    subscription = subscribe(alice, now, timezone="Europe/Berlin")
    add_item("PostgreSQL news", now=now)
    run = runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)
    paused = subscribe(alice, now, name="Paused one")
    paused.status = "paused"
    paused.next_run_at = None
    paused.save()
    body = console.get(reverse("digests:list")).content.decode()
    assert 'Weekdays at 07:30 <span class="zone">(Europe/Berlin)</span>' in body
    assert f'href="{reverse("inbox:run", args=[run.pk])}"' in body
    assert "1 item</span>" in body
    assert "status-paused" in body and "Paused" in body
    # Next run: Monday 07:30 in Berlin, shown in Alice's own zone (also Berlin).
    assert 'datetime="2026-11-23T07:30:00+01:00"' in body


def test_an_empty_list_points_to_the_templates(console):
    body = console.get(reverse("digests:list")).content.decode()
    assert "No subscriptions yet." in body
    assert f'href="{reverse("digests:new")}"' in body


def test_one_click_on_a_template_makes_a_working_subscription_in_the_users_zone(
    console, alice, now
):
    response = console.post(reverse("digests:new"), {"template": "security-daily"})
    subscription = Subscription.objects.get(owner=alice)
    assert response["Location"] == reverse("digests:detail", args=[subscription.pk])
    assert (subscription.name, subscription.cron) == ("Security daily", "0 7 * * *")
    assert subscription.timezone == "Europe/Berlin"
    assert subscription.max_items == 10
    assert subscription.next_run_at is not None


def test_the_new_page_offers_templates_presets_lengths_and_the_users_zone(console):
    body = console.get(reverse("digests:new")).content.decode()
    for name in ("AI Daily", "Security daily", "Frontend weekly"):
        assert name in body
    assert "Every day at…" in body and "Weekdays at…" in body and "Weekly on… at…" in body
    assert "Advanced (cron)" in body
    assert "Brief — up to 10 items" in body and "Deep — up to 30 items" in body
    assert '<option value="Europe/Berlin" selected>' in body


def test_an_unknown_template_is_refused(console, alice):
    response = console.post(reverse("digests:new"), {"template": "nope"}, follow=True)
    assert "Unknown template" in response.content.decode()
    assert not Subscription.objects.exists()


def test_the_edit_form_reads_the_schedule_back_as_a_preset(console, alice, now):
    subscription = subscribe(alice, now, timezone="Asia/Tokyo", negative_keywords=["MySQL"])
    form = console.get(reverse("digests:edit", args=[subscription.pk])).context["form"]
    assert form.initial["schedule_preset"] == "weekdays"
    assert form.initial["schedule_time"].strftime("%H:%M") == "07:30"
    assert form.initial["interests"] == "PostgreSQL"
    assert form.initial["negative_keywords"] == "MySQL"
    assert form.initial["timezone"] == "Asia/Tokyo"
    assert form.initial["length"] == "standard"


@pytest.mark.parametrize(
    ("cron", "preset", "day"),
    [
        ("0 9 * * *", "daily", "1"),
        ("15 18 * * 0", "weekly", "0"),
        ("0 8 1 * *", "advanced", "1"),
        ("0 */2 * * *", "advanced", "1"),
        ("@daily", "advanced", "1"),
    ],
)
def test_presets_are_recognised_only_when_a_preset_wrote_them(
    console, alice, now, cron, preset, day
):
    subscription = subscribe(alice, now, cron=cron)
    form = console.get(reverse("digests:edit", args=[subscription.pk])).context["form"]
    assert (form.initial["schedule_preset"], form.initial["schedule_day"]) == (preset, day)


def edit(console, subscription, **changes):
    data = {
        "name": subscription.name,
        "topic": subscription.topic,
        "interests": ", ".join(subscription.interests),
        "schedule_preset": "weekdays",
        "schedule_time": "07:30",
        "timezone": subscription.timezone,
        "length": "standard",
    }
    data.update(changes)
    return console.post(reverse("digests:edit", args=[subscription.pk]), data)


def test_editing_changes_the_schedule_and_recomputes_the_next_run(console, alice, now):
    subscription = subscribe(alice, now)
    response = edit(
        console,
        subscription,
        name="Postgres weekly",
        schedule_preset="weekly",
        schedule_day="3",
        schedule_time="18:00",
        timezone="America/New_York",
        length="brief",
    )
    assert response["Location"] == reverse("digests:detail", args=[subscription.pk])
    subscription.refresh_from_db()
    assert subscription.name == "Postgres weekly"
    assert (subscription.cron, subscription.timezone) == ("0 18 * * 3", "America/New_York")
    assert subscription.max_items == 10
    assert subscription.next_run_at.weekday() in (2, 3)  # Wednesday evening in New York


def test_a_bad_edit_names_the_field_and_changes_nothing(console, alice, now):
    subscription = subscribe(alice, now)
    response = edit(console, subscription, schedule_preset="advanced", cron="61 * * * *")
    assert response.status_code == 200
    body = response.content.decode()
    # Said once, in our words, naming the field and what it takes.
    assert body.count("the minute field cannot be 61. It takes 0 to 59") == 1
    subscription.refresh_from_db()
    assert subscription.cron == "30 7 * * 1-5"


def test_editing_keeps_a_length_no_preset_has(console, alice, now):
    subscription = subscribe(alice, now, max_items=7)
    body = console.get(reverse("digests:edit", args=[subscription.pk])).content.decode()
    assert "Keep 7 items" in body
    edit(console, subscription, length="", name="Renamed")
    subscription.refresh_from_db()
    assert (subscription.name, subscription.max_items) == ("Renamed", 7)


def test_pause_resume_and_delete(console, alice, now):
    subscription = subscribe(alice, now)
    detail = reverse("digests:detail", args=[subscription.pk])
    console.post(reverse("digests:state", args=[subscription.pk, "pause"]))
    subscription.refresh_from_db()
    assert (subscription.status, subscription.next_run_at) == ("paused", None)
    assert "none while paused" in console.get(detail).content.decode()
    console.post(reverse("digests:state", args=[subscription.pk, "resume"]))
    subscription.refresh_from_db()
    assert subscription.status == "active" and subscription.next_run_at is not None
    body = console.get(detail).content.decode()
    assert 'data-confirm="Delete this subscription?' in body
    response = console.post(reverse("digests:state", args=[subscription.pk, "delete"]))
    assert response["Location"] == reverse("digests:list")
    assert console.get(detail).status_code == 404


def test_run_now_delivers_to_the_inbox_and_shows_in_the_history(console, alice, now):
    subscription = subscribe(alice, now)
    add_item("PostgreSQL run now", now=now)
    with time_machine.travel(now, tick=False):  # tests run django-q2 tasks inline
        response = console.post(reverse("digests:run_now", args=[subscription.pk]), follow=True)
    body = response.content.decode()
    assert "Run started." in body
    run = Run.objects.get(subscription=subscription)
    assert (run.trigger, run.status, run.delivered_count) == ("manual", "succeeded", 1)
    assert f'href="{reverse("inbox:run", args=[run.pk])}"' in body
    assert "PostgreSQL run now" in console.get(reverse("inbox:index")).content.decode()


def test_the_history_shows_counters_cost_and_errors(console, alice, now):
    subscription = subscribe(alice, now)
    ok = request_manual_run(subscription, now=now)
    Run.objects.filter(pk=ok.pk).update(
        status="succeeded",
        candidates_count=41,
        selected_count=17,
        delivered_count=12,
        dedup_skipped_count=5,
        redelivered_count=2,
        billing_breakdown={"operations": {"search": 3, "page_fetch": 4}, "total": 7},
    )
    charges.settle(
        ok, breakdown={"operations": {"search": 3, "page_fetch": 4}}, delivered=12, now=now
    )
    failed = request_manual_run(subscription, now=now - timedelta(hours=1))
    Run.objects.filter(pk=failed.pk).update(status="failed", error="FetchTimeout: too slow")
    with time_machine.travel(now, tick=False):
        body = console.get(reverse("digests:detail", args=[subscription.pk])).content.decode()
    row = body[body.index(f'href="{reverse("inbox:run", args=[ok.pk])}"') :]
    row = row[: row.index("</tr>")]
    for figure in ("<td>41</td>", "<td>17</td>", "<td>12</td>", "<td>5</td>", "<td>2</td>"):
        assert figure in row
    assert 'title="search: 3, page_fetch: 4">7' in row  # the ledger's charge of the run
    assert "FetchTimeout: too slow" in body
    assert reverse("digests:retry", args=[subscription.pk, failed.pk]) in body
    # The header shows the plan and the balance the charge left.
    assert "93 credits" in body
    assert "A run of this subscription costs nothing: it only reads the shared pool." in body


def test_a_queued_run_is_announced(console, alice, now):
    subscription = subscribe(alice, now)
    request_manual_run(subscription, now=now)
    body = console.get(reverse("digests:detail", args=[subscription.pk])).content.decode()
    assert "A run is queued or running." in body


def test_preview_offers_to_run_now(console, alice, now):
    subscription = subscribe(alice, now)
    body = console.get(reverse("digests:preview", args=[subscription.pk])).content.decode()
    assert f'action="{reverse("digests:run_now", args=[subscription.pk])}"' in body
    # An empty preview says why and what to change: here, nothing was collected at all.
    assert "Nothing has been collected yet: add a feed or a site on the Sources page" in body


def test_preview_is_rate_limited_and_shares_the_apis_allowance(console, alice, bob, now):
    mine, theirs = subscribe(alice, now), subscribe(bob, now)
    preview = reverse("digests:preview", args=[mine.pk])
    with rates(subscription_preview="3/hour"):
        for _ in range(2):
            assert console.get(preview).status_code == 200
        # The API's preview draws on the same allowance as the console's.
        assert (
            api_client_for(alice).get(f"/api/v1/subscriptions/{mine.pk}/preview").status_code == 200
        )

        response = console.get(preview)

        assert response.status_code == 429
        assert 0 < int(response["Retry-After"]) <= 3600
        body = response.content.decode()
        assert "You have previewed often in a short time. Try again in" in body
        assert "candidates" not in body  # no selection ran
        # Bob has his own allowance.
        client = Client()
        client.force_login(bob)
        assert client.get(reverse("digests:preview", args=[theirs.pk])).status_code == 200


def test_someone_elses_subscription_pages_are_not_found(client, bob, alice, now):
    subscription = subscribe(alice, now)
    client.force_login(bob)
    for name in ("detail", "edit", "preview"):
        assert client.get(reverse(f"digests:{name}", args=[subscription.pk])).status_code == 404
    assert edit(client, subscription, name="Stolen").status_code == 404
    subscription.refresh_from_db()
    assert subscription.name == "Databases"


def test_list_and_detail_cost_the_same_queries_for_1_or_many(
    console, alice, now, django_assert_num_queries
):
    on_plan(alice, "team", now=now)
    first = subscribe(alice, now)
    request_manual_run(first, now=now)
    list_one = count_queries(console, reverse("digests:list"))
    detail_one = count_queries(console, reverse("digests:detail", args=[first.pk]))
    for n in range(6):
        subscribe(alice, now, name=f"More {n}")
        request_manual_run(first, now=now + timedelta(minutes=n + 1))
    console.get(reverse("digests:list"))  # as count_queries: the nav counts are kept since
    with django_assert_num_queries(list_one):
        console.get(reverse("digests:list"))
    with django_assert_num_queries(detail_one):
        console.get(reverse("digests:detail", args=[first.pk]))


def count_queries(client, url) -> int:
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    return len(captured.captured_queries)


def test_new_subscriptions_default_to_the_zone_in_the_preferences(console, alice):
    UserPreference.objects.filter(user=alice).update(timezone="Australia/Lord_Howe")
    body = console.get(reverse("digests:new")).content.decode()
    assert '<option value="Australia/Lord_Howe" selected>' in body
    assert "(Australia/Lord_Howe)" in body


def test_editing_keeps_and_changes_the_reading_levels(console, alice, now):
    subscription = subscribe(alice, now, reading_levels=["L1"])
    form = console.get(reverse("digests:edit", args=[subscription.pk])).context["form"]
    assert form.initial["reading_levels"] == ["L1"]
    edit(console, subscription, reading_levels=["L2", "L3"])
    subscription.refresh_from_db()
    assert subscription.reading_levels == ["L2", "L3"]
    edit(console, subscription, name="Renamed")  # nothing ticked: any level
    subscription.refresh_from_db()
    assert subscription.reading_levels == []


def test_templates_are_offered_and_named_in_the_readers_language(client, alice, now):
    from inbox.models import UserPreference

    UserPreference.objects.filter(user=alice).update(
        ui_locale="zh-hans", locale_mode=UserPreference.LocaleMode.MANUAL
    )
    client.force_login(alice)
    html = client.get(reverse("digests:new")).content.decode()
    assert "AI 日报" in html and "人工智能与机器学习" in html
    assert "AI Daily" not in html and "Artificial intelligence" not in html
    client.post(reverse("digests:new"), {"template": "ai-daily"})
    subscription = Subscription.objects.get(owner=alice)
    assert (subscription.name, subscription.topic) == ("AI 日报", "人工智能与机器学习")
    assert "LLM" in subscription.interests  # what the sources say stays as written
