"""Article fields of seed 003 §3.1 on pool items — section, tags, license tier — the
subscription filter by section, and restricted items kept off every public surface."""

from __future__ import annotations

import json

import pytest
from defusedxml import ElementTree as ET

from digests.runs import runner
from digests.subscriptions.service import (
    SubscriptionInputError,
    create_subscription,
    request_manual_run,
)
from ingest.admin import SourceAdmin
from ingest.feeds.parse import parse_feed
from ingest.library.sources import add_to_library
from ingest.models import ContentItem, Source, config_hash
from ingest.pool import licenses
from ingest.pool.entries import ParsedEntry
from ingest.pool.upsert import upsert_entries
from ingest.text.sections import clean_sections, section_of
from tests.factories import add_item
from tests.topics.test_services import published
from topics import editions
from topics.models import EditionItem

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("categories", "url", "section"),
    [
        (["정치"], "https://www.khan.co.kr/article/1", "정치"),
        (["Politics"], "https://news.example/a", "정치"),
        (["뉴스 > 경제"], "https://news.example/a", "경제"),
        (["속보", "국제"], "https://news.example/a", "국제"),  # the first category naming one
        ([], "https://www.donga.com/news/Economy/article/all/20261120/1", "경제"),
        ([], "https://www.mk.co.kr/news/sports/11234", "스포츠"),
        ([], "https://www.khan.co.kr/culture/book/article/202611201", "문화"),
        ([], "https://www.hankyung.com/article/real-estate/1", "경제"),
        ([], "https://it.donga.com/110234/", "IT"),
        ([], "https://www.donga.com/news/Opinion/article/all/1", "오피니언"),
        ([], "https://blog.example/2026/what-it-means-for-you", ""),  # a slug is not a section
        (["Release notes"], "https://www.voakorea.com/a/7891.html", ""),
    ],
)
def test_a_section_comes_from_the_category_else_the_address_else_the_site(categories, url, section):
    assert section_of(categories=categories, url=url) == section


def test_sections_are_refused_by_name_and_kept_in_the_listed_order():
    assert clean_sections(["IT", "경제", "경제"]) == ["경제", "IT"]
    assert clean_sections("") == []
    with pytest.raises(ValueError, match="Unknown section 'Economy'"):
        clean_sections(["Economy"])
    with pytest.raises(ValueError, match="Must be a list of sections"):
        clean_sections([3])


RSS = """<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>경향신문</title>
<item><title>예산안 처리</title><link>https://www.khan.co.kr/article/202611200001</link>
<category>정치</category><category>국회</category><category>정치</category>
<description>국회가 예산안을 처리했다.</description></item>
<item><title>환율 급등</title><link>https://www.khan.co.kr/economy/article/202611200002</link>
<description>환율이 올랐다.</description></item>
</channel></rss>"""


def feed(url="https://www.khan.co.kr/rss/rssdata/total_news.xml", **fields) -> Source:
    return Source.objects.create(
        type="feed",
        config={"url": url},
        config_hash=config_hash("feed", {"url": url}),
        url=url,
        **fields,
    )


def test_feed_items_carry_their_section_and_tags(now):
    parsed = parse_feed(RSS.encode())
    assert parsed.entries[0].categories[:2] == ["정치", "국회"]
    upsert_entries(feed(), parsed.entries, now=now)

    budget = ContentItem.objects.get(title="예산안 처리")
    assert (budget.section, budget.tags) == ("정치", ["정치", "국회"])
    rate = ContentItem.objects.get(title="환율 급등")
    assert (rate.section, rate.tags) == ("경제", [])  # from the address


def test_a_reader_that_cannot_tell_the_section_never_erases_it(now):
    source = feed()
    upsert_entries(source, parse_feed(RSS.encode()).entries, now=now)
    other = feed("https://aggregator.example/rss")
    entry = ParsedEntry(
        url="https://www.khan.co.kr/article/202611200001",
        entry_id="x",
        title="예산안 처리",
        description="국회가 예산안을 처리했다.",
        content_html="",
        author="",
        published_at=None,
    )
    upsert_entries(other, [entry], now=now)
    budget = ContentItem.objects.get(title="예산안 처리")
    assert (budget.section, budget.tags) == ("정치", ["정치", "국회"])


