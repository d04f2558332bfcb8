"""The in-app reader: an Inbox item's text in a clean page — the source's HTML when it holds the
article, else the extracted full text — with images only over https, no referrer, the source,
reading time and why it was picked; opening it marks it read; another reader's item is 404."""

from __future__ import annotations

import pytest
from django.urls import reverse

from digests.models import RunItem
from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from inbox.models import UserContentState
from inbox.reading import display_html, reading_minutes
from ingest.pool.bodies import store_body
from tests.factories import add_item

ARTICLE = "<p>" + "Autovacuum keeps tables healthy. " * 40 + "</p>"
CHART = '<img src="https://cdn.example/a.png" alt="chart">'


def delivered(user, now, **fields) -> RunItem:
    item = add_item("PostgreSQL autovacuum in depth", now=now, description="About autovacuum.")
    for name, value in fields.items():
        setattr(item, name, value)
    item.save()
    subscription = create_subscription(
        user, {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    run = runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)
    return run.items.get()


@pytest.fixture
def reader(client, alice):
    client.force_login(alice)
    return client


def test_the_reader_shows_the_article_marks_it_read_and_links_the_source(reader, alice, now):
    run_item = delivered(
        alice,
        now,
        content_html=ARTICLE + '<img src="http://tracker.example/p.gif">' + CHART,
    )
    page = reader.get(reverse("inbox:item_read", args=[run_item.pk])).content.decode()
    assert "Autovacuum keeps tables healthy." in page
    assert "PostgreSQL autovacuum in depth" in page
    assert run_item.reason in page  # why it was picked
    assert "min read" in page
    assert f'href="{run_item.url}"' in page and "data-open" in page
    assert "http://tracker.example" not in page
    assert 'src="https://cdn.example/a.png"' in page and 'referrerpolicy="no-referrer"' in page
    state = UserContentState.objects.get(user=alice, canonical_url_hash=run_item.canonical_url_hash)
    assert state.read_at is not None


def test_a_teaser_feed_item_reads_from_the_extracted_full_text(reader, alice, now):
    run_item = delivered(alice, now, content_html="<p>Read more…</p>")
    store_body(run_item.item, "First paragraph of the article.\n\nSecond <b>paragraph</b>.")
    run_item.item.save()
    page = reader.get(reverse("inbox:item_read", args=[run_item.pk])).content.decode()
    assert "<p>First paragraph of the article.</p>" in page
    assert "<p>Second &lt;b&gt;paragraph&lt;/b&gt;.</p>" in page  # text stays text
    assert "Read more…" not in page


def test_another_readers_item_is_not_found_and_changes_nothing(client, alice, bob, now):
    run_item = delivered(alice, now, content_html=ARTICLE)
    client.force_login(bob)
    assert client.get(reverse("inbox:item_read", args=[run_item.pk])).status_code == 404
    assert not UserContentState.objects.filter(read_at__isnull=False).exists()


def test_the_inbox_links_each_item_to_the_reader_with_an_absolute_time_beside_the_relative(
    reader, alice, now
):
    run_item = delivered(alice, now, content_html=ARTICLE)
    page = reader.get(reverse("inbox:index")).content.decode()
    assert f'href="{reverse("inbox:item_read", args=[run_item.pk])}" data-read' in page
    assert '<time datetime="' in page and " ago</span>" in page


def test_display_html_keeps_text_and_safe_links_only():
    html = display_html(
        '<p onclick="x()">Hi <a href="javascript:alert(1)">x</a> <a href="https://a.example/">y</a></p>'
    )
    assert "onclick" not in html and "javascript:" not in html
    assert 'href="https://a.example/"' in html and 'rel="noopener noreferrer nofollow"' in html


@pytest.mark.parametrize(
    ("text", "minutes"),
    [("word " * 230, 1), ("word " * 231, 2), ("字" * 1500, 3), ("", 1)],
)
def test_reading_time_counts_words_and_cjk_characters(text, minutes):
    assert reading_minutes(text) == minutes
