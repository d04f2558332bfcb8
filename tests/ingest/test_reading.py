"""Reading levels (seed 003 §7): Korean section prior + text features, a simpler estimate for
other languages, stored once per item, and subscriptions that keep only some levels."""

from __future__ import annotations

from datetime import timedelta
from xml.sax.saxutils import escape

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from digests.runs import runner
from digests.subscriptions.forms import SubscriptionForm
from digests.subscriptions.service import (
    SubscriptionInputError,
    create_subscription,
    request_manual_run,
    update_subscription,
)
from inbox.tokens import issue_token
from ingest import tasks
from ingest.models import ContentEnrichment, ContentItem, Source
from ingest.pool import levels
from ingest.pool.full_text import rescore_with_full_text
from ingest.pool.levels import store_reading_levels
from ingest.refresh.pipeline import refresh_source
from ingest.text.reading import estimate
from tests.factories import add_item

# A short weather brief in plain polite style: short sentences, everyday words.
EASY_KO = (
    "오늘 서울에 첫눈이 내렸습니다. 아침부터 눈이 많이 왔습니다. 길이 미끄럽습니다. "
    "사람들은 천천히 걸었습니다. 아이들은 공원에서 눈사람을 만들었습니다. "
    "내일은 날씨가 맑겠습니다."
)
# A rate decision with its analysis: long sentences, connectives, figures, institutions.
DENSE_KO = (
    "한국은행 금융통화위원회는 14일 기준금리를 연 3.50%에서 3.25%로 0.25%포인트 인하했다. "
    '이창용 한국은행 총재는 기자간담회에서 "물가 상승률이 목표 수준에 근접하고 있으나 '
    '가계부채 증가세와 부동산 시장 과열 가능성을 면밀히 점검할 필요가 있다"고 밝혔다. '
    "그러나 시장에서는 미국 연방준비제도(Fed)의 통화정책 기조 변화와 원·달러 환율 변동성 "
    "확대를 고려할 때 추가 인하 시점이 예상보다 늦춰질 수 있다는 관측이 제기된다. "
    "한편 기획재정부는 올해 경제성장률 전망치를 2.2%에서 2.0%로 하향 조정했으며, 반도체 "
    "수출 회복세에도 불구하고 내수 부진이 장기화할 가능성이 높다고 평가했다. "
    "따라서 정책 당국은 재정 건전성을 유지하면서도 취약 계층에 대한 선별적 지원을 확대해야 "
    "한다는 지적이 나온다."
)
EASY_EN = (
    "The cat sat on the mat. It was a warm day. The kids played in the park. "
    "Then they went home for tea."
)
DENSE_EN = (
    "Notwithstanding considerable institutional resistance, the administration's "
    "comprehensive infrastructure legislation fundamentally restructures intergovernmental "
    "financing arrangements. Consequently, municipal authorities anticipate substantial "
    "reallocations of discretionary expenditure across overlapping jurisdictions."
)


def tags(result) -> dict[str, dict]:
    return {reason["tag"]: reason for reason in result.reasons}


def test_an_easy_korean_news_brief_is_l1():
    result = estimate(text=EASY_KO, title="서울에 첫눈", url="https://www.voakorea.com/a/1.html")
    assert result.level == "L1"
    assert result.score <= 33
    found = tags(result)
    assert found["method"]["value"] == "korean_rules"
    assert found["avg_sentence_chars"]["value"] < 25
    assert found["rare_word_share"]["value"] < 0.15
    assert "section_prior" not in found


def test_a_dense_korean_economy_analysis_is_l3_for_its_text_alone():
    result = estimate(text=DENSE_KO, title="기준금리 인하", url="https://news.example/a/1")
    assert result.level == "L3"
    assert result.score >= 67
    found = tags(result)
    assert found["long_sentence_share"]["value"] >= 0.5
    assert found["connectives_per_100_words"]["points"] > 0  # 그러나, 한편, 따라서
    assert found["names_and_numbers_share"]["points"] > 0  # 한국은행, 3.25%, 총재
    assert found["rare_word_share"]["value"] > 0.5
    assert "level_from_section" not in found


