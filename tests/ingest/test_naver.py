"""NAVER News Search as a discovery-only search provider (seed 003 §2.2, §4, §5, §6), driven
against a loopback fake of the NAVER Search API.

The fake serves `GET /v1/search/news.json?query=…&display=…&start=…&sort=…` as NAVER does,
answering only requests that carry both `X-Naver-Client-Id` and `X-Naver-Client-Secret`
(otherwise 401 with NAVER's error body). The answer's shape:

    {"lastBuildDate": "Fri, 20 Nov 2026 18:00:00 +0900", "total": 2, "start": 1, "display": 2,
     "items": [{"title": "...<b>반도체</b>... &quot;...&quot;",
                "originallink": "https://www.khan.co.kr/article/...",   # may be ""
                "link": "https://n.news.naver.com/mnews/article/...",    # NAVER's copy
                "description": "...<b>반도체</b>...&amp;...",
                "pubDate": "Fri, 20 Nov 2026 17:58:00 +0900"}]}

Errors look like {"errorMessage": "...", "errorCode": "012"} with HTTP 429 (quota / rate),
"024" with 401 (authentication) and "SE01".."SE99" with 400/500.
"""

from __future__ import annotations

import json
from datetime import timedelta
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.cache import cache
from django.test import override_settings

from digests.runs import runner
from digests.runs.meter import RunMeter
from digests.subscriptions.service import create_subscription, request_manual_run
from ingest.library.input import SourceInputError
from ingest.library.packs import (
    NAVER_NEEDS_CREDENTIALS,
    install_pack,
    publisher_name,
    sync_naver_status,
)
from ingest.models import ContentItem, ContentItemSource, FetchLog, SearchQueryPoll, Source
from ingest.pool.entries import ParsedEntry
from ingest.pool.upsert import upsert_entries
from ingest.search.providers.naver import NaverNewsProvider, parse_news
from ingest.search.service import add_search, claim_queries, collect_on_run
from tests.loopback import LoopbackServer

pytestmark = pytest.mark.django_db

CLIENT_ID = "tidings-test-id"
CLIENT_SECRET = "tidings-test-secret"


class FakeNaver:
    """NAVER's News Search API on 127.0.0.1: canned items per query, or an error status."""

    def __init__(self):
        self.answers: dict[str, list[dict]] = {}
        self.status = 200
        self.error_code = ""
        self.requests: list[tuple[str, dict[str, list[str]], dict[str, str]]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                parts = urlsplit(self.path)
                params = parse_qs(parts.query)
                fake.requests.append((parts.path, params, dict(self.headers)))
                status, body = fake.answer(parts.path, params, self.headers)
                payload = json.dumps(body, ensure_ascii=False).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=UTF-8")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args):
                pass

        self.loopback = LoopbackServer(Handler)
        self.url = self.loopback.url()

    def answer(self, path, params, headers):
        if path != "/v1/search/news.json":
            return 404, {"errorMessage": "Not Found", "errorCode": "404"}
        if (headers.get("X-Naver-Client-Id"), headers.get("X-Naver-Client-Secret")) != (
            CLIENT_ID,
            CLIENT_SECRET,
        ):
            return 401, {"errorMessage": "Authentication failed", "errorCode": "024"}
        if self.status != 200:
            return self.status, {"errorMessage": "error", "errorCode": self.error_code}
        items = self.answers.get(params.get("query", [""])[0], [])
        return 200, {
            "lastBuildDate": "Fri, 20 Nov 2026 18:00:00 +0900",
            "total": len(items),
            "start": 1,
            "display": len(items),
            "items": items,
        }

    @property
    def queries(self) -> list[str]:
        return [params.get("query", [""])[0] for _path, params, _headers in self.requests]


@pytest.fixture
def naver():
    fake = FakeNaver()
    with (
        fake.loopback,
        override_settings(
            FETCH_TEST_ONLY_LOOPBACK_HOSTS=("localhost",),
            NAVER_SEARCH_API_URL=fake.url,
            NAVER_CLIENT_ID=CLIENT_ID,
            NAVER_CLIENT_SECRET=CLIENT_SECRET,
        ),
    ):
        yield fake


@pytest.fixture(autouse=True)
def search_collector():
    from ingest.search.service import register_on_run_collector

    register_on_run_collector()
    yield
    register_on_run_collector()


def item(title, originallink, link="", description="", pub="Fri, 20 Nov 2026 17:58:00 +0900"):
    return {
        "title": title,
        "originallink": originallink,
        "link": link or "https://n.news.naver.com/mnews/article/001/0000000001",
        "description": description,
        "pubDate": pub,
    }


def naver_source(user, now) -> Source:
    install_pack(user, "korean-news", now=now)
    return Source.objects.get(type="search", config__provider="naver_news")


def subscribe(user, now, sources, interests=("반도체",), name="반도체 뉴스"):
    return create_subscription(
        user,
        {
            "name": name,
            "interests": list(interests),
            "cron": "0 8 * * *",
            "source_ids": [s.pk for s in sources],
        },
        now=now,
    )


def run_now(subscription, now):
    return runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)