# --- license tiers ---------------------------------------------------------------------------


def _entry(url):
    return ParsedEntry(
        url=url,
        entry_id=url,
        title="기사",
        description="",
        content_html="",
        author="",
        published_at=None,
    )


def test_an_item_takes_the_strictest_tier_of_its_sources(now):
    open_source = feed("https://open.example/rss", license_tier="internal_ok")
    strict = feed("https://strict.example/rss", license_tier="restricted")
    unknown = feed("https://unknown.example/rss")
    upsert_entries(open_source, [_entry("https://news.example/1")], now=now)
    item = ContentItem.objects.get()
    assert item.license_tier == "internal_ok"

    upsert_entries(unknown, [_entry("https://news.example/1")], now=now)
    item.refresh_from_db()
    assert item.license_tier == "unknown"
    upsert_entries(strict, [_entry("https://news.example/1")], now=now)
    item.refresh_from_db()
    assert item.license_tier == "restricted"
    upsert_entries(open_source, [_entry("https://news.example/1")], now=now)  # never lowered
    item.refresh_from_db()
    assert item.license_tier == "restricted"


def test_an_admin_changing_a_sources_tier_moves_its_items(now, admin_user, rf):
    strict = feed("https://strict.example/rss")
    other = feed("https://other.example/rss", license_tier="internal_ok")
    upsert_entries(
        strict, [_entry("https://news.example/1"), _entry("https://news.example/2")], now=now
    )
    upsert_entries(other, [_entry("https://news.example/2")], now=now)

    strict.license_tier = "restricted"
    form = type("Form", (), {"changed_data": ["license_tier"]})()
    SourceAdmin(Source, admin_site=None).save_model(rf.post("/"), strict, form, change=True)
    tiers = dict(ContentItem.objects.values_list("canonical_url", "license_tier"))
    assert tiers == {"https://news.example/1": "restricted", "https://news.example/2": "restricted"}

    strict.license_tier = "internal_ok"
    SourceAdmin(Source, admin_site=None).save_model(rf.post("/"), strict, form, change=True)
    assert set(ContentItem.objects.values_list("license_tier", flat=True)) == {"internal_ok"}


def test_the_source_admin_lists_and_edits_license_tiers(admin_client):
    source = feed()
    page = admin_client.get(f"/admin/ingest/source/{source.pk}/change/").content.decode()
    assert 'name="license_tier"' in page
    assert "Restricted (private briefs only, never public)" in page


# --- subscriptions filter by section ----------------------------------------------------------


def test_a_run_keeps_only_the_chosen_sections(alice, now):
    source = feed()
    add_to_library(alice, source)
    upsert_entries(source, parse_feed(RSS.encode()).entries, now=now)
    ContentItem.objects.update(published_at=now)
    subscription = create_subscription(
        alice,
        {
            "name": "경제만",
            "interests": ["예산안", "환율"],
            "cron": "0 8 * * *",
            "source_ids": [source.pk],
            "sections": ["경제"],
            "min_score": 0,
        },
        now=now,
    )
    assert subscription.sections == ["경제"]
    run = runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)
    assert list(run.items.values_list("title", flat=True)) == ["환율 급등"]


def test_a_bad_section_is_refused_naming_the_field(alice, now):
    with pytest.raises(SubscriptionInputError) as refused:
        create_subscription(
            alice,
            {"name": "x", "interests": ["a"], "cron": "0 8 * * *", "sections": ["sports"]},
            now=now,
        )
    assert "Unknown section 'sports'" in refused.value.errors["sections"]


