"""The Sections filter (Korean newspaper sections) is offered only where it can match: a reader
whose sources carry no sections never sees it; one whose do, or whose subscription already
filters by one, does — and a save without the field leaves the subscription's sections alone."""

from __future__ import annotations

import pytest

from digests.subscriptions.service import create_subscription
from ingest.library.sources import add_to_library
from ingest.models import ContentItem, Source
from tests.factories import add_item

pytestmark = pytest.mark.django_db


@pytest.fixture
def console(client, alice):
    client.force_login(alice)
    return client


def feed(user, url="https://news.example/feed.xml") -> Source:
    source = Source.objects.create(
        type="feed", config={"url": url}, url=url, config_hash=url.ljust(64, "x")[:64]
    )
    add_to_library(user, source)
    return source


def test_no_sections_for_sources_without_them(console, alice, now):
    add_item("PostgreSQL 18", now=now, source=feed(alice))
    page = console.get("/subscriptions/new/").content.decode()
    assert 'name="sections"' not in page
    assert "Politics (정치)" not in page


def test_sections_for_sources_that_carry_them(console, alice, now):
    item = add_item("경제 뉴스", now=now, source=feed(alice))
    ContentItem.objects.filter(pk=item.pk).update(section="경제")
    assert 'name="sections"' in console.get("/subscriptions/new/").content.decode()


def test_an_edit_keeps_sections_it_cannot_show(console, alice, now):
    subscription = create_subscription(
        alice,
        {"name": "Economy", "interests": ["금리"], "cron": "0 8 * * *", "sections": ["경제"]},
        now=now,
    )
    page = console.get(f"/subscriptions/{subscription.pk}/edit/").content.decode()
    assert 'name="sections"' in page  # already filtering: shown, so it can be cleared
    plain = create_subscription(
        alice, {"name": "Plain", "interests": ["PostgreSQL"], "cron": "0 9 * * *"}, now=now
    )
    page = console.get(f"/subscriptions/{plain.pk}/edit/").content.decode()
    assert 'name="sections"' not in page
