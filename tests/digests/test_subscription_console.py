"""Console pages for subscriptions: schedule presets, plain words, the live preview hook and
retrying a failed run."""

from __future__ import annotations

import pytest
import time_machine
from django.contrib.staticfiles import finders
from django.urls import reverse

from digests.models import Run, RunItem, Subscription
from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from tests.factories import add_item


@pytest.fixture
def console(client, alice):
    client.force_login(alice)
    return client


def post_new(console, **data):
    form = {"name": "Databases", "interests": "PostgreSQL", "timezone": "Europe/Berlin"}
    form.update(length="standard", **data)
    return console.post(reverse("digests:new"), form)


@pytest.mark.parametrize(
    ("preset", "extra", "cron"),
    [
        ("daily", {"schedule_time": "07:45"}, "45 7 * * *"),
        ("weekdays", {"schedule_time": "06:05"}, "5 6 * * 1-5"),
        ("weekly", {"schedule_time": "09:00", "schedule_day": "0"}, "0 9 * * 0"),
        ("weekly", {"schedule_time": "18:30", "schedule_day": "5"}, "30 18 * * 5"),
        ("advanced", {"cron": "0 8 1 * *", "schedule_time": "07:00"}, "0 8 1 * *"),
        ("daily", {"schedule_time": "07:45", "cron": "junk left in a hidden field"}, "45 7 * * *"),
    ],
)
def test_a_schedule_preset_becomes_a_cron_expression(console, preset, extra, cron):
    response = post_new(console, schedule_preset=preset, **extra)
    subscription = Subscription.objects.get()
    assert response["Location"] == reverse("digests:detail", args=[subscription.pk])
    assert (subscription.cron, subscription.timezone) == (cron, "Europe/Berlin")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"schedule_preset": "daily", "schedule_time": ""}, "Choose a time of day."),
        ({"schedule_preset": "weekly", "schedule_time": "25:00"}, "Enter a valid time."),
        ({"schedule_preset": "advanced", "cron": ""}, "Give a cron expression"),
        ({"schedule_preset": "advanced", "cron": "0 8 * *"}, "has 4"),
        ({"schedule_preset": "hourly", "schedule_time": "08:00"}, "Select a valid choice."),
        ({"schedule_preset": "daily", "schedule_time": "08:00", "timezone": "CEST"}, "IANA"),
    ],
)
def test_a_bad_schedule_is_refused_and_creates_nothing(console, data, message):
    response = post_new(console, **data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert Subscription.objects.count() == 0


def test_the_form_carries_the_live_schedule_preview(console):
    page = console.get(reverse("digests:new")).content.decode()
    assert 'src="/static/js/schedule-preview.js"' in page
    # Hidden until the script fills it: without JavaScript it shows nothing.
    assert 'data-schedule-preview data-endpoint="/api/v1/schedule/preview" hidden' in page
    assert 'name="schedule_preset"' in page
    assert 'type="time"' in page
    assert "Every day at 08:00" in page  # the AI Daily template in plain words
    assert finders.find("js/schedule-preview.js")


def test_list_and_detail_pages_show_the_schedule_in_plain_words(console, alice, now):
    subscription = create_subscription(
        alice,
        {"name": "Weekdays", "interests": ["x"], "cron": "30 7 * * 1-5", "timezone": "Asia/Tokyo"},
        now=now,
    )
    listing = console.get(reverse("digests:list")).content.decode()
    detail = console.get(reverse("digests:detail", args=[subscription.pk])).content.decode()
    for page in (listing, detail):
        # The zone is one unit in a narrow cell (a span that never wraps inside).
        assert 'Weekdays at 07:30 <span class="zone">(Asia/Tokyo)</span>' in page
        assert "30 7 * * 1-5" in page


def failed_run(user, now) -> Run:
    add_item("PostgreSQL retried from the console", now=now)
    subscription = create_subscription(
        user, {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    run = request_manual_run(subscription, now=now)
    Run.objects.filter(pk=run.pk).update(status="failed", error="RuntimeError: boom")
    return run


def test_a_failed_run_has_a_retry_button_that_retries_it(console, alice, now):
    run = failed_run(alice, now)
    retry_url = reverse("digests:retry", args=[run.subscription_id, run.pk])
    detail = console.get(reverse("digests:detail", args=[run.subscription_id])).content.decode()
    assert f'action="{retry_url}"' in detail

    with time_machine.travel(now, tick=False):
        response = console.post(retry_url, follow=True)

    run.refresh_from_db()
    assert (run.status, run.attempts, run.error) == ("succeeded", 1, "")
    assert Run.objects.count() == 1
    assert RunItem.objects.count() == 1
    assert "Retrying the run" in response.content.decode()
    assert f'action="{retry_url}"' not in response.content.decode()  # no button once it worked


def test_retrying_a_run_that_did_not_fail_changes_nothing(console, alice, now):
    run = failed_run(alice, now)
    runner_run = runner.execute_run(run.pk, now=now)
    assert runner_run.status == "succeeded"
    retry_url = reverse("digests:retry", args=[run.subscription_id, run.pk])

    response = console.post(retry_url, follow=True)

    assert "Only a failed run can be retried" in response.content.decode()
    assert RunItem.objects.count() == 1
    assert console.get(retry_url).status_code == 405


def test_someone_elses_run_cannot_be_retried_from_the_console(client, bob, alice, now):
    run = failed_run(alice, now)
    client.force_login(bob)
    response = client.post(reverse("digests:retry", args=[run.subscription_id, run.pk]))
    assert response.status_code == 404
    assert Run.objects.get().status == "failed"