# --- the answer -------------------------------------------------------------------------------


def test_results_take_originallink_plain_titles_and_the_publisher():
    answer = {
        "items": [
            item(
                "<b>반도체</b> 수출 &quot;역대 최대&quot; &amp; 전망",
                "https://www.khan.co.kr/economy/article/202611201758001?utm_source=naver#top",
                description="올해 <b>반도체</b> 수출이 &lt;최대&gt;를 기록했다.",
            ),
            item("링크만 있는 기사", "", link="https://n.news.naver.com/mnews/article/2"),
            item("주소가 없는 기사", "", link="javascript:alert(1)"),
            "not an item",
        ]
    }
    parsed = parse_news(json.dumps(answer).encode(), query="반도체")

    first, second = parsed.entries
    assert first.url == "https://www.khan.co.kr/economy/article/202611201758001"
    assert first.entry_id.startswith("https://www.khan.co.kr/economy/article/")
    assert first.title == '반도체 수출 "역대 최대" & 전망'
    assert first.description == "올해 반도체 수출이 <최대>를 기록했다."
    assert first.published_at.isoformat() == "2026-11-20T08:58:00+00:00"
    assert first.site_name == "경향신문"
    assert first.content_html == ""  # discovery only: the text comes from the publisher
    assert second.url == "https://n.news.naver.com/mnews/article/2"
    assert parsed.skipped == 2


def test_publishers_are_named_by_the_longest_matching_domain():
    assert publisher_name("it.donga.com") == "IT동아"
    assert publisher_name("www.donga.com") == "동아일보"
    assert publisher_name("news.example.kr") == "news.example.kr"


# --- collection ------------------------------------------------------------------------------


def test_a_run_asks_naver_its_interests_with_the_credentials(naver, alice, now):
    naver.answers["반도체"] = [
        item("<b>반도체</b> 수출 최대", "https://www.hankyung.com/article/2026112012345")
    ]
    naver.answers["배터리"] = [item("<b>배터리</b> 공장 착공", "https://www.mk.co.kr/news/1")]
    source = naver_source(alice, now)
    assert source.status == "active"

    run = run_now(subscribe(alice, now, [source], interests=["반도체", "배터리"]), now)

    assert run.status == "succeeded"
    assert naver.queries == ["반도체", "배터리"]  # in the order of the interests
    path, params, headers = naver.requests[0]
    assert path == "/v1/search/news.json"
    assert params["display"] == ["100"] and params["sort"] == ["date"]
    assert headers["X-Naver-Client-Id"] == CLIENT_ID
    assert headers["X-Naver-Client-Secret"] == CLIENT_SECRET
    found = ContentItem.objects.get(canonical_url="https://www.hankyung.com/article/2026112012345")
    assert (found.title, found.site_name) == ("반도체 수출 최대", "한국경제")
    assert ContentItemSource.objects.filter(source=source).count() == 2
    assert sorted(run.items.values_list("title", flat=True)) == sorted(
        ["배터리 공장 착공", "반도체 수출 최대"]
    )
    log = FetchLog.objects.get(source=source)
    assert (log.outcome, log.fetched, log.inserted) == ("ok", 2, 2)
    assert run.billing_breakdown["operations"]["search"] == 1