@pytest.mark.parametrize(
    ("title", "url", "section", "found_in", "level"),
    [
        ("눈", "https://www.donga.com/news/Economy/article/all/1/1", "economy", "address", "L3"),
        ("눈", "https://www.mk.co.kr/news/politics/11111111", "politics", "address", "L3"),
        ("[사설] 눈", "https://www.khan.co.kr/article/2026112000001", "사설", "title", "L3"),
        ("눈", "https://www.khan.co.kr/national/national-general/1", "national", "address", "L2"),
        ("눈", "https://it.donga.com/105012/", "IT", "site", "L2"),
        ("눈", "https://www.hankyung.com/article/2026112012345", "economic daily", "site", "L2"),
    ],
)
def test_a_section_prior_lifts_a_simple_text(title, url, section, found_in, level):
    result = estimate(text=EASY_KO, title=title, url=url)
    assert result.level == level
    assert result.score <= 33  # the text alone is L1: the level comes from the section
    prior = tags(result)["section_prior"]
    assert (prior["value"], prior["found_in"], prior["level"]) == (section, found_in, level)
    assert tags(result)["level_from_section"]["value"] == level


def test_an_easy_section_never_lowers_a_hard_text():
    result = estimate(text=DENSE_KO, title="[포토] 눈", url="https://www.mk.co.kr/news/sports/1")
    assert result.level == "L3"
    assert tags(result)["section_prior"]["level"] == "L1"


def test_other_languages_get_a_simpler_estimate_without_a_section_prior():
    easy = estimate(text=EASY_EN, url="https://www.donga.com/news/Economy/article/1")
    dense = estimate(text=DENSE_EN)
    assert (easy.level, dense.level) == ("L1", "L3")
    assert tags(easy)["method"]["value"] == "lix"
    assert tags(dense)["long_word_share"]["value"] > 0.5
    assert "section_prior" not in tags(easy)
    chinese = estimate(text="今天下雪了。孩子们在公园里玩。")
    assert chinese.level == "L1"
    assert tags(chinese)["method"]["value"] == "cjk_sentence_length"


def test_the_estimate_is_deterministic():
    assert estimate(text=DENSE_KO, title="t", url="https://x.example/economy/1") == estimate(
        text=DENSE_KO, title="t", url="https://x.example/economy/1"
    )


# --- stored at ingest, once ---------------------------------------------------------------


def korean_feed(path, count: int, start: int = 0):
    items = "".join(
        f"<item><title>뉴스 {n}</title>"
        f"<link>https://www.donga.com/news/{'Economy' if n % 2 else 'Culture'}/article/{n}</link>"
        f"<description>{escape(EASY_KO)}</description></item>"
        for n in range(start, start + count)
    )
    path.write_text(
        f'<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>동아일보'
        f"</title>{items}</channel></rss>",
        encoding="utf-8",
    )


def file_source(path, key: str) -> Source:
    return Source.objects.create(
        type=Source.Type.FEED, config={"file": str(path)}, config_hash=key, title=key
    )


def test_a_refresh_stores_items_without_rating_them(db, now, tmp_path):
    feed = tmp_path / "donga.xml"
    korean_feed(feed, 3)
    outcome = refresh_source(file_source(feed, "donga"), now=now)
    assert len(outcome.counts.new_item_ids) == 3
    assert not ContentEnrichment.objects.exists()  # the worker rates them afterwards


