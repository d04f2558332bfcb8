"""Watches that notify by themselves (digests/watches/notifiers.py; seed 004 notifyChannels +
interval).

A listing page is served over HTTP on loopback and checked by the real refresh pipeline; the
dispatcher tick, the runner and the delivery service run inline with injected times; email
goes through a real SMTP server on loopback. "Exactly once" is tested the way it can break:
the same check run again, the tick run twice, the run and the send repeated.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from billing.accounts import account_for
from billing.limits import TierLimitError
from billing.tiers import change_tier
from digests.delivery import service as deliveries
from digests.models import Delivery, Run, RunItem, Subscription
from digests.runs import runner
from digests.schedules.scheduler import tick
from digests.subscriptions.service import soft_delete
from digests.watches.notifiers import (
    WatchSettingsError,
    changes_seen,
    notifier_for,
    set_watch_notifications,
    settings_of,
)
from ingest.library.sources import remove_from_library
from ingest.models import Source, UserSource
from ingest.refresh.pipeline import refresh_source
from ingest.watch.service import add_list_watch

HOUR = timedelta(hours=1)
PATH = "/blog/"


def listing(*slugs: str) -> str:
    links = "".join(f'<li><a href="/blog/{s}">Post {s} about databases</a></li>' for s in slugs)
    return f"<html><head><title>Blog</title></head><body><ul class=posts>{links}</ul></body></html>"


def serve(fixture_server, *slugs):
    return fixture_server.add(PATH, listing(*slugs), Content_Type="text/html; charset=utf-8")


def watch(fixture_server, user, now, *slugs, **kwargs):
    url = serve(fixture_server, *slugs)
    return add_list_watch(user, url, selector="ul.posts a", now=now, **kwargs)


def run_tick(at):
    """One tick, inline: sources refreshed, runs executed, deliveries sent."""
    return tick(
        now=at,
        run_source=lambda pk: refresh_source(Source.objects.get(pk=pk), now=at),
        run_run=lambda pk: _run_and_send(pk, at),
        run_delivery=lambda pk: deliveries.send_delivery(pk, now=at),
    )


def _run_and_send(run_id, at):
    runner.execute_run(run_id, now=at)
    deliveries.hand_out_run(run_id, lambda pk: deliveries.send_delivery(pk, now=at))


def delivered_urls(user) -> list[str]:
    return sorted(RunItem.objects.filter(run__user=user).values_list("url", flat=True))


# --- the default: the Inbox --------------------------------------------------------------------


def test_a_new_watch_notifies_the_inbox_and_is_checked_hourly(fixture_server, alice, now):
    added = watch(fixture_server, alice, now, "a", "b")
    source = added.user_source.source
    notifier = notifier_for(alice, source)
    assert settings_of(notifier).channels == ("inbox",)
    assert settings_of(notifier).check_interval_minutes == 60
    assert source.__class__.objects.get(pk=source.pk).refresh_interval_minutes == 60
    # A watch's notifier is not a recurring subscription: it has no schedule and is not due.
    assert notifier.cron == "" and notifier.next_run_at is None


def test_a_new_link_reaches_the_inbox_by_itself_and_only_the_new_one(fixture_server, alice, now):
    source = watch(fixture_server, alice, now, "a", "b").user_source.source
    assert run_tick(now).runs == []  # the baseline is not news

    serve(fixture_server, "c", "a", "b")
    at = now + 2 * HOUR
    # The check finds "c" and makes the notifier due; the same tick claims it after the
    # sources (with a worker queue, the next tick does).
    result = run_tick(at)
    assert result.sources == [source.pk]
    assert len(result.runs) == 1
    assert run_tick(at + timedelta(minutes=1)).runs == []
    assert delivered_urls(alice) == [fixture_server.url("/blog/c")]
    run = Run.objects.get(pk=result.runs[0])
    assert run.status == "succeeded" and run.delivered_count == 1


def test_each_change_is_notified_once_per_channel_whatever_is_repeated(
    fixture_server, alice, now, smtp_server
):
    source = watch(fixture_server, alice, now, "a", notify=["inbox", "email"]).user_source.source
    serve(fixture_server, "a", "b")
    at = now + 2 * HOUR
    outcome = refresh_source(source, now=at)
    assert outcome.counts.newly_seen == 1
    # The same check again (a redelivered task, a retried refresh): nothing new, nothing due.
    source.refresh_from_db()
    again = refresh_source(source, now=at + timedelta(minutes=31))
    assert again.ok and again.counts.newly_seen == 0

    first = run_tick(at + timedelta(minutes=32))
    second = run_tick(at + timedelta(minutes=33))
    assert len(first.runs) == 1 and second.runs == []
    run_id = first.runs[0]
    # The run and its sends repeated, as an at-least-once queue may: still one of each.
    _run_and_send(run_id, at + timedelta(minutes=34))
    for delivery in Delivery.objects.filter(run_id=run_id):
        deliveries.send_delivery(delivery.pk, now=at + timedelta(minutes=35))
    assert delivered_urls(alice) == [fixture_server.url("/blog/b")]
    assert smtp_server.count == 1
    assert list(Delivery.objects.filter(run_id=run_id).values_list("channel", "status")) == [
        ("email", "sent")
    ]

    # A later change is a new notice, with only what is new.
    serve(fixture_server, "a", "b", "c")
    later = at + 3 * HOUR
    refresh_source(Source.objects.get(pk=source.pk), now=later)
    run_tick(later + timedelta(minutes=1))
    assert delivered_urls(alice) == [fixture_server.url(f"/blog/{s}") for s in "bc"]
    assert smtp_server.count == 2


def test_changes_seen_twice_in_one_slot_make_one_run(fixture_server, alice, now):
    source = watch(fixture_server, alice, now, "a").user_source.source
    assert changes_seen(source, now=now + HOUR) == 1
    assert changes_seen(source, now=now + HOUR + timedelta(minutes=5)) == 0  # due already
    notifier = notifier_for(alice, source)
    assert notifier.next_run_at == now + HOUR


def test_a_second_watcher_is_not_told_what_the_list_had_before_they_came(
    fixture_server, alice, bob, now
):
    source = watch(fixture_server, alice, now, "a").user_source.source
    serve(fixture_server, "a", "b")
    refresh_source(source, now=now + HOUR)
    run_tick(now + HOUR + timedelta(minutes=1))
    assert delivered_urls(alice) == [fixture_server.url("/blog/b")]

    watch(fixture_server, bob, now + 2 * HOUR, "a", "b")  # the same list: shared, not fetched
    serve(fixture_server, "a", "b", "c")
    refresh_source(Source.objects.get(pk=source.pk), now=now + 3 * HOUR)
    run_tick(now + 3 * HOUR + timedelta(minutes=1))
    assert delivered_urls(bob) == [fixture_server.url("/blog/c")]


def test_no_channel_means_no_notice_but_the_watch_stays(fixture_server, alice, now):
    source = watch(fixture_server, alice, now, "a", notify=[]).user_source.source
    assert notifier_for(alice, source).status == Subscription.Status.PAUSED
    serve(fixture_server, "a", "b")
    refresh_source(source, now=now + HOUR)
    assert run_tick(now + HOUR + timedelta(minutes=1)).runs == []
    assert UserSource.objects.filter(user=alice, source=source).exists()


def test_removing_the_watch_from_the_library_stops_its_notices(fixture_server, alice, now):
    added = watch(fixture_server, alice, now, "a")
    remove_from_library(alice, added.user_source.pk)
    serve(fixture_server, "a", "b")
    refresh_source(added.user_source.source, now=now + HOUR)
    assert run_tick(now + HOUR + timedelta(minutes=1)).runs == []


def test_a_deleted_notifier_is_made_again_by_new_settings(fixture_server, alice, now):
    source = watch(fixture_server, alice, now, "a").user_source.source
    soft_delete(notifier_for(alice, source), now=now)
    assert notifier_for(alice, source) is None
    notifier = set_watch_notifications(alice, source, now=now, channels=["inbox"])
    assert notifier.status == "active" and notifier.deleted_at is None


# --- settings and their limits -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("channels", "message"),
    [
        (["email"], "include “inbox”"),
        (["inbox", "sms"], "Unknown channel 'sms'"),
        (["inbox", "inbox"], "each channel once"),
        ("inbox", "Must be a list"),
        ([1], "Must be a list"),
        (["inbox", "push"], "Web Push is off on this server"),
    ],
)
def test_bad_channels_are_refused_naming_the_field_and_nothing_is_written(
    fixture_server, alice, now, channels, message
):
    url = serve(fixture_server, "a")
    with pytest.raises(WatchSettingsError) as refused:
        add_list_watch(alice, url, now=now, notify=channels)
    assert list(refused.value.errors) == ["notify"]
    assert message in refused.value.errors["notify"]
    assert not Source.objects.exists() and not Subscription.objects.exists()
    assert fixture_server.requests == []  # refused before the page was fetched


@pytest.mark.parametrize("minutes", [0, 29, 1441, True, "60", 60.5])
def test_an_interval_out_of_range_or_not_whole_minutes_is_refused(
    fixture_server, alice, now, minutes
):
    url = serve(fixture_server, "a")
    with pytest.raises(WatchSettingsError) as refused:
        add_list_watch(alice, url, now=now, check_interval_minutes=minutes)
    assert list(refused.value.errors) == ["check_interval_minutes"]
    assert not Subscription.objects.exists()


def test_the_tier_bounds_the_interval_and_a_downgrade_slows_the_watch_down(
    fixture_server, alice, now
):
    url = serve(fixture_server, "a")
    with pytest.raises(TierLimitError) as refused:  # free: at least an hour
        add_list_watch(alice, url, now=now, check_interval_minutes=30)
    assert refused.value.field == "check_interval_minutes"
    assert not Subscription.objects.exists()

    account = account_for(alice.pk, now=now)
    change_tier(account.pk, "pro", now=now)
    source = add_list_watch(alice, url, now=now, check_interval_minutes=30).user_source.source
    assert Source.objects.get(pk=source.pk).refresh_interval_minutes == 30

    # Changing the settings later is checked the same way (the attempt to get around it).
    change_tier(account.pk, "free", now=now + HOUR)
    notifier = notifier_for(alice, source)
    assert notifier.check_interval_minutes == 60
    assert Source.objects.get(pk=source.pk).refresh_interval_minutes == 60
    with pytest.raises(TierLimitError):
        set_watch_notifications(alice, source, now=now + HOUR, check_interval_minutes=45)
    assert notifier_for(alice, source).check_interval_minutes == 60


def test_a_shared_list_is_checked_at_its_most_eager_watchers_pace(fixture_server, alice, bob, now):
    change_tier(account_for(bob.pk, now=now).pk, "pro", now=now)
    source = watch(fixture_server, alice, now, "a", check_interval_minutes=180).user_source.source
    assert Source.objects.get(pk=source.pk).refresh_interval_minutes == 180
    watch(fixture_server, bob, now, "a", check_interval_minutes=30)
    assert Source.objects.get(pk=source.pk).refresh_interval_minutes == 30
    set_watch_notifications(bob, source, now=now, channels=[])  # a paused one does not count
    assert Source.objects.get(pk=source.pk).refresh_interval_minutes == 180


def test_only_a_watched_list_can_notify(alice, now):
    feed = Source.objects.create(type="feed", config={}, config_hash="f", url="https://x.test/")
    with pytest.raises(WatchSettingsError) as refused:
        set_watch_notifications(alice, feed, now=now, channels=["inbox"])
    assert list(refused.value.errors) == ["source"]


# --- API and console -----------------------------------------------------------------------------


def test_the_api_starts_a_watch_with_its_settings_and_changes_them(fixture_server, api, alice, now):
    url = serve(fixture_server, "a")
    created = api.post(
        "/api/v1/sources/lists",
        {"url": url, "selector": "ul.posts a", "notify": ["inbox", "email"]},
        format="json",
    )
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["notify"] == ["inbox", "email"]
    assert body["check_interval_minutes"] == 60
    notifier = Subscription.objects.get(pk=body["notifier_subscription_id"])
    assert notifier.email_enabled and notifier.watch_source_id == body["source_id"]

    path = f"/api/v1/sources/lists/{body['id']}"
    changed = api.patch(path, {"notify": [], "check_interval_minutes": 120}, format="json")
    assert changed.status_code == 200, changed.json()
    assert (changed.json()["notify"], changed.json()["check_interval_minutes"]) == ([], 120)
    assert api.get(path).json()["notify"] == []


@pytest.mark.parametrize(
    ("body", "field", "status"),
    [
        ({"notify": ["sms"]}, "notify.0", 400),
        ({"notify": "inbox"}, "notify", 400),
        # Each channel is valid; email without the Inbox is not (a combination: 422).
        ({"notify": ["email"]}, "notify", 422),
        ({"notify": ["email", "sms"]}, "notify.1", 400),  # the field's own rule first
        ({"notify": ["inbox", "inbox"]}, "notify", 400),
        ({"check_interval_minutes": "60"}, "check_interval_minutes", 400),
        ({"check_interval_minutes": 10}, "check_interval_minutes", 400),
        ({"check_interval_minutes": 30}, "check_interval_minutes", 403),  # free plan: 60
        ({"interval": 60}, "interval", 400),  # unknown fields are refused
    ],
)
def test_the_api_refuses_bad_settings_naming_the_field(
    fixture_server, api, alice, now, body, field, status
):
    url = serve(fixture_server, "a")
    user_source = add_list_watch(alice, url, now=now).user_source
    before = settings_of(notifier_for(alice, user_source.source))
    answer = api.patch(f"/api/v1/sources/lists/{user_source.pk}", body, format="json")
    assert answer.status_code == status, answer.json()
    assert field in answer.json()["error"]["fields"]
    if status == 422:
        assert answer.json()["error"]["code"] == "invalid_combination"
    assert settings_of(notifier_for(alice, user_source.source)) == before
    # The same on creation: refused before anything is fetched or written.
    fresh = fixture_server.add("/other/", listing("x"), Content_Type="text/html")
    answer = api.post("/api/v1/sources/lists", {"url": fresh, **body}, format="json")
    assert answer.status_code == status and field in answer.json()["error"]["fields"]
    assert not Source.objects.filter(url=fresh).exists()


def test_another_users_watch_is_not_found(fixture_server, api, bob, now):
    user_source = watch(fixture_server, bob, now, "a").user_source
    path = f"/api/v1/sources/lists/{user_source.pk}"
    assert api.get(path).status_code == 404
    assert api.patch(path, {"notify": []}, format="json").status_code == 404


def test_the_console_form_starts_and_changes_a_watch(fixture_server, client, alice, now):
    client.force_login(alice)
    url = serve(fixture_server, "a")
    answer = client.post(
        "/sources/watch/",
        {
            "url": url,
            "selector": "ul.posts a",
            "render": "http",
            "notify": ["inbox", "email"],
            "check_interval_minutes": "180",
        },
    )
    assert answer.status_code == 302
    user_source = UserSource.objects.get(user=alice)
    current = settings_of(notifier_for(alice, user_source.source))
    assert (current.channels, current.check_interval_minutes) == (("inbox", "email"), 180)
    listing_page = client.get("/sources/").content.decode()
    assert f"/sources/watch/{user_source.pk}/settings/" in listing_page

    settings_path = f"/sources/watch/{user_source.pk}/settings/"
    page = client.get(settings_path).content.decode()
    assert "Push notifications are off on this server" in page
    refused = client.post(settings_path, {"notify": ["email"], "check_interval_minutes": "60"})
    assert refused.status_code == 400
    assert "include “inbox”" in refused.content.decode()
    refused = client.post(settings_path, {"notify": ["inbox"], "check_interval_minutes": "30"})
    assert refused.status_code == 400 and "at most once every" in refused.content.decode()
    saved = client.post(settings_path, {"notify": [], "check_interval_minutes": "60"})
    assert saved.status_code == 302
    assert settings_of(notifier_for(alice, user_source.source)).channels == ()


def test_the_notifier_is_edited_like_a_subscription_but_never_gets_a_schedule(
    fixture_server, alice, now
):
    from digests.subscriptions.service import (
        SubscriptionInputError,
        pause,
        resume,
        update_subscription,
    )

    source = watch(fixture_server, alice, now, "a").user_source.source
    notifier = notifier_for(alice, source)
    # The console's form sends every field, an empty schedule among them.
    update_subscription(
        notifier, {"email_enabled": True, "cron": "", "run_at": None, "name": "Blog"}, now=now
    )
    assert settings_of(notifier_for(alice, source)).channels == ("inbox", "email")
    with pytest.raises(SubscriptionInputError) as refused:
        update_subscription(notifier, {"cron": "0 8 * * *"}, now=now)
    assert list(refused.value.errors) == ["cron"]
    assert notifier_for(alice, source).cron == ""

    # Paused and resumed from the subscription page: what came meanwhile is not news.
    pause(notifier)
    serve(fixture_server, "a", "b")
    refresh_source(source, now=now + HOUR)
    resume(notifier_for(alice, source), now=now + 2 * HOUR)
    serve(fixture_server, "a", "b", "c")
    refresh_source(Source.objects.get(pk=source.pk), now=now + 3 * HOUR)
    run_tick(now + 3 * HOUR + timedelta(minutes=1))
    assert delivered_urls(alice) == [fixture_server.url("/blog/c")]