def test_without_interests_the_source_asks_its_own_query(naver, alice, now):
    source = naver_source(alice, now)
    collect_on_run(source, now, RunMeter())
    assert naver.queries == ["속보"]


def test_each_query_is_asked_at_most_once_per_thirty_minutes(naver, alice, bob, now):
    naver.answers["반도체"] = [item("반도체 수출 최대", "https://www.mk.co.kr/news/1")]
    source = naver_source(alice, now)
    install_pack(bob, "korean-news", now=now)
    alices = subscribe(alice, now, [source])
    bobs = subscribe(bob, now, [source], interests=["반도체", "환율"])

    run_now(alices, now)
    later = run_now(bobs, now + timedelta(minutes=29))  # 반도체 was asked 29 minutes ago
    assert naver.queries == ["반도체", "환율"]
    assert later.billing_breakdown["operations"]["search"] == 1

    cached = run_now(alices, now + timedelta(minutes=29, seconds=30))
    assert naver.queries == ["반도체", "환율"]  # nothing new to ask
    assert cached.billing_breakdown["cache_hits"]["search"] == 1

    run_now(alices, now + timedelta(minutes=30))
    assert naver.queries == ["반도체", "환율", "반도체"]


def test_two_runs_claiming_one_query_at_once_ask_it_once(alice, now):
    source = Source.objects.create(
        type="search", config={"provider": "naver_news", "query": "속보"}, config_hash="n" * 64
    )
    floor = timedelta(minutes=30)
    assert list(claim_queries(source, ["반도체"], now=now, floor=floor)) == ["반도체"]
    assert claim_queries(source, ["반도체"], now=now, floor=floor) == {}
    assert claim_queries(source, ["반도체"], now=now + timedelta(minutes=29), floor=floor) == {}
    assert SearchQueryPoll.objects.count() == 1


def test_at_most_five_queries_a_run():
    source = Source(config={"provider": "naver_news", "query": "속보"})
    subscription = type("S", (), {"interests": [f"관심사 {n}" for n in range(8)] + ["관심사 1"]})
    queries = NaverNewsProvider().queries_for(source, subscription)
    assert queries == [f"관심사 {n}" for n in range(5)]


@pytest.mark.parametrize(
    ("status", "code", "message"),
    [
        (429, "012", "quota is used up or calls came too fast"),
        (500, "SE99", "NAVER News search failed: The server answered HTTP 500."),
        (403, "", "may not have the Search API enabled"),
    ],
)
def test_failures_are_logged_backed_off_and_the_queries_asked_again(
    naver, alice, now, status, code, message
):
    naver.status, naver.error_code = status, code
    source = naver_source(alice, now)
    meter = RunMeter()
    subscription = subscribe(alice, now, [source])

    collect_on_run(source, now, meter, subscription=subscription)

    source.refresh_from_db()
    log = FetchLog.objects.get(source=source)
    assert (log.outcome, log.http_status) == ("error", status)
    assert message in log.error and message in source.last_error
    assert source.consecutive_failures == 1
    assert source.next_refresh_at == now + timedelta(minutes=5)
    assert meter.breakdown()["operations"]["search"] == 0
    assert not SearchQueryPoll.objects.exists()  # the failed query was not "asked"

    collect_on_run(source, now + timedelta(minutes=1), meter, subscription=subscription)
    assert len(naver.requests) == 1  # backing off
    naver.status = 200
    cache.clear()  # the fetch client's pause of the host after a 429 (real time) is over
    collect_on_run(source, now + timedelta(minutes=5), meter, subscription=subscription)
    assert len(naver.requests) == 2
    source.refresh_from_db()
    assert (source.consecutive_failures, source.last_error) == (0, "")


def test_wrong_credentials_name_the_settings(naver, alice, now):
    source = naver_source(alice, now)
    with override_settings(NAVER_CLIENT_SECRET="wrong"):
        collect_on_run(source, now, RunMeter())
    source.refresh_from_db()
    assert "HTTP 401" in source.last_error
    assert "NAVER_CLIENT_ID and NAVER_CLIENT_SECRET" in source.last_error


