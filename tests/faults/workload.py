"""Work for the fault scenarios — due subscriptions, due sources, a due topic — made slow
enough to be caught mid-way (a fake model that takes its time, a feed server that does too),
and the checks that nothing is stuck, lost or done twice."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler

from django.contrib.auth.models import User
from django.db.models import Count, Max, Q
from django.test import override_settings
from django.utils import timezone

from digests.models import Delivery, Run, RunItem, Subscription
from digests.subscriptions.service import create_subscription
from digests.textwatch.models import TextWatch
from digests.textwatch.service import add_watch
from inbox.accounts import sign_up
from inbox.models import UserContentState
from ingest.models import FetchLog, Source, UserSource, config_hash
from tests.bench.feed_server import feed_body
from tests.digests.fake_anthropic import FakeAnthropic, default_answer
from tests.factories import add_item
from tests.loopback import LoopbackServer
from tests.slow_page import SlowPage
from tests.smtp_server import LoopbackSMTPServer
from topics.models import Edition, EditionItem, Topic

FINISHED = (Run.Status.SUCCEEDED, Run.Status.FAILED)


@contextmanager
def slow_model(seconds: float) -> Iterator[FakeAnthropic]:
    """The fake Messages API, taking `seconds` per answer: a run with the model on (summaries,
    then the narrative) stays in flight long enough to be killed."""

    def answer(request):
        time.sleep(seconds)
        return default_answer(request)

    fake = FakeAnthropic(answer)
    with fake.loopback:
        yield fake


@contextmanager
def smtp_server(*, recipient_delay: float) -> Iterator[LoopbackSMTPServer]:
    """A real SMTP server on loopback that takes `recipient_delay` seconds per recipient."""
    server = LoopbackSMTPServer().start()
    server.rcpt_delay_seconds = recipient_delay
    try:
        yield server
    finally:
        server.stop()


class SlowFeeds:
    """Feeds at http://localhost:<port>/fNNNN.xml, each answer `latency` seconds late; counts
    the requests per feed."""

    def __init__(self, latency: float):
        self.requests: Counter[int] = Counter()
        feeds = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                time.sleep(latency)
                number = int(self.path.strip("/").removeprefix("f").removesuffix(".xml"))
                feeds.requests[number] += 1
                body = feed_body(number, 0)
                self.send_response(200)
                self.send_header("Content-Type", "application/rss+xml")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.loopback = LoopbackServer(Handler)
        self.port = self.loopback.port

    def __enter__(self) -> SlowFeeds:
        self.loopback.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.loopback.stop()

    def url(self, number: int) -> str:
        return self.loopback.url(f"/f{number:04d}.xml")


def due_text_watch(page: SlowPage, *, now: datetime) -> TextWatch:
    """A reader's text watch of `page` (its text now is the baseline), due now."""
    user = sign_up(email="watcher@example.com", password="a long test password", now=now)
    with override_settings(FETCH_TEST_ONLY_LOOPBACK_HOSTS=("localhost",)):
        watch = add_watch(user, {"url": page.url, "name": "Price"}, now=now)
    TextWatch.objects.filter(pk=watch.pk).update(next_check_at=now - timedelta(seconds=1))
    return watch


def text_watch_report(watch: TextWatch, now: datetime) -> dict:
    """What one text watch's checks left: its changes (snapshots after the baseline), the Inbox
    items and runs of its notifier, and when it is checked next."""
    watch.refresh_from_db()
    changes = watch.snapshots.filter(baseline=False).exclude(
        checked_at=watch.created_at
    )  # the first snapshot is the baseline of `add_watch`
    return {
        "changes": changes.count(),
        "changes_told": changes.filter(notified=True).count(),
        "inbox_items": RunItem.objects.filter(run__subscription_id=watch.notifier_id).count(),
        "runs": Run.objects.filter(subscription_id=watch.notifier_id).count(),
        "status": watch.status,
        "next_check_minutes_ahead": (
            round((watch.next_check_at - now).total_seconds() / 60) if watch.next_check_at else None
        ),
    }


def due_subscriptions(count: int, *, now: datetime, prefix: str = "fault") -> list[int]:
    """`count` users with one topic-only subscription each, due now, each matching two pool
    items of its own (so every run writes its own summaries and narrative)."""
    ids = []
    for n in range(count):
        user = sign_up(email=f"{prefix}{n}@example.com", password="a long test password", now=now)
        interest = f"Quokka{prefix.title()}{n}"
        for k in range(2):
            add_item(f"{interest} report {k}", description=f"About {interest}.", now=now)
        subscription = create_subscription(
            user, {"name": f"Watch {n}", "interests": [interest], "cron": "0 8 * * *"}, now=now
        )
        ids.append(subscription.pk)
    Subscription.objects.filter(pk__in=ids).update(next_run_at=now - timedelta(seconds=1))
    return ids


def due_sources(feeds: SlowFeeds, count: int, *, now: datetime) -> list[int]:
    sources = Source.objects.bulk_create(
        Source(
            type=Source.Type.FEED,
            config={"url": feeds.url(n)},
            config_hash=config_hash(Source.Type.FEED, {"url": feeds.url(n)}),
            url=feeds.url(n),
            next_refresh_at=now - timedelta(seconds=1),
        )
        for n in range(count)
    )
    return [source.pk for source in sources]


