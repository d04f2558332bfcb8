"""Content scores (SPEC §4.7): impact and quality with the parts that explain them."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import override_settings

from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from ingest.models import ContentItem, Source
from ingest.pool.dedup import sync_duplicate_penalty
from ingest.pool.entries import ParsedEntry
from ingest.pool.full_text import rescore_with_full_text
from ingest.pool.upsert import upsert_entries
from ingest.text.scores import freshness_part, impact_at, score_item

PARAGRAPH = (
    "PostgreSQL keeps every version of a row until vacuum removes the ones no transaction "
    "can see any more, which is why long transactions make tables grow. "
)  # 26 words


def long_article() -> str:
    body = "".join(f"<p>{PARAGRAPH * 4}</p>" for _ in range(11))  # 1,144 words
    return (
        f"<h2>Why tables grow</h2>{body}<pre><code>VACUUM (VERBOSE) orders;</code></pre>"
        "<blockquote><p>Vacuum early.</p></blockquote><ul><li>Watch xmin.</li></ul>"
    )


def link_list() -> str:
    links = "".join(
        f'<li><a href="https://blog.example/post-{n}">Weekly notes number {n}</a></li>'
        for n in range(20)
    )
    return f"<ul>{links}</ul>"


FEED = Source(type=Source.Type.FEED, url="https://blog.example/feed.xml")
SEARCH = Source(type=Source.Type.SEARCH, url="")
KHAN = Source(type=Source.Type.FEED, url="https://www.khan.co.kr/rss/total.xml", priority=6)


def parts(reasons: list[dict]) -> list[tuple[str, int]]:
    return [(p["part"], p["points"]) for p in reasons]


ALLOW = {"SOURCE_REPUTATION_ALLOW": ["lwn.net"], "SOURCE_REPUTATION_DENY": ["spam.example"]}

CASES = [
    pytest.param(
        {"url": "https://blog.example/vacuum", "content_html": long_article()},
        FEED,
        "active",
        (50, [("base", 40), ("channel", 10)]),
        (100, [("base", 30), ("length", 45), ("structure", 25)]),
        id="long structured article",
    ),
    pytest.param(
        {"url": "https://blog.example/links", "content_html": link_list()},
        FEED,
        "active",
        (50, [("base", 40), ("channel", 10)]),
        (19, [("base", 30), ("length", 20), ("structure", 4), ("listing_page", -35)]),
        id="link-list page",
    ),
    pytest.param(
        {"url": "https://blog.example/teaser", "description": "Our launch, in one line."},
        FEED,
        "active",
        (50, [("base", 40), ("channel", 10)]),
        (33, [("base", 30), ("length", 3)]),
        id="one-line teaser",
    ),
    pytest.param(
        {"url": "https://blog.example/vacuum-copy", "content_html": long_article()},
        FEED,
        "filtered",
        (50, [("base", 40), ("channel", 10)]),
        (70, [("base", 30), ("length", 45), ("structure", 25), ("near_duplicate", -30)]),
        id="near-duplicate",
    ),
    pytest.param(
        {"url": "https://www.lwn.net/Articles/1/", "description": "Kernel news."},
        FEED,
        "active",
        (70, [("base", 40), ("source_reputation", 20), ("channel", 10)]),
        (33, [("base", 30), ("length", 3)]),
        id="allow-listed domain",
    ),
    pytest.param(
        {"url": "https://cheap.spam.example/win", "description": "You won."},
        FEED,
        "active",
        (10, [("base", 40), ("source_reputation", -40), ("channel", 10)]),
        (33, [("base", 30), ("length", 3)]),
        id="deny-listed domain",
    ),
    pytest.param(
        {"url": "https://www.khan.co.kr/article/1", "description": "짧은 기사."},
        KHAN,
        "active",
        (56, [("base", 40), ("source_priority", 6), ("channel", 10)]),
        (33, [("base", 30), ("length", 3)]),
        id="preferred source",
    ),
    pytest.param(
        {"url": "https://found.example/a", "description": "A search hit."},
        SEARCH,
        "active",
        (40, [("base", 40), ("channel", 0)]),
        (33, [("base", 30), ("length", 3)]),
        id="search result",
    ),
]


@override_settings(**ALLOW)
@pytest.mark.parametrize(("item", "source", "status", "impact", "quality"), CASES)
def test_scores_and_their_parts(item, source, status, impact, quality):
    fields = {"title": "A title", "description": "", "content_html": ""} | item
    scores = score_item(source=source, status=status, **fields)
    assert (scores.impact, parts(scores.reasons["impact"])) == impact
    assert (scores.quality, parts(scores.reasons["quality"])) == quality


@override_settings(**ALLOW)
def test_each_part_says_why_in_words():
    scores = score_item(
        url="https://lwn.net/Articles/2/",
        title="",
        description="",
        content_html=long_article(),
        source=FEED,
        status="filtered",
    )
    why = {p["part"]: p["why"] for p in scores.reasons["impact"] + scores.reasons["quality"]}
    assert why["source_reputation"] == "well-regarded lwn.net"
    assert why["channel"] == "a publisher's own feed"
    assert why["length"] == "long article (1154 words)"
    assert why["structure"] == "headings, code, quotes, lists"
    assert why["no_title"] == "no title"
    assert why["near_duplicate"] == "a duplicate of another item"
    assert scores.reasons["strengths"] == "well-regarded lwn.net, long article"


@override_settings(SOURCE_REPUTATION_ALLOW=["example.org"], SOURCE_REPUTATION_DENY=["example.org"])
def test_a_domain_on_both_lists_counts_as_denied():
    scores = score_item(
        url="https://example.org/a", title="t", description="", content_html="", source=FEED
    )
    assert ("source_reputation", -40) in parts(scores.reasons["impact"])


def test_a_listing_page_is_penalised_but_an_article_with_a_few_links_is_not():
    article = long_article() + "".join(f'<a href="https://x.example/{n}">x</a>' for n in range(8))
    scores = score_item(
        url="https://blog.example/a", title="t", description="", content_html=article, source=FEED
    )
    assert "listing_page" not in dict(parts(scores.reasons["quality"]))


def test_freshness_is_added_when_a_run_scores_the_item(now):
    fresh, old = now - timedelta(hours=1), now - timedelta(days=3)
    assert impact_at(50, fresh, now) == 74
    assert impact_at(50, old, now) == 38
    assert freshness_part(fresh, now).points == 49
    assert freshness_part(old, now).why == "3 days old"
    assert freshness_part(old, now).points == 12
    assert impact_at(50, now + timedelta(hours=2), now) == 75  # a future date is not fresher


@override_settings(**ALLOW)
def test_the_same_input_gives_the_same_scores():
    fields = {
        "url": "https://lwn.net/Articles/3/",
        "title": "Vacuum",
        "description": "",
        "content_html": long_article(),
        "source": KHAN,
    }
    first, second = score_item(**fields), score_item(**fields)
    assert first == second
    assert json.dumps(first.reasons, sort_keys=True) == json.dumps(second.reasons, sort_keys=True)


def entry(url: str, title: str, **fields) -> ParsedEntry:
    values = {"description": "", "content_html": "", "author": "", "published_at": None}
    return ParsedEntry(url=url, entry_id=url, title=title, **(values | fields))


@override_settings(**ALLOW)
def test_new_pool_items_store_their_scores_and_reasons(db, now):
    source = Source.objects.create(
        type=Source.Type.FEED, url="https://lwn.net/headlines/rss", config_hash="lwn"
    )
    upsert_entries(
        source,
        [entry("https://lwn.net/Articles/4/", "Vacuum", content_html=long_article())],
        now=now,
    )
    item = ContentItem.objects.get()
    assert (item.score_impact, item.score_quality) == (70, 100)
    assert parts(item.score_reasons["impact"]) == [
        ("base", 40),
        ("source_reputation", 20),
        ("channel", 10),
    ]
    assert item.score_reasons["strengths"] == "well-regarded lwn.net, long article"


def test_full_text_arriving_later_raises_quality_and_keeps_impact(db, now):
    source = Source.objects.create(
        type=Source.Type.FEED, url="https://blog.example/feed.xml", config_hash="blog"
    )
    teaser = entry("https://blog.example/vacuum", "Vacuum", description="Why tables grow.")
    upsert_entries(source, [teaser], now=now)
    item = ContentItem.objects.get()
    assert item.score_quality == 33
    rescore_with_full_text(item, PARAGRAPH * 20)
    item.refresh_from_db()
    assert item.score_quality == 65  # 30 + 35 for a full article (520 words)
    assert item.score_impact == 50
    assert parts(item.score_reasons["impact"]) == [("base", 40), ("channel", 10)]
    assert item.enrichments.get(prompt_version="reading-1").reading_level


def test_dedup_settling_a_status_adds_or_drops_the_duplicate_penalty(
    db, now, django_assert_num_queries
):
    source = Source.objects.create(
        type=Source.Type.FEED, url="https://blog.example/feed.xml", config_hash="blog"
    )
    upsert_entries(
        source, [entry("https://blog.example/v", "Vacuum", content_html=long_article())], now=now
    )
    item = ContentItem.objects.get()
    ContentItem.objects.filter(pk=item.pk).update(status="filtered")
    with django_assert_num_queries(2):
        assert sync_duplicate_penalty([item.pk]) == 1
    item.refresh_from_db()
    assert item.score_quality == 70
    assert ("near_duplicate", -30) in parts(item.score_reasons["quality"])
    assert sync_duplicate_penalty([item.pk]) == 0  # settled twice: no change
    ContentItem.objects.filter(pk=item.pk).update(status="active")
    sync_duplicate_penalty([item.pk])
    item.refresh_from_db()
    assert item.score_quality == 100
    assert "near_duplicate" not in dict(parts(item.score_reasons["quality"]))


@override_settings(**ALLOW)
def test_why_selected_names_the_strongest_parts_in_words(alice, db, now):
    source = Source.objects.create(
        type=Source.Type.FEED, url="https://lwn.net/headlines/rss", config_hash="lwn"
    )
    upsert_entries(
        source,
        [
            entry(
                "https://lwn.net/Articles/5/",
                "PostgreSQL vacuum in depth",
                content_html=long_article(),
                published_at=now - timedelta(hours=2),
            )
        ],
        now=now,
    )
    subscription = create_subscription(
        alice, {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    run = runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)
    reason = run.items.get().reason
    assert "matches PostgreSQL in the title" in reason
    assert "stands out for: well-regarded lwn.net, long article" in reason