def test_a_malformed_answer_is_a_logged_failure_with_nothing_stored(naver, alice, now):
    source = naver_source(alice, now)
    naver.answer = lambda *args: (200, {"items": "none"})
    collect_on_run(source, now, RunMeter())
    assert FetchLog.objects.get(source=source).error == "NAVER's answer has no list of items."
    assert not ContentItem.objects.exists()


# --- dedup against the Korean feeds (seed 003 §6) ---------------------------------------------


def _feed_entry(url, title, description="경향신문 RSS 요약"):
    return ParsedEntry(
        url=url,
        entry_id=url,
        title=title,
        description=description,
        content_html=f"<p>{description}</p>",
        author="",
        published_at=None,
    )


def test_the_feed_copy_of_an_article_wins_over_naver_whichever_came_first(naver, alice, now):
    install_pack(alice, "korean-news", now=now)
    khan = Source.objects.get(url="https://www.khan.co.kr/rss/rssdata/total_news.xml")
    source = Source.objects.get(type="search")
    article = "https://www.khan.co.kr/politics/article/202611200900001"
    naver.answers["속보"] = [
        item(
            "<b>국회</b> 예산안 처리",
            article + "?utm_source=naver&utm_medium=search",
            description="NAVER 검색 요약",
        )
    ]

    collect_on_run(source, now, RunMeter())  # NAVER sees it first
    upsert_entries(khan, [_feed_entry(article, "국회, 예산안 처리")], now=now)

    only = ContentItem.objects.get()
    assert only.canonical_url == article
    assert (only.title, only.description) == ("국회, 예산안 처리", "경향신문 RSS 요약")
    assert only.site_name == "경향신문"

    # And the other way round: NAVER never overwrites what the feed said.
    collect_on_run(source, now + timedelta(minutes=30), RunMeter())
    only.refresh_from_db()
    assert (only.title, only.description) == ("국회, 예산안 처리", "경향신문 RSS 요약")
    assert ContentItem.objects.count() == 1


def test_a_naver_copy_under_another_address_is_filtered_in_favour_of_the_feed(naver, alice, now):
    install_pack(alice, "korean-news", now=now)
    donga = Source.objects.get(url="https://rss.donga.com/total.xml")
    source = Source.objects.get(type="search")
    assert source.priority < min(
        Source.objects.filter(type="feed").values_list("priority", flat=True)
    )
    title = "정부, 내년 성장률 전망 2.0%로 하향 조정"
    upsert_entries(
        donga, [_feed_entry("https://www.donga.com/news/Economy/article/all/1", title)], now=now
    )
    naver.answers["속보"] = [item(title, "https://m.donga.com/news/article/all/1")]

    collect_on_run(source, now + timedelta(minutes=5), RunMeter())

    feed_copy = ContentItem.objects.get(canonical_url__contains="www.donga.com")
    naver_copy = ContentItem.objects.get(canonical_url__contains="m.donga.com")
    assert feed_copy.status == "active"
    assert naver_copy.status == "filtered"
    assert naver_copy.cluster_id == feed_copy.pk


# --- without credentials: discovery is off, plainly -------------------------------------------


def test_without_credentials_the_pack_installs_it_disabled_and_says_so(alice, now, api):
    naver = naver_source(alice, now)
    assert naver.status == "disabled"
    assert naver.last_error == NAVER_NEEDS_CREDENTIALS
    assert "Discovery is off" in naver.last_error

    packs = {p["key"]: p for p in api.get("/api/v1/packs").json()["results"]}
    note = packs["korean-news"]["sources"][-1]["note"]
    assert "Discovery is off" in note and "NAVER_CLIENT_ID" in note


def test_the_sources_page_says_discovery_is_off(client, alice):
    client.force_login(alice)
    page = client.get("/sources/").content.decode()
    assert "NAVER News Search: Discovery is off" in page