def test_the_api_takes_sections_strictly(api, alice):
    body = {"name": "경제", "interests": ["환율"], "cron": "0 8 * * *", "sections": ["경제", "IT"]}
    created = api.post("/api/v1/subscriptions", body, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["sections"] == ["경제", "IT"]

    for bad in (["Economy"], "경제", [["경제"]], list(range(20))):
        refused = api.patch(
            f"/api/v1/subscriptions/{created.json()['id']}", {"sections": bad}, format="json"
        )
        assert refused.status_code == 400, bad
        assert "sections" in json.dumps(refused.json())
    assert api.get(f"/api/v1/subscriptions/{created.json()['id']}").json()["sections"] == [
        "경제",
        "IT",
    ]


def test_the_console_form_offers_sections(client, alice, now):
    # Offered once a library source carries sectioned items (digests/subscriptions/forms.py).
    source = feed()
    add_to_library(alice, source)
    item = add_item("경제 뉴스", now=now, source=source)
    ContentItem.objects.filter(pk=item.pk).update(section="경제")
    client.force_login(alice)
    page = client.get("/subscriptions/new/").content.decode()
    assert 'name="sections"' in page
    assert "Economy (경제)" in page


# --- restricted items never go public ---------------------------------------------------------


@pytest.fixture
def topic_with_a_restricted_item(alice, now, settings):
    settings.SITE_URL = "http://testserver.example"
    topic = published(alice, now, title="Databases Daily")
    source = topic.sources.first()
    add_item("PostgreSQL 18 released", now=now, source=source)
    add_item("PostgreSQL paywalled analysis", now=now, source=source, age_hours=3)
    editions.produce_edition(topic.pk, now=now)
    assert topic.editions.get().items.count() == 2
    return topic


def _restrict(title, capture):
    """As the admin's change of a source's tier does: the items, then the announcement once
    the transaction commits."""
    item = ContentItem.objects.get(title=title)
    item.license_tier = "restricted"
    item.save()
    with capture(execute=True):
        licenses.license_tiers_changed.send(sender=Source)


def test_a_restricted_item_never_enters_an_edition(alice, now):
    topic = published(alice, now, title="Databases Daily")
    source = topic.sources.first()
    add_item("PostgreSQL 18 released", now=now, source=source)
    secret = add_item("PostgreSQL paywalled analysis", now=now, source=source, age_hours=3)
    ContentItem.objects.filter(pk=secret.pk).update(license_tier="restricted")
    editions.produce_edition(topic.pk, now=now)
    edition = topic.editions.get()
    assert list(EditionItem.every.filter(edition=edition).values_list("title", flat=True)) == [
        "PostgreSQL 18 released"
    ]
    assert "paywalled" not in edition.narrative_md


def test_an_item_restricted_later_leaves_pages_feeds_the_api_and_narratives(
    client, topic_with_a_restricted_item, django_capture_on_commit_callbacks
):
    topic = topic_with_a_restricted_item
    edition = topic.editions.get()
    surfaces = [
        topic.get_absolute_url(),
        edition.get_absolute_url(),
        f"{topic.get_absolute_url()}/feed",
        f"/api/v1/public/topics/{topic.slug}/editions/{edition.pk}",
    ]
    for url in surfaces:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "paywalled" in response.content.decode(), url  # before: shown (cached too)

    _restrict("PostgreSQL paywalled analysis", django_capture_on_commit_callbacks)

    for url in surfaces:
        html = client.get(url).content.decode()
        assert "paywalled" not in html, url
        assert "PostgreSQL 18 released" in html, url
    edition.refresh_from_db()
    assert edition.narrative_md == ""  # it may have told of the restricted item
    assert EditionItem.every.filter(edition=edition).count() == 2  # kept for the admins


def test_an_edition_with_nothing_public_left_leaves_the_sitemap(
    client, alice, now, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "http://testserver.example"
    topic = published(alice, now, title="Databases Daily")
    add_item("PostgreSQL paywalled analysis", now=now, source=topic.sources.first())
    editions.produce_edition(topic.pk, now=now)
    edition = topic.editions.get()

    def sitemap():
        root = ET.fromstring(client.get("/sitemap.xml").content)
        ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
        return [loc.text for loc in root.findall("s:url/s:loc", ns)]

    assert any(loc.endswith(edition.get_absolute_url()) for loc in sitemap())
    _restrict("PostgreSQL paywalled analysis", django_capture_on_commit_callbacks)
    assert not any(loc.endswith(edition.get_absolute_url()) for loc in sitemap())
