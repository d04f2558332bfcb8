"""Closeness in meaning (digests/runs/scoring.py `meaning_points`): of the items that say a
topic's words, the ones about the topic come first; meaning alone never brings an item in."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from digests.runs import runner, scoring
from digests.subscriptions.service import create_subscription
from tests.factories import add_item


@pytest.fixture
def pool(now):
    for n in range(20):
        add_item(f"Unrelated pool item {n}", now=now, description="Gardening and cooking notes.")
    items = {
        # Both say "release" once in the title; the boots are newer, so on words alone (and
        # freshness) they come first.
        "database": add_item(
            "Release notes: PostgreSQL 18 adds asynchronous I/O",
            description="The new version of the SQL server reads tables and indexes faster, "
            "with fewer blocking queries on busy OLTP workloads.",
            now=now,
            age_hours=20,
        ),
        "boots": add_item(
            "Release day for our autumn hiking boots",
            description="Waterproof leather, a wider toe box and three new colours, in shops "
            "from Friday.",
            now=now,
            age_hours=1,
        ),
        # About databases, and says none of the topic's words.
        "unsaid": add_item(
            "MySQL and SQLite compared on a laptop",
            description="Query latency and storage engines of two SQL servers, measured.",
            now=now,
            age_hours=1,
        ),
    }
    cache.clear()
    return items


def _order(alice, now):
    subscription = create_subscription(
        alice,
        {"name": "DB", "topic": "database releases", "interests": ["release"], "cron": "0 8 * * *"},
        now=now,
    )
    subscription.min_score = 0
    return [c.item_id for c in runner.preview(subscription, now=now).selected]


def test_the_item_about_the_topic_comes_before_one_that_only_shares_a_word(alice, now, pool):
    order = _order(alice, now)
    assert order.index(pool["database"].id) < order.index(pool["boots"].id)


def test_without_meaning_the_same_two_rank_by_their_words_and_freshness(
    alice, now, pool, monkeypatch
):
    """The test above fails without closeness in meaning: the words tie, and the newer wins."""
    monkeypatch.setattr(scoring, "MEANING_WEIGHT", 0)
    order = _order(alice, now)
    assert order.index(pool["boots"].id) < order.index(pool["database"].id)


def test_meaning_alone_brings_in_no_item(alice, now, pool):
    assert pool["unsaid"].id not in _order(alice, now)


def test_the_closeness_is_in_the_overall_score_and_depends_on_the_topic(alice, now, pool):
    subscription = create_subscription(
        alice,
        {"name": "Boots", "topic": "hiking gear", "interests": ["release"], "cron": "0 8 * * *"},
        now=now,
    )
    subscription.min_score = 0
    order = [c.item_id for c in runner.preview(subscription, now=now).selected]
    assert order.index(pool["boots"].id) < order.index(pool["database"].id)


def test_why_selected_says_when_meaning_lifted_an_item(alice, now, pool):
    subscription = create_subscription(
        alice,
        {"name": "DB", "topic": "PostgreSQL release notes and faster queries", "cron": "0 8 * * *"},
        now=now,
    )
    subscription.min_score = 0
    reasons = {c.item_id: c.reason("UTC") for c in runner.preview(subscription, now=now).selected}
    assert "close in meaning to your topic" in reasons[pool["database"].id]
    assert "close in meaning" not in reasons[pool["boots"].id]


def test_a_topic_in_chinese_japanese_or_korean_gets_no_points():
    rows = [{"id": 1, "title": "电动汽车电池技术", "description": "固态电池的新进展。"}]
    ranked = [scoring.Relevance(80)]
    for topic in ("电动汽车电池技术", "生成AIの規制", "생성형 AI 규제"):
        assert scoring.meaning_points(topic, rows, ranked) == [0.0]
    assert scoring.meaning_points("electric car batteries", rows * 2, ranked * 2) == [0.0, 0.0]


def test_points_go_to_matches_closer_than_the_candidates_mean():
    rows = [
        {"id": 1, "title": "Solid-state batteries for electric cars", "description": ""},
        {"id": 2, "title": "A recipe for lemon cake", "description": ""},
        {"id": 3, "title": "Battery recycling plants in Europe", "description": ""},
    ]
    ranked = [scoring.Relevance(80), scoring.Relevance(40), scoring.Relevance(0)]
    points = scoring.meaning_points("electric car batteries", rows, ranked)
    assert points[0] > 0
    assert points[1] == 0.0  # further than the mean: no points, and none taken away
    assert points[2] == 0.0  # says none of the interests