def test_with_credentials_the_pack_says_discovery_is_on(naver, api):
    packs = {p["key"]: p for p in api.get("/api/v1/packs").json()["results"]}
    assert packs["korean-news"]["sources"][-1]["note"].startswith("Discovery only")


def test_a_naver_search_is_refused_without_credentials(alice, now):
    with pytest.raises(SourceInputError) as caught:
        add_search(alice, "반도체", provider="naver_news", now=now)
    assert "NAVER News discovery is off" in caught.value.errors["provider"]
    assert not Source.objects.exists()


def test_a_naver_search_can_be_added_with_credentials(naver, alice, now):
    user_source, created = add_search(alice, "반도체", provider="naver_news", now=now)
    assert created
    assert user_source.source.config == {"provider": "naver_news", "query": "반도체"}


def test_sources_follow_the_credentials_as_they_come_and_go(alice, now):
    naver = naver_source(alice, now)
    admin_disabled = Source.objects.create(
        type="search",
        config={"provider": "naver_news", "query": "경제"},
        config_hash="a" * 64,
        status="disabled",
        last_error="Switched off by an admin.",
    )
    assert sync_naver_status() == 0
    with override_settings(NAVER_CLIENT_ID=CLIENT_ID, NAVER_CLIENT_SECRET=CLIENT_SECRET):
        assert sync_naver_status() == 1
    naver.refresh_from_db()
    admin_disabled.refresh_from_db()
    assert (naver.status, naver.last_error) == ("active", "")
    assert admin_disabled.status == "disabled"

    assert sync_naver_status() == 1  # the credentials are gone again
    naver.refresh_from_db()
    assert (naver.status, naver.last_error) == ("disabled", NAVER_NEEDS_CREDENTIALS)


def test_the_dispatcher_tick_syncs_naver_sources(alice, now, settings):
    from digests.tasks import dispatch_tick

    naver = naver_source(alice, now)
    settings.NAVER_CLIENT_ID, settings.NAVER_CLIENT_SECRET = CLIENT_ID, CLIENT_SECRET
    dispatch_tick()
    naver.refresh_from_db()
    assert naver.status == "active"


def test_credentials_go_to_the_api_host_only_never_along_a_redirect(fixture_server):
    from ingest.fetching import fetch

    fixture_server.add("/same", status=302, Location=fixture_server.url("/final"))
    fixture_server.add("/away", status=302, Location=f"http://vm:{fixture_server.port}/final")
    fixture_server.add("/final", "{}")
    keys = {"X-Naver-Client-Id": CLIENT_ID, "X-Naver-Client-Secret": CLIENT_SECRET}
    with override_settings(FETCH_TEST_ONLY_LOOPBACK_HOSTS=("localhost", "vm")):
        fetch.fetch(fixture_server.url("/same"), credentials=keys)
        fetch.fetch(fixture_server.url("/away"), credentials=keys)

    sent = [(path, sent.get("X-Naver-Client-Secret")) for path, sent in fixture_server.requests]
    assert sent == [
        ("/same", CLIENT_SECRET),
        ("/final", CLIENT_SECRET),  # the same host
        ("/away", CLIENT_SECRET),
        ("/final", None),  # another host: no keys
    ]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_runs_claiming_the_same_queries_at_once_ask_each_once(now):
    from django.db import connection

    from tests.threads import at_once

    if connection.vendor != "postgresql":
        pytest.skip("concurrent claims are tested on PostgreSQL (SQLite serializes writers)")
    source = Source.objects.create(
        type="search", config={"provider": "naver_news", "query": "속보"}, config_hash="c" * 64
    )
    SearchQueryPoll.objects.create(
        source=source, query="환율", last_asked_at=now - timedelta(hours=1)
    )
    queries = ["반도체", "환율", "배터리"]
    floor = timedelta(minutes=30)

    claims = at_once(lambda _n: claim_queries(source, queries, now=now, floor=floor), range(6))

    assert not [c for c in claims if isinstance(c, Exception)], claims
    asked = [query for claim in claims for query in claim]
    assert sorted(asked) == sorted(queries)  # every query claimed by exactly one run
    assert SearchQueryPoll.objects.filter(last_asked_at=now).count() == 3
