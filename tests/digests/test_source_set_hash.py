"""Seed 002's subscription hash: materialized per user (library) and per subscription, changed
in the transaction of every change that alters it, and the combination cache's first level
(source set + options + the digest type's period in the subscription's time zone) in front
of the item-set level."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, transaction

from digests.ai import periods
from digests.models import CombinationCacheCounter, Subscription
from digests.narrative import writer
from digests.runs import runner
from digests.subscriptions.service import create_subscription, update_subscription
from digests.subscriptions.source_sets import sharing
from ingest.library.packs import install_pack
from ingest.library.source_sets import EMPTY_HASH, source_set_hash
from ingest.library.sources import add_to_library, remove_from_library
from ingest.models import Source, UserSourceSet
from tests.conftest import api_client_for, make_user
from tests.digests.fake_anthropic import FakeAnthropic
from tests.digests.test_writer import items_of
from tests.threads import at_once


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def feed(n: int) -> Source:
    return Source.objects.create(
        type="feed", config={"n": n}, config_hash=f"h{n}", url=f"https://f{n}.example/feed"
    )


@pytest.fixture
def feeds(db):
    return [feed(n) for n in range(1, 6)]


def library_hash(user) -> str:
    return UserSourceSet.objects.get(user=user).source_set_hash


def subscribe(user, now, sources, **data):
    for source in sources:
        add_to_library(user, source)
    base = {"name": "Brief", "interests": ["postgres"], "cron": "0 8 * * *"}
    return create_subscription(
        user, {**base, **data, "source_ids": [s.pk for s in sources]}, now=now
    )


# --- the hash ----------------------------------------------------------------------------------


def test_the_hash_is_sha256_of_the_sorted_ids_whatever_their_order():
    assert source_set_hash([3, 1, 7]) == source_set_hash([7, 3, 1, 3]) == sha("1,3,7")
    assert source_set_hash([1, 3, 7, 9]) != sha("1,3,7")
    assert source_set_hash([]) == EMPTY_HASH == sha("")


def test_a_library_hash_follows_every_add_and_remove(alice, feeds, now):
    entry = add_to_library(alice, feeds[2])
    add_to_library(alice, feeds[0])
    assert library_hash(alice) == source_set_hash([feeds[0].pk, feeds[2].pk])
    remove_from_library(alice, entry.pk)
    assert library_hash(alice) == source_set_hash([feeds[0].pk])
    assert UserSourceSet.objects.get(user=alice).source_count == 1


def test_the_hash_changes_in_the_same_transaction_as_the_library(alice, feeds):
    add_to_library(alice, feeds[0])
    before = library_hash(alice)
    with pytest.raises(RuntimeError), transaction.atomic():
        add_to_library(alice, feeds[1])
        assert library_hash(alice) != before  # visible inside the transaction ...
        raise RuntimeError("the request failed after adding")
    assert library_hash(alice) == before  # ... and rolled back with it


def test_a_pack_install_gives_its_users_one_shared_hash(alice, bob, now, fixture_server):
    install_pack(alice, "ai", now=now)
    install_pack(bob, "ai", now=now)
    assert library_hash(alice) == library_hash(bob)
    assert library_hash(alice) != EMPTY_HASH


def test_a_subscription_hash_follows_its_sources(alice, bob, feeds, now):
    mine = subscribe(alice, now, [feeds[2], feeds[0]])
    theirs = subscribe(bob, now, [feeds[0], feeds[2]])
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert mine.source_set_hash == theirs.source_set_hash == sha(f"{feeds[0].pk},{feeds[2].pk}")
    assert mine.source_count == 2

    update_subscription(mine, {"source_ids": [feeds[0].pk]}, now=now)
    mine.refresh_from_db()
    assert mine.source_set_hash == sha(str(feeds[0].pk))
    topic_only = subscribe(alice, now, [])
    topic_only.refresh_from_db()
    assert topic_only.source_set_hash == EMPTY_HASH


def test_deleting_a_source_recomputes_everyone_who_had_it(alice, bob, feeds, now):
    add_to_library(alice, feeds[0])
    add_to_library(alice, feeds[1])
    add_to_library(bob, feeds[1])
    subscription = subscribe(alice, now, [feeds[0], feeds[1]])
    feeds[1].delete()
    subscription.refresh_from_db()
    assert subscription.source_set_hash == sha(str(feeds[0].pk))
    assert library_hash(alice) == sha(str(feeds[0].pk))
    assert library_hash(bob) == EMPTY_HASH


def test_how_many_share_each_hash_in_the_staff_api_and_the_admin(alice, bob, feeds, now, client):
    carol = make_user("carol@example.com")
    for user in (alice, bob, carol):
        subscribe(user, now, feeds[:2])
    subscribe(alice, now, feeds[:3], name="More")
    shared = sha(f"{feeds[0].pk},{feeds[1].pk}")
    figures = sharing()
    assert figures["subscriptions"][0] == {
        "hash": shared,
        "sources": 2,
        "subscriptions": 3,
        "users": 3,
    }
    assert figures["distinct_subscription_hashes"] == 2

    staff = make_user("ops@example.com")
    staff.is_staff = staff.is_superuser = True
    staff.save(update_fields=["is_staff", "is_superuser"])
    answer = api_client_for(staff).get("/api/v1/admin/cache/source-sets")
    assert answer.status_code == 200, answer.content
    assert answer.json()["subscriptions"][0]["users"] == 3
    assert api_client_for(alice).get("/api/v1/admin/cache/source-sets").status_code == 403

    client.force_login(staff)
    page = client.get("/admin/digests/subscription/").content.decode()
    assert shared[:12] in page


# --- the digest type's period ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cron", "kind"),
    [
        ("0 8 * * *", "daily"),
        ("*/30 * * * *", "daily"),
        ("0 8 * * 1-5", "daily"),
        ("0 8 * * 1", "weekly"),
        ("@weekly", "weekly"),
        ("0 8 1 * *", "monthly"),
        ("", "daily"),
        ("not a cron", "daily"),
    ],
)
def test_the_digest_type_follows_the_schedule(cron, kind):
    assert periods.digest_type(cron) == kind


def test_period_windows_are_local_days_weeks_and_months():
    moment = datetime(2026, 11, 25, 23, 30, tzinfo=UTC)  # Thursday 08:30 in Seoul
    start, end = periods.period_window("daily", "Asia/Seoul", moment)
    assert (start.isoformat(), end.isoformat()) == (
        "2026-11-25T15:00:00+00:00",  # 00:00 in Seoul
        "2026-11-26T15:00:00+00:00",
    )
    start, end = periods.period_window("weekly", "Asia/Seoul", moment)
    assert (start.isoformat(), end.isoformat()) == (
        "2026-11-22T15:00:00+00:00",  # Monday 00:00 in Seoul
        "2026-11-29T15:00:00+00:00",
    )
    start, end = periods.period_window("monthly", "Europe/Berlin", moment)
    assert (start.isoformat(), end.isoformat()) == (
        "2026-10-31T23:00:00+00:00",
        "2026-11-30T23:00:00+00:00",
    )
    start, end = periods.period_window(
        "daily", "Europe/Berlin", datetime(2026, 3, 29, 12, tzinfo=UTC)
    )
    assert end - start == timedelta(hours=23)  # the spring-forward day


# --- the first level ---------------------------------------------------------------------------


@pytest.fixture
def fake(db):
    with FakeAnthropic.running(LLM_MAX_RETRIES=0) as server:
        yield server


def combination(source_hash: str, when: datetime, *, cron="0 8 * * 1", zone="UTC"):
    subscription = Subscription(
        interests=["postgres"], cron=cron, timezone=zone, source_set_hash=source_hash
    )
    return runner.combination_of(subscription, now=when)


def write(when, items, source_hash="a" * 64, **kwargs):
    return writer.write_narrative(
        items,
        title="Brief",
        locale="en",
        tone="neutral",
        now=when,
        combination=combination(source_hash, when, **kwargs),
    )


def test_a_weekly_combination_is_written_once_in_its_week(fake):
    monday = datetime(2026, 11, 23, 8, tzinfo=UTC)
    items = items_of(3)
    first = write(monday, items)
    # Thursday: the item-set key's UTC day has changed, the week has not.
    again = write(monday + timedelta(days=3), items)
    assert (first.cache_hit, again.cache_hit) == (False, True)
    assert again.markdown == first.markdown
    assert len(fake.requests_for("write_narrative")) == 1
    assert CombinationCacheCounter.objects.get(kind="narrative").hits == 1
    # Next week is a new period.
    write(monday + timedelta(days=7), items)
    assert len(fake.requests_for("write_narrative")) == 2


def test_the_same_sources_with_other_items_are_never_handed_its_narrative(fake):
    monday = datetime(2026, 11, 23, 8, tzinfo=UTC)
    write(monday, items_of(3))
    other = write(monday + timedelta(days=1), items_of(2))  # already had story 3, say
    assert other.cache_hit is False
    assert "story-3" not in other.markdown
    assert len(fake.requests_for("write_narrative")) == 2


def test_another_source_set_or_period_type_is_another_combination(fake):
    monday = datetime(2026, 11, 23, 8, tzinfo=UTC)
    items = items_of(3)
    write(monday, items)
    write(monday + timedelta(days=2), items, source_hash="b" * 64)  # other sources
    write(monday + timedelta(days=4), items, cron="0 8 * * *")  # daily: another day
    assert len(fake.requests_for("write_narrative")) == 3


# --- concurrency -------------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_library_changes_leave_the_hash_of_the_whole_library(alice):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    sources = [feed(n) for n in range(1, 9)]
    outcomes = at_once(lambda source: add_to_library(alice, source), sources)
    assert not [o for o in outcomes if isinstance(o, Exception)]
    assert library_hash(alice) == source_set_hash([s.pk for s in sources])
    assert UserSourceSet.objects.get(user=alice).source_count == 8