def test_the_refresh_task_has_its_new_items_rated_once(db, now, tmp_path):
    feed = tmp_path / "donga.xml"
    korean_feed(feed, 4)
    source = file_source(feed, "donga")
    tasks.refresh_source(source.pk)  # django-q2 runs the queued rating inline in tests
    rows = ContentEnrichment.objects.filter(prompt_version="reading-1").order_by("item__title")
    assert [(r.locale, r.generator, r.reading_level) for r in rows] == [
        ("ko", "rules", "L1"),  # Culture
        ("ko", "rules", "L3"),  # Economy
        ("ko", "rules", "L1"),
        ("ko", "rules", "L3"),
    ]
    for row in rows:
        assert row.reading_reasons[0] == {"tag": "method", "value": "korean_rules"}
        assert (row.tags, row.entities, row.summary) == ([], [], "")
        assert row.reading_score is not None
    korean_feed(feed, 5)  # one new item, four seen again
    Source.objects.filter(pk=source.pk).update(last_refresh_at=None)
    tasks.refresh_sources([source.pk])
    assert ContentEnrichment.objects.count() == 5
    assert levels.rate_items(ContentItem.objects.values_list("id", flat=True)) == 0


def test_the_sweep_rates_what_nothing_queued_and_only_recent_items(db, now, tmp_path):
    feed = tmp_path / "donga.xml"
    korean_feed(feed, 2)
    refresh_source(file_source(feed, "donga"), now=now)  # the console path queues nothing
    old = add_item("오래된 뉴스", description="뉴스", now=now - timedelta(days=5))
    assert levels.rate_recent_unrated(now=now) == 2
    assert levels.rate_recent_unrated(now=now) == 0
    assert not old.enrichments.exists()


def test_rating_new_items_costs_one_query_for_a_few_or_many(
    db, now, tmp_path, django_assert_num_queries
):
    for key, size in (("small", 2), ("large", 12)):
        feed = tmp_path / f"{key}.xml"
        korean_feed(feed, size, start=0 if key == "small" else 100)
        refresh_source(file_source(feed, key), now=now)
        items = list(ContentItem.objects.filter(sources__config_hash=key))
        ContentEnrichment.objects.filter(item__in=items).delete()
        with django_assert_num_queries(1):  # the INSERT: the text is in memory
            assert store_reading_levels(items) == size
    assert ContentEnrichment.objects.count() == 2 + 12


def test_full_text_arriving_rates_the_item_again_in_place(db, now):
    item = add_item("금리 인하", description="금리가 내렸습니다.", now=now)
    store_reading_levels([item])
    assert item.enrichments.get().reading_level == "L1"
    rescore_with_full_text(item, DENSE_KO)
    row = item.enrichments.get()
    assert (row.locale, row.reading_level) == ("ko", "L3")


def test_an_item_keeps_one_reading_level_when_extraction_learns_its_language(db, now):
    item = add_item("Rates", description="Rates went down.", now=now)
    store_reading_levels([item])
    assert item.enrichments.get().locale == "und"
    item.language = "en"  # what the extractor found
    rescore_with_full_text(item, DENSE_EN)
    row = item.enrichments.get()
    assert (row.locale, row.reading_level) == ("en", "L3")


# --- subscriptions that keep only some levels ------------------------------------------------


def subscribe(user, now, **data):
    base = {"name": "Korean news", "interests": ["뉴스"], "cron": "0 8 * * *"}
    return create_subscription(user, base | data, now=now)


@pytest.mark.parametrize(
    ("given", "kept"),
    [(["l1", "L3", "L1"], ["L1", "L3"]), ("L2, L3", ["L2", "L3"]), ([], []), ("", [])],
)
def test_reading_levels_are_cleaned(alice, now, given, kept):
    assert subscribe(alice, now, reading_levels=given).reading_levels == kept


@pytest.mark.parametrize(
    ("given", "fragment"),
    [
        (["L4"], "Unknown reading level 'L4'"),
        ([1], "Must be a list"),
        ({"L1": 1}, "Must be a list"),
    ],
)
def test_unknown_reading_levels_are_refused_naming_the_field(alice, now, given, fragment):
    subscription = subscribe(alice, now)
    with pytest.raises(SubscriptionInputError) as refused:
        update_subscription(subscription, {"reading_levels": given}, now=now)
    assert fragment in refused.value.errors["reading_levels"]
    subscription.refresh_from_db()
    assert subscription.reading_levels == []


