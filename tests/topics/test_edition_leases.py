"""Editions under leases: an edition whose worker died is taken over within a lease, the day
is given up after a few attempts, and a dead worker never holds a concurrency slot."""

from __future__ import annotations

from datetime import timedelta

import pytest

from digests.schedules.scheduler import tick
from tests.factories import add_item
from tests.topics.test_services import published
from topics import editions
from topics.models import Edition, Topic


@pytest.fixture
def lease(settings) -> timedelta:
    return timedelta(seconds=settings.WORK_LEASE_SECONDS)


def with_items(topic, now):
    source = topic.sources.first()
    add_item("PostgreSQL 18 released", now=now, source=source)
    add_item("PostgreSQL vacuum tuning", now=now, source=source, age_hours=5)
    return topic


def died_mid_edition(topic, now) -> Edition:
    """What a worker killed mid-edition leaves: today's edition claimed, never finished."""
    edition, _attempt = editions._start(topic, now)
    return edition


def test_an_edition_whose_worker_died_is_taken_over_by_the_next_tick(alice, now, lease):
    topic = with_items(published(alice, now), now)
    due = topic.next_edition_at
    assert editions.claim_due_topics(now=due) == [topic.pk]
    dead = died_mid_edition(topic, due)
    handed_out: list[int] = []

    def tick_at(at):
        return tick(
            now=at, run_source=lambda _: None, run_run=lambda _: None, run_edition=handed_out.append
        )

    tick_at(due + lease - timedelta(seconds=1))
    assert handed_out == []  # its lease still holds
    later = due + lease + timedelta(seconds=1)
    assert tick_at(later).editions == [topic.pk]
    edition = editions.produce_edition(topic.pk, now=later)
    assert edition.pk == dead.pk
    assert (edition.status, edition.attempts, edition.item_count) == ("succeeded", 2, 2)
    assert edition.lease_expires_at is None
    assert Edition.objects.count() == 1
    assert tick_at(later + lease * 10).editions == []  # done: nothing to take over


def test_a_day_whose_edition_keeps_dying_is_given_up(alice, now, lease):
    topic = with_items(published(alice, now), now)
    at = topic.next_edition_at
    for _attempt in range(editions.MAX_EDITION_ATTEMPTS):
        died_mid_edition(topic, at)
        at += lease + timedelta(seconds=1)
    assert editions.produce_edition(topic.pk, now=at) is None
    edition = Edition.objects.get()
    assert (edition.status, edition.attempts) == ("failed", editions.MAX_EDITION_ATTEMPTS)
    topic.refresh_from_db()
    assert topic.next_edition_at > at + timedelta(hours=12)  # tomorrow's edition
    assert editions.reclaim_editions(now=at + lease * 2) == []


def test_a_dead_workers_edition_holds_no_concurrency_slot(alice, now, lease, settings):
    settings.TOPIC_EDITION_CONCURRENCY = 1
    busy = published(alice, now, title="Busy topic")
    died_mid_edition(busy, now)
    waiting = with_items(published(alice, now, title="Waiting topic"), now)
    assert editions.produce_edition(waiting.pk, now=now + timedelta(seconds=1)) is None
    later = now + lease + timedelta(seconds=1)
    assert editions.produce_edition(waiting.pk, now=later).status == "succeeded"
    assert Topic.objects.get(pk=busy.pk).status == "active"