def due_topic(*, now: datetime, slug: str = "fault-topic") -> Topic:
    """A public topic due for its edition, with three items of its own source in the pool."""
    owner = User.objects.create_user(username=f"{slug}@example.com", email=f"{slug}@example.com")
    url = f"https://{slug}.example/feed.xml"
    source = Source.objects.create(
        type=Source.Type.FEED,
        config={"url": url},
        config_hash=config_hash(Source.Type.FEED, {"url": url}),
        url=url,
        refresh_mode=Source.RefreshMode.ON_RUN,  # never refreshed: its items are already here
    )
    UserSource.objects.create(user=owner, source=source)
    for k in range(3):
        add_item(f"Wombat digest {slug} {k}", now=now, source=source, age_hours=k + 1)
    topic = Topic.objects.create(
        slug=slug,
        title=f"Wombats {slug}",
        owner=owner,
        config={"interests": ["Wombat"], "min_score": 0, "max_items": 10},
        cron="0 6 * * *",
        next_edition_at=now - timedelta(seconds=1),
    )
    topic.sources.add(source)
    return topic


def runs_finished(subscription_ids: list[int]) -> bool:
    runs = Run.objects.filter(subscription_id__in=subscription_ids)
    return runs.count() >= len(subscription_ids) and not runs.exclude(status__in=FINISHED).exists()


def runs_report(subscription_ids: list[int]) -> dict:
    """What happened to the runs of these subscriptions: nothing lost (one succeeded run each),
    nothing twice (one run per subscription, every item delivered once per user)."""
    runs = Run.objects.filter(subscription_id__in=subscription_ids)
    per_subscription = runs.values("subscription_id").annotate(n=Count("id"))
    users = list(runs.values_list("user_id", flat=True))
    return {
        "subscriptions": len(subscription_ids),
        "runs": runs.count(),
        "succeeded": runs.filter(status=Run.Status.SUCCEEDED).count(),
        "failed": runs.filter(status=Run.Status.FAILED).count(),
        "unfinished": runs.exclude(status__in=FINISHED).count(),
        "subscriptions_run_twice": sum(1 for row in per_subscription if row["n"] > 1),
        "retried": runs.filter(attempts__gt=1).count(),
        "max_attempts": runs.aggregate(m=Max("attempts"))["m"] or 0,
        "items_delivered": RunItem.objects.filter(run__in=runs).count(),
        "delivered_count_mismatch": sum(
            1 for run in runs.annotate(written=Count("items")) if run.written != run.delivered_count
        ),
        "items_delivered_twice": UserContentState.objects.filter(
            user_id__in=users, delivered_count__gt=1
        ).count(),
    }


def sources_report(source_ids: list[int], now: datetime) -> dict:
    sources = Source.objects.filter(pk__in=source_ids)
    logs = FetchLog.objects.filter(source_id__in=source_ids)
    per_source = Counter(logs.values_list("source_id", flat=True))
    return {
        "sources": len(source_ids),
        "refreshed": sources.filter(last_refresh_at__isnull=False).count(),
        "failed": sources.filter(consecutive_failures__gt=0).count(),
        "still_due_or_leased": sources.filter(
            Q(next_refresh_at__lte=now) | Q(lease_expires_at__isnull=False)
        ).count(),
        "refreshed_twice": sum(1 for n in per_source.values() if n > 1),
    }


def sources_finished(source_ids: list[int]) -> bool:
    return not Source.objects.filter(pk__in=source_ids, last_refresh_at__isnull=True).exists()


def edition_report(topic: Topic) -> dict:
    editions = Edition.objects.filter(topic=topic)
    edition = editions.first()
    return {
        "editions": editions.count(),
        "status": edition.status if edition else None,
        "attempts": edition.attempts if edition else 0,
        "items": EditionItem.objects.filter(edition__topic=topic).count(),
        "item_count": edition.item_count if edition else 0,
    }


def wait_until_sending(*, at_least: int = 1):
    def check():
        return Delivery.objects.filter(status=Delivery.Status.SENDING).count() >= at_least

    return check


def deliveries_finished(subscription_ids: list[int]) -> bool:
    rows = Delivery.objects.filter(subscription_id__in=subscription_ids)
    return (
        rows.count() >= len(subscription_ids)
        and not rows.exclude(status=Delivery.Status.SENT).exists()
    )


def deliveries_report(subscription_ids: list[int], *, received: list[str] | None = None) -> dict:
    """What happened to the email briefs of these subscriptions; with `received` (the SMTP
    server's Message-IDs), how many arrived, and how many arrived twice."""
    rows = Delivery.objects.filter(subscription_id__in=subscription_ids)
    report = {
        "deliveries": rows.count(),
        "sent": rows.filter(status=Delivery.Status.SENT).count(),
        "sending": rows.filter(status=Delivery.Status.SENDING).count(),
        "deliveries_taken_over": rows.filter(attempts__gt=1).count(),
        "delivery_max_attempts": rows.aggregate(m=Max("attempts"))["m"] or 0,
    }
    if received is not None:
        ids = {f"<{message_id}@" for message_id in rows.values_list("message_id", flat=True)}
        ours = [m for m in received if any(m.startswith(prefix) for prefix in ids)]
        report["messages_received"] = len(ours)
        report["messages_received_twice"] = len(ours) - len(set(ours))
    return report


def wait_until_running(model, *, at_least: int = 1, **where):
    """A predicate for `wait_for`: that many rows are in progress now."""

    def check():
        return model.objects.filter(status="running", **where).count() >= at_least

    return check


def now() -> datetime:
    return timezone.now()
