"""The thin path, end to end on real parts: a signed-in user adds a feed served over HTTP on
loopback, subscribes, the tick runs it when due, and the Inbox shows the items."""

from __future__ import annotations

from datetime import timedelta
from email.utils import format_datetime

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from digests.models import Run, RunItem, Subscription
from digests.tasks import dispatch_tick
from inbox.models import UserContentState
from ingest.models import ContentItem, FetchLog


def rss(items: list[tuple[str, str, str, timedelta]]) -> str:
    now = timezone.now()
    entries = "".join(
        f"<item><title>{title}</title><link>{link}</link><description>{text}</description>"
        f"<pubDate>{format_datetime(now - age)}</pubDate></item>"
        for title, link, text, age in items
    )
    return (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>Loopback News</title>'
        f"<link>https://news.example/</link>{entries}</channel></rss>"
    )


FEED_ITEMS = [
    (
        "PostgreSQL 18 ships asynchronous I/O",
        "https://news.example/pg18?utm_source=feed",
        "The release speeds up sequential scans.",
        timedelta(hours=2),
    ),
    (
        "Python packaging gets lockfiles",
        "https://news.example/lockfiles",
        "A new PEP standardises lock files for Python projects.",
        timedelta(hours=5),
    ),
    (
        "Gardening tips for winter",
        "https://news.example/garden",
        "Mulch and patience.",
        timedelta(hours=1),
    ),
]


@pytest.fixture
def signed_in(client, db):
    response = client.post(
        reverse("signup"),
        {"email": "Alice@Example.com", "password": "a long enough passphrase", "timezone": "UTC"},
    )
    assert response.status_code == 302
    return client


def test_a_feed_becomes_items_in_the_inbox_when_the_tick_runs(signed_in, fixture_server):
    feed_url = fixture_server.add("/feed.xml", rss(FEED_ITEMS), Content_Type="application/rss+xml")

    response = signed_in.post(reverse("ingest:list"), {"url": feed_url})
    assert response.status_code == 302
    assert ContentItem.objects.count() == 3
    # Tracking parameters never reach the pool.
    assert ContentItem.objects.filter(canonical_url="https://news.example/pg18").exists()
    assert FetchLog.objects.get().inserted == 3

    source_id = ContentItem.objects.first().sources.get().pk
    response = signed_in.post(
        reverse("digests:new"),
        {
            "name": "Databases & Python",
            "topic": "",
            "interests": "PostgreSQL, Python",
            "cron": "0 8 * * *",
            "timezone": "Europe/Berlin",
            "length": "brief",
            "source_ids": [str(source_id)],
        },
    )
    assert response.status_code == 302, response.content
    subscription = Subscription.objects.get()
    due = subscription.next_run_at
    assert due.astimezone(timezone.get_current_timezone()).minute == 0

    with time_machine.travel(due - timedelta(minutes=1), tick=False):
        dispatch_tick()
    assert Run.objects.count() == 0

    with time_machine.travel(due + timedelta(seconds=30), tick=False):
        dispatch_tick()
        dispatch_tick()  # a second tick in the same minute finds nothing to claim
    run = Run.objects.get()
    assert run.status == Run.Status.SUCCEEDED
    assert run.scheduled_at == due
    assert run.delivered_count == 2
    assert set(RunItem.objects.values_list("title", flat=True)) == {
        "PostgreSQL 18 ships asynchronous I/O",
        "Python packaging gets lockfiles",
    }
    subscription.refresh_from_db()
    assert subscription.next_run_at == due + timedelta(days=1)

    inbox = signed_in.get(reverse("inbox:index"))
    assert inbox.status_code == 200
    page = inbox.content.decode()
    assert "PostgreSQL 18 ships asynchronous I/O" in page
    assert "Gardening" not in page

    pg_item = RunItem.objects.get(title__startswith="PostgreSQL")
    response = signed_in.post(
        reverse("inbox:item_action", args=[pg_item.pk, "read"]), {"next": "/inbox/?show=unread"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/inbox/?show=unread"
    state = UserContentState.objects.get(canonical_url_hash=pg_item.canonical_url_hash)
    assert state.read_at is not None
    unread = signed_in.get(reverse("inbox:index") + "?show=unread").content.decode()
    assert "PostgreSQL 18" not in unread
    assert "Python packaging gets lockfiles" in unread


def test_the_next_run_does_not_deliver_the_same_items_again(signed_in, fixture_server):
    feed_url = fixture_server.add("/feed.xml", rss(FEED_ITEMS), Content_Type="application/rss+xml")
    signed_in.post(reverse("ingest:list"), {"url": feed_url})
    signed_in.post(
        reverse("digests:new"),
        {
            "name": "Databases",
            "interests": "PostgreSQL",
            "cron": "0 * * * *",
            "timezone": "UTC",
            "length": "brief",
        },
    )
    due = Subscription.objects.get().next_run_at
    with time_machine.travel(due + timedelta(seconds=1), tick=False):
        dispatch_tick()
    with time_machine.travel(due + timedelta(hours=1, seconds=1), tick=False):
        dispatch_tick()
    first, second = Run.objects.order_by("scheduled_at")
    assert first.delivered_count == 1
    assert second.delivered_count == 0
    assert second.dedup_skipped_count == 1
    assert second.empty_reason == "Everything that matched was already delivered to you."
