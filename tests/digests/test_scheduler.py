"""Claiming due subscriptions: one run per due slot, under concurrent tickers and workers."""

from __future__ import annotations

import multiprocessing
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection

from digests.models import Run, Subscription
from digests.schedules.scheduler import claim_due_subscriptions
from ingest.canonical import url_hash
from ingest.models import ContentItem
from tests.digests import processes


def due_subscriptions(owners, now, *, per_owner: int) -> list[Subscription]:
    return Subscription.objects.bulk_create(
        Subscription(
            owner=owner,
            name=f"{owner.username} #{n}",
            interests=["PostgreSQL"],
            cron="0 8 * * *",
            timezone="Europe/Berlin" if n % 2 else "UTC",
            next_run_at=now - timedelta(minutes=n % 7),
        )
        for owner in owners
        for n in range(per_owner)
    )


def owners(count: int) -> list[User]:
    return User.objects.bulk_create(
        User(username=f"user{n}@example.com", email=f"user{n}@example.com") for n in range(count)
    )


def test_a_claim_creates_one_run_per_due_subscription_and_moves_its_schedule(db, now):
    subscriptions = due_subscriptions(owners(2), now, per_owner=3)
    later = Subscription.objects.create(
        owner=subscriptions[0].owner,
        name="Later",
        cron="0 8 * * *",
        next_run_at=now + timedelta(hours=1),
    )
    runs = claim_due_subscriptions(now=now)
    assert sorted(r.subscription_id for r in runs) == sorted(s.pk for s in subscriptions)
    assert all(r.pk and r.trigger == "scheduled" and r.status == "pending" for r in runs)
    for run in Run.objects.select_related("subscription"):
        assert run.scheduled_at <= now < run.subscription.next_run_at
        assert run.subscription.next_run_at - run.scheduled_at < timedelta(days=1, hours=1)
    assert claim_due_subscriptions(now=now) == []
    assert Run.objects.filter(subscription=later).count() == 0


def test_a_slot_that_already_has_its_run_is_not_run_twice_and_the_schedule_moves_on(db, now):
    [subscription, other] = due_subscriptions(owners(1), now, per_owner=2)
    Run.objects.create(
        subscription=subscription,
        user=subscription.owner,
        trigger="scheduled",
        scheduled_at=subscription.next_run_at,
    )
    runs = claim_due_subscriptions(now=now)
    assert [r.subscription_id for r in runs] == [other.pk]
    assert Run.objects.filter(subscription=subscription).count() == 1
    subscription.refresh_from_db()
    assert subscription.next_run_at > now


def test_one_off_subscriptions_run_once(db, now):
    [user] = owners(1)
    one_off = Subscription.objects.create(
        owner=user, name="Once", run_at=now - timedelta(minutes=1), next_run_at=now
    )
    assert [r.subscription_id for r in claim_due_subscriptions(now=now)] == [one_off.pk]
    one_off.refresh_from_db()
    assert one_off.next_run_at is None
    assert claim_due_subscriptions(now=now + timedelta(days=1)) == []


def test_the_batch_claim_costs_a_constant_number_of_queries(db, now, django_assert_max_num_queries):
    users = owners(2)

    def queries_for(count: int, at) -> int:
        due_subscriptions(users, at, per_owner=count)
        with django_assert_max_num_queries(10) as captured:
            assert len(claim_due_subscriptions(now=at)) == 2 * count
        return len(captured.captured_queries)

    # (SQLite splits a bulk INSERT at 999 parameters, i.e. every ~39 runs of 25 columns.)
    assert queries_for(2, now) == queries_for(15, now + timedelta(hours=2))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_tickers_and_two_workers_in_processes_run_every_due_subscription_once(now):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent claims are tested on PostgreSQL")
    subscriptions = due_subscriptions(owners(20), now, per_owner=10)
    for n in range(5):
        url = f"https://news.example/{n}"
        ContentItem.objects.create(
            canonical_url=url,
            canonical_url_hash=url_hash(url),
            title=f"PostgreSQL news {n}",
            published_at=now - timedelta(hours=n + 1),
            first_seen_at=now,
            last_seen_at=now,
        )

    context = multiprocessing.get_context("spawn")
    start = context.Barrier(4)
    tasks, errors = context.Queue(), context.Queue()
    db_name, now_iso = connection.settings_dict["NAME"], now.isoformat()
    tickers = [
        context.Process(target=processes.ticker, args=(db_name, now_iso, 7, start, tasks, errors))
        for _ in range(2)
    ]
    workers = [
        context.Process(target=processes.worker, args=(db_name, now_iso, start, tasks, errors))
        for _ in range(2)
    ]
    for process in tickers + workers:
        process.start()
    for process in tickers:
        process.join(60)
    for _ in workers:
        tasks.put(None)
    for process in workers:
        process.join(60)
    failures = []
    while not errors.empty():
        failures.append(errors.get())
    assert failures == []
    assert [p.exitcode for p in tickers + workers] == [0, 0, 0, 0]

    runs = list(Run.objects.all())
    assert len(runs) == len(subscriptions) == 200
    assert {r.subscription_id for r in runs} == {s.pk for s in subscriptions}
    assert {(r.status, r.attempts) for r in runs} == {("succeeded", 1)}
    assert not Subscription.objects.filter(next_run_at__lte=now).exists()


def test_site_crawls_get_a_task_each_while_feeds_go_in_batches(db, now):
    from digests.schedules.scheduler import tick
    from ingest.models import Source

    def due(kind: str, n: int) -> Source:
        return Source.objects.create(
            type=kind,
            config={"n": n},
            config_hash=f"{kind}{n}",
            url=f"https://s{n}.example/",
            next_refresh_at=now - timedelta(minutes=1),
        )

    feeds = [due("feed", n) for n in range(3)]
    crawl = due("crawl", 9)
    singles, batches = [], []
    tick(now=now, run_source=singles.append, run_sources=batches.append, run_run=lambda _: None)
    assert singles == [crawl.pk]
    assert batches == [[feed.pk for feed in feeds]]
