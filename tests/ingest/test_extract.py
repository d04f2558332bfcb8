"""Main-content extraction (ingest/text/extract.py) and the full-text service
(ingest/pool/full_text.py)."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from pathlib import Path

import lxml.html
import pytest
from django.test import override_settings

from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from ingest.canonical import url_hash
from ingest.fetching import fetch
from ingest.library.sources import add_to_library
from ingest.models import ContentItem, ContentItemSource, Source
from ingest.pool import full_text
from ingest.pool.full_text import ensure_full_text
from ingest.text import extract
from ingest.text.extract import ExtractionError, extract_main_content, normalize_text

PAGES = Path(__file__).parent / "testdata" / "extraction"
ARTICLE_URL = "https://blog.example.org/posts/autovacuum"


def page(name: str) -> bytes:
    return (PAGES / name).read_bytes()


# --- extract_main_content ---------------------------------------------------------------------


def test_it_keeps_the_article_and_drops_navigation_teasers_and_footer():
    extracted = extract_main_content(page("article.html"), url=ARTICLE_URL)

    assert "Autovacuum keeps PostgreSQL tables healthy" in extracted.text
    assert "anti-wraparound vacuums cannot be skipped" in extracted.text
    assert "ALTER TABLE events SET" in extracted.text
    for boilerplate in (
        "Subscribe to the newsletter",
        "Read more",
        "How table bloat happens",
        "Five index mistakes",
        "All rights reserved",
        "Share this",
        "window.analytics",
    ):
        assert boilerplate not in extracted.text
    assert extracted.lead.startswith("Autovacuum keeps PostgreSQL tables healthy")


def test_it_reads_the_title_language_site_and_a_same_site_canonical_address():
    extracted = extract_main_content(page("article.html"), url=ARTICLE_URL + "?from=feed")

    assert extracted.title == "Tuning autovacuum for large tables"
    assert extracted.language == "en-gb"
    assert extracted.site_name == "The Query Planner"
    # Relative, with tracking parameters: made absolute and canonical.
    assert extracted.canonical_url == ARTICLE_URL


def test_a_line_that_is_only_a_date_is_not_part_of_the_text():
    paragraphs = "".join(
        f"<p>Paragraph {n} tells how the council voted on the new tram line and why.</p>"
        for n in range(6)
    )
    html = f"<html><body><article><p>27.01.2022</p>{paragraphs}</article></body></html>"

    extracted = extract_main_content(html, url="https://news.example/tram")

    assert "27.01.2022" not in extracted.text
    assert "Paragraph 5 tells how the council voted" in extracted.text


def test_a_canonical_address_on_another_site_is_ignored():
    extracted = extract_main_content(
        page("foreign_canonical.html"), url="https://copycat.example.net/story"
    )

    assert extracted.canonical_url == ""
    assert "claims that its canonical address" in extracted.text


@pytest.mark.parametrize(
    ("page_url", "canonical", "same"),
    [
        ("https://www.example.co.uk/a", "https://news.example.co.uk/a", True),
        ("https://alice.github.io/post", "https://bob.github.io/post", False),
        ("https://example.com/a", "https://example.com.evil.example/a", False),
    ],
)
def test_same_site_means_the_same_registrable_domain(page_url, canonical, same):
    assert extract.same_site(page_url, canonical) is same


def test_it_decodes_a_page_by_its_declared_charset():
    extracted = extract_main_content(page("latin1.html"), url="https://koeln.example.de/gruesse")

    assert extracted.title == "Grüße aus Köln"
    assert "Über den Dächern der Altstadt" in extracted.text
    assert extracted.language == "de"
    assert "Startseite" not in extracted.text


def test_a_page_without_main_text_is_refused():
    with pytest.raises(ExtractionError) as refused:
        extract_main_content(page("no_article.html"), url="https://menu.example/")
    assert "No readable main text" in refused.value.message


def test_extraction_never_fetches_anything(monkeypatch):
    def no_fetching(*args, **kwargs):
        raise AssertionError("extraction tried to fetch")

    monkeypatch.setattr(fetch, "fetch", no_fetching)
    import trafilatura.downloads

    monkeypatch.setattr(trafilatura.downloads, "fetch_url", no_fetching)
    monkeypatch.setattr(trafilatura.downloads, "fetch_response", no_fetching)

    extracted = extract_main_content(page("article.html"), url=ARTICLE_URL)
    assert extracted.text


def test_an_xhtml_page_that_declares_its_encoding_is_read():
    xhtml = b'<?xml version="1.0" encoding="utf-8"?>\n' + page("article.html").split(b"\n", 1)[1]

    extracted = extract_main_content(xhtml, url=ARTICLE_URL)

    assert extracted.title == "Tuning autovacuum for large tables"
    assert "Autovacuum keeps PostgreSQL tables healthy" in extracted.text


def article_page(*blocks: str) -> str:
    """A page with a navigation bar and an article: the given blocks, then enough of a story
    around them that the extractor takes the article for the main content."""
    story = "".join(
        f"<p>Paragraph {n} tells how the council voted on the new tram line and why.</p>"
        for n in range(6)
    )
    return (
        "<html><head><title>Tram line</title></head><body>"
        '<nav><a href="/">Home</a> <a href="/news">News</a></nav>'
        f"<article><h1>Tram line</h1>{story[:240]}{''.join(blocks)}{story[240:]}</article>"
        "</body></html>"
    )


def test_a_paragraph_wrapped_in_the_source_stays_one_line_with_its_links():
    extracted = extract_main_content(
        article_page(
            "<p>In January the city\n"
            '    <a href="/tag/strava">Strava</a>\n'
            "    rolled out an update to the route planner that changes every map.</p>"
        ),
        url="https://news.example/tram",
    )

    assert (
        "In January the city Strava rolled out an update to the route planner that changes "
        "every map." in extracted.text.splitlines()
    )


def test_a_link_that_spells_out_its_address_is_text_but_a_teaser_link_is_not():
    text = extract.clean_text(
        "<div>"
        '<p>Contact: <a href="mailto:desk@tram.example">desk@tram.example</a></p>'
        '<p><a href="https://tram.example/plan.pdf">https://tram.example/plan.pdf</a></p>'
        '<p>Read more: <a href="/other">Why the bus lanes moved</a></p>'
        '<p>Follow us on <a href="https://social.example/tram">Facebook and Instagram</a></p>'
        "</div>"
    )

    assert text.splitlines() == ["Contact: desk@tram.example", "https://tram.example/plan.pdf"]


def test_an_address_in_the_article_survives_extraction():
    extracted = extract_main_content(
        article_page('<p>Contact: <a href="mailto:desk@tram.example">desk@tram.example</a></p>'),
        url="https://news.example/tram",
    )

    assert "Contact: desk@tram.example" in extracted.text.splitlines()


def test_captions_picture_credits_and_advertising_labels_are_not_text():
    text = extract.clean_text(
        "<div>"
        "<p>The council voted for the tram line on Tuesday.</p>"
        '<div class="wp-caption"><p class="wp-caption-text">The depot at night</p></div>'
        "<figure><figcaption>Drivers at the depot</figcaption></figure>"
        "<p>© Oli Scarff/Getty Images</p>"
        "<p>Foto: Max Muster</p>"
        "<p>Quelle: Stadtwerke</p>"
        "<p>Anzeige – Heute mal ausgehen? Wie wäre es mit:</p>"
        "<p>*Werbung. Dieser Beitrag enthält Werbung für Tramtickets.</p>"
        "<p>Werbung ist für viele Verkehrsbetriebe eine wichtige Einnahme.</p>"
        "<p>Photos of the depot were shown at the meeting.</p>"
        "</div>"
    )

    assert text.splitlines() == [
        "The council voted for the tram line on Tuesday.",
        "Werbung ist für viele Verkehrsbetriebe eine wichtige Einnahme.",
        "Photos of the depot were shown at the meeting.",
    ]


def test_a_container_named_after_captions_is_not_a_caption():
    paragraphs = "".join(
        f"<p>Paragraph {n} of the story about the tram line.</p>" for n in range(12)
    )

    text = extract.clean_text(f'<div class="article has-captions">{paragraphs}</div>')

    assert len(text.splitlines()) == 12


def test_preformatted_text_keeps_its_line_breaks_and_a_quoted_paragraph_is_one_line():
    text = extract.clean_text(
        "<div><p>Set it per table:</p>"
        "<pre>ALTER TABLE events\n  SET (autovacuum_vacuum_scale_factor = 0.01);</pre>"
        # What trafilatura makes of a <pre> without <code>:
        "<blockquote>VACUUM (VERBOSE)\n  events;</blockquote>"
        '<blockquote><p>As the\n  <a href="/docs">manual</a>\n  says, it depends.</p></blockquote>'
        "</div>"
    )

    assert text.splitlines() == [
        "Set it per table:",
        "ALTER TABLE events",
        "SET (autovacuum_vacuum_scale_factor = 0.01);",
        "VACUUM (VERBOSE)",
        "events;",
        "As the manual says, it depends.",
    ]


def test_a_parser_failure_is_an_extraction_error(monkeypatch):
    def choking(*args, **kwargs):
        raise RuntimeError("parser bug")

    monkeypatch.setattr(extract.trafilatura, "extract", choking)

    with pytest.raises(ExtractionError) as refused:
        extract_main_content(page("article.html"), url=ARTICLE_URL)
    assert refused.value.message == "The page could not be read."


def test_a_crawled_page_without_main_text_keeps_the_crawler_s_own_content():
    from ingest.crawl import service as crawl

    html = page("no_article.html").decode()
    url = "https://menu.example/"

    entry = crawl.detail_entry(
        lxml.html.document_fromstring(html),
        html,
        "<div><p>What the crawler found</p></div>",
        "What the crawler found",
        page_url=url,
        requested=url,
        site=crawl.site_key(url),
    )

    assert "What the crawler found" in entry.content_html
    assert entry.description == "What the crawler found"


def test_normalized_text_has_no_invisible_characters_and_one_paragraph_per_line():
    text = "  Soft\u00adhyphen\x00ated  words \u200b\n\n\n second   line \r\n"

    assert normalize_text(text) == "Softhyphenated words\nsecond line"


# --- ensure_full_text ---------------------------------------------------------------------------


def pool_item(url: str, now, **fields) -> ContentItem:
    return ContentItem.objects.create(
        canonical_url=url,
        canonical_url_hash=url_hash(url),
        title=fields.pop("title", "Tuning autovacuum"),
        first_seen_at=now,
        last_seen_at=now,
        **fields,
    )


@pytest.fixture
def placed(monkeypatch):
    """Records every call of the near-duplicate hook (ingest/pool/neardup.py, written elsewhere)."""
    calls = []
    monkeypatch.setattr(
        full_text.neardup, "place", lambda item, text: calls.append((item.pk, text))
    )
    return calls


@pytest.fixture
def rescored(monkeypatch):
    """Records every quality rescore, and still does it."""
    calls = []
    real = full_text.rescore_with_full_text

    def record(item, text):
        calls.append((item.pk, text))
        real(item, text)

    monkeypatch.setattr(full_text, "rescore_with_full_text", record)
    return calls


def test_it_fetches_extracts_and_stores_the_text_with_its_hash(
    fixture_server, now, placed, rescored, db
):
    item = pool_item(fixture_server.add("/autovacuum", page("article.html")), now)

    counts = ensure_full_text([item.pk], now=now)

    item.refresh_from_db()
    assert counts.extracted == 1
    assert "Lower the scale factor per table" in item.full_text
    assert item.content_hash == hashlib.sha256(item.full_text.encode()).hexdigest()
    assert item.full_text_at == now
    assert item.extraction_error == ""
    assert item.language == "en-gb"
    assert placed == [(item.pk, item.full_text)]
    assert rescored == [(item.pk, item.full_text)]
    assert item.score_reasons["quality"]  # quality parts recomputed from the body


def test_items_with_full_text_are_not_fetched_again(fixture_server, now, placed, db):
    item = pool_item(fixture_server.add("/autovacuum", page("article.html")), now)
    ensure_full_text([item.pk], now=now)

    counts = ensure_full_text([item.pk], now=now + timedelta(days=3))

    assert counts.skipped == 1
    assert len(fixture_server.requests) == 1


def test_a_failure_is_recorded_not_raised_and_retried_a_day_later(fixture_server, now, placed, db):
    item = pool_item(fixture_server.add("/gone", b"", status=404), now)

    counts = ensure_full_text([item.pk], now=now)

    item.refresh_from_db()
    assert counts.failed == 1
    assert "404" in item.extraction_error
    assert item.full_text == "" and item.content_hash == ""
    assert ensure_full_text([item.pk], now=now + timedelta(hours=2)).skipped == 1
    fixture_server.add("/gone", page("article.html"))
    assert ensure_full_text([item.pk], now=now + timedelta(days=1)).extracted == 1
    item.refresh_from_db()
    assert item.extraction_error == ""


def test_refetching_the_same_text_only_moves_the_extraction_time(fixture_server, now, placed, db):
    item = pool_item(fixture_server.add("/autovacuum", page("article.html")), now)
    ensure_full_text([item.pk], now=now)
    ContentItem.objects.filter(pk=item.pk).update(extraction_error="timeout")  # a failed retry

    later = now + timedelta(days=2)
    counts = ensure_full_text([item.pk], now=later)

    item.refresh_from_db()
    assert counts.unchanged == 1
    assert item.full_text_at == later and item.extraction_error == ""
    assert len(placed) == 1  # nothing new to place


def test_a_page_over_the_cap_keeps_nothing(fixture_server, now, placed, monkeypatch, db):
    monkeypatch.setattr(fetch, "PAGE_MAX_BYTES", 4096)
    item = pool_item(
        fixture_server.add("/huge", b"<html><body>" + b"<p>word</p>" * 2000 + b"</body></html>"),
        now,
        full_text="an older text",
        content_hash="0" * 64,
    )

    counts = ensure_full_text([item.pk], now=now)

    item.refresh_from_db()
    assert counts.too_large == 1
    assert item.content_too_large is True
    assert (item.full_text, item.full_text_key, item.content_hash) == ("", "", "")
    assert ensure_full_text([item.pk], now=now + timedelta(days=9)).skipped == 1


def test_a_document_that_is_not_html_is_an_error(fixture_server, now, placed, db):
    url = fixture_server.add("/paper.pdf", b"%PDF-1.7", Content_Type="application/pdf")
    item = pool_item(url, now)

    ensure_full_text([item.pk], now=now)

    item.refresh_from_db()
    assert "application/pdf" in item.extraction_error


def test_failures_cost_the_same_queries_however_many(
    fixture_server, now, placed, db, django_assert_num_queries
):
    def items(count, prefix):
        url = fixture_server.add(f"/{prefix}", b"", status=500)
        return [pool_item(f"{url}?n={n}", now).pk for n in range(count)]

    few, many = items(1, "few"), items(6, "many")
    with django_assert_num_queries(2):  # read the items, mark the failures
        ensure_full_text(few, now=now)
    with django_assert_num_queries(2):
        ensure_full_text(many, now=now)


def test_the_background_task_extracts_and_reports_counts(fixture_server, now, placed, db):
    from ingest.tasks import extract_full_text

    item = pool_item(fixture_server.add("/autovacuum", page("article.html")), now)

    assert extract_full_text([item.pk])["extracted"] == 1
    assert extract_full_text([item.pk])["skipped"] == 1  # delivered twice: harmless


# --- in a run: the top K only, never failing the run ---------------------------------------------


def feed_with_items(user, now, urls: list[str]) -> Source:
    source = Source.objects.create(
        type="feed", url="https://feed.example/rss", config={}, config_hash="f" * 64
    )
    add_to_library(user, source)
    for n, url in enumerate(urls):
        item = pool_item(url, now, title=f"PostgreSQL note {n}")
        ContentItemSource.objects.create(item=item, source=source, first_seen_at=now)
    return source


def run_subscription(user, source, now):
    subscription = create_subscription(
        user,
        {
            "name": "Postgres",
            "interests": ["PostgreSQL"],
            "cron": "0 8 * * *",
            "source_ids": [source.pk],
        },
        now=now,
    )
    return runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)


@override_settings(FULLTEXT_TOP_K=2)
def test_a_run_extracts_the_full_text_of_its_top_candidates_only(
    fixture_server, alice, now, placed
):
    urls = [fixture_server.add(f"/post-{n}", page("article.html")) for n in range(4)]
    source = feed_with_items(alice, now, urls)

    run = run_subscription(alice, source, now)

    assert run.status == "succeeded"
    assert ContentItem.objects.exclude(full_text="").count() == 2
    assert len(fixture_server.requests) == 2
    assert run.billing_breakdown["operations"]["page_fetch"] == 2
    assert run.billing_breakdown["operations"]["extract"] == 2


def test_a_run_still_succeeds_when_extraction_breaks(alice, now, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("extractor bug")

    monkeypatch.setattr(full_text, "ensure_full_text", broken)
    source = feed_with_items(alice, now, ["https://news.example/a"])

    run = run_subscription(alice, source, now)

    assert run.status == "succeeded"
    assert run.delivered_count == 1