def test_the_api_shows_and_refuses_reading_levels(alice, now):
    client = APIClient()
    _row, clear = issue_token(alice, "tests")
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {clear}")
    payload = {"name": "Korean", "interests": ["뉴스"], "cron": "0 8 * * *"}
    made = client.post("/api/v1/subscriptions", payload | {"reading_levels": ["L1"]}, format="json")
    assert made.status_code == 201
    assert made.json()["reading_levels"] == ["L1"]
    refused = client.post(
        "/api/v1/subscriptions", payload | {"reading_levels": ["L9"]}, format="json"
    )
    assert refused.status_code == 400
    assert "L9" in refused.json()["error"]["fields"]["reading_levels.0"]


def test_the_console_form_offers_reading_levels(client, alice):
    client.force_login(alice)
    page = client.get(reverse("digests:new")).content.decode()
    assert 'name="reading_levels" value="L1"' in page
    form = SubscriptionForm(
        {
            "name": "Korean",
            "interests": "뉴스",
            "timezone": "UTC",
            "length": "brief",
            "schedule_preset": "daily",
            "schedule_time": "08:00",
            "reading_levels": ["L1", "L2"],
        }
    )
    assert form.is_valid(), form.errors
    assert form.service_data()["reading_levels"] == ["L1", "L2"]


def rated(title: str, level: str, now):
    item = add_item(title, description="뉴스", now=now)
    ContentEnrichment.objects.create(
        item=item,
        locale="ko",
        prompt_version="reading-1",
        generator="rules",
        reading_level=level,
        reading_score=50,
    )
    return item


def run_once(subscription, now):
    return runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)


def test_a_subscription_for_l1_gets_only_l1_items(alice, now):
    rated("뉴스 쉬운 기사", "L1", now)
    rated("뉴스 보통 기사", "L2", now)
    rated("뉴스 어려운 기사", "L3", now)
    add_item("[사설] 뉴스 아직 평가 전", description=DENSE_KO, now=now)  # L3, not rated yet
    add_item("뉴스 방금 도착", description=EASY_KO, now=now)  # L1, not rated yet
    easy = run_once(subscribe(alice, now, name="Easy", reading_levels=["L1"]), now)
    # The run rated its two unrated candidates first: the easy one is in, the editorial out.
    assert sorted(easy.items.values_list("title", flat=True)) == [
        "뉴스 방금 도착",
        "뉴스 쉬운 기사",
    ]
    other = run_once(subscribe(alice, now, name="Any level"), now)
    assert other.delivered_count == 3  # every other level (alice has the two L1 items already)


@pytest.mark.parametrize("unrated", [0, 1, 8])
def test_the_level_filter_costs_the_same_queries_for_any_number_of_unrated_items(
    alice, bob, now, unrated
):
    for n in range(6):
        rated(f"뉴스 {n}번", "L1" if n % 2 else "L2", now)
    for n in range(unrated):
        add_item(f"뉴스 새 기사 {n}", description=EASY_KO, now=now)  # rated L1 by the run
    counts = []
    for user, levels_wanted in ((alice, []), (bob, ["L1"])):  # two users: both runs deliver
        subscription = subscribe(user, now, reading_levels=levels_wanted)
        run = request_manual_run(subscription, now=now)
        cache.clear()  # both runs count the pool in their window (ingest/pool/size.py)
        with CaptureQueriesContext(connection) as captured:
            finished = runner.execute_run(run.pk, now=now)
        counts.append((len(captured.captured_queries), finished.delivered_count))
    # Which candidates still need a rating (one query), and one INSERT when some do.
    assert counts[1][0] == counts[0][0] + (2 if unrated else 1)
    assert [delivered for _queries, delivered in counts] == [6 + unrated, 3 + unrated]
