"""Search sources: SearXNG and the local pool as providers, collected at the start of each run."""

from __future__ import annotations

import json
import re
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

import pytest
from django.apps import apps
from django.test import override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from digests.runs import on_run, runner
from digests.runs.meter import RunMeter
from digests.subscriptions.service import create_subscription, request_manual_run
from inbox.tokens import issue_token
from ingest.fetching import fetch
from ingest.library.input import SourceInputError
from ingest.library.sources import add_to_library
from ingest.models import ContentItem, ContentItemSource, FetchLog, Source, UserSource
from ingest.refresh.pipeline import refresh_source
from ingest.search.api import QUERY_PATTERN
from ingest.search.service import add_search, clean_search_input, collect_on_run
from tests.factories import add_item
from tests.loopback import LoopbackServer

pytestmark = pytest.mark.django_db


class FakeSearxng:
    """SearXNG's /search endpoint on 127.0.0.1: canned JSON per query, or a status, or a delay."""

    def __init__(self):
        self.answers: dict[str, list[dict]] = {}
        self.status = 200
        self.body: bytes | None = None
        self.delay = 0.0
        self.queries: list[dict[str, list[str]]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                parts = urlsplit(self.path)
                params = parse_qs(parts.query)
                fake.queries.append(params)
                time.sleep(fake.delay)
                body = fake.body
                if body is None:
                    results = fake.answers.get(params.get("q", [""])[0], [])
                    body = json.dumps({"query": params.get("q"), "results": results}).encode()
                try:
                    self.send_response(fake.status if parts.path == "/search" else 404)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up waiting (the timeout test)

            def log_message(self, *args):
                pass

        self.loopback = LoopbackServer(Handler)
        self.url = self.loopback.url()


@pytest.fixture
def searxng():
    fake = FakeSearxng()
    with (
        fake.loopback,
        override_settings(FETCH_TEST_ONLY_LOOPBACK_HOSTS=("localhost",), SEARXNG_URL=fake.url),
    ):
        yield fake


@pytest.fixture(autouse=True)
def search_collector():
    """The collector the ingest app registers (other tests may have swapped it out)."""
    from ingest.search.service import register_on_run_collector

    register_on_run_collector()
    yield
    register_on_run_collector()


def result(url: str, title: str, content: str = "", **extra) -> dict:
    return {"url": url, "title": title, "content": content, "engine": "duckduckgo", **extra}


def search_source(user, query="PostgreSQL", provider="searxng", **fields) -> Source:
    source = Source.objects.create(
        type="search",
        config={"provider": provider, "query": query},
        config_hash=f"{provider}-{query}".ljust(64, "x")[:64],
        **{"refresh_mode": "on_run", **fields},
    )
    add_to_library(user, source)
    return source


def subscribe(user, now, source, **data):
    base = {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}
    return create_subscription(user, {**base, "source_ids": [source.pk], **data}, now=now)


def run_now(subscription, now):
    return runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)


# --- SearXNG ----------------------------------------------------------------------------------


def test_searxng_results_are_canonicalized_cleaned_and_upserted(searxng, alice, now):
    searxng.answers["PostgreSQL"] = [
        result(
            "https://Example.COM/pg18?utm_source=searx&b=2&a=1#top",
            "<b>PostgreSQL</b> 18 &amp; more",
            "Faster <em>I/O</em><script>alert(1)</script>",
            publishedDate="2026-11-19T08:00:00",
        ),
        result("https://db.example/replication", "Logical replication in PostgreSQL"),
        result("javascript:alert(1)", "Not a page"),
        result("ftp://files.example/pg.tar", "Not the web"),
    ]
    source = search_source(alice)
    meter = RunMeter()

    collect_on_run(source, now, meter)

    first = ContentItem.objects.get(canonical_url="https://example.com/pg18?a=1&b=2")
    assert first.title == "PostgreSQL 18 & more"
    assert first.description == "Faster I/O"
    assert first.published_at.isoformat() == "2026-11-19T08:00:00+00:00"
    assert ContentItem.objects.count() == 2
    assert ContentItemSource.objects.filter(source=source, baseline=False).count() == 2
    assert searxng.queries == [{"q": ["PostgreSQL"], "format": ["json"]}]
    log = FetchLog.objects.get(source=source)
    assert (log.outcome, log.fetched, log.inserted, log.failed) == ("ok", 2, 2, 2)
    assert meter.breakdown()["operations"]["search"] == 1


def test_a_failing_searxng_is_recorded_and_backed_off(searxng, alice, now):
    searxng.status = 500
    source = search_source(alice)

    collect_on_run(source, now, RunMeter())

    source.refresh_from_db()
    assert source.consecutive_failures == 1
    assert source.last_error.startswith("SearXNG search failed:")
    assert "500" in source.last_error
    assert source.next_refresh_at == now + timedelta(minutes=5)
    assert FetchLog.objects.get(source=source).outcome == "error"

    meter = RunMeter()
    collect_on_run(source, now + timedelta(minutes=2), meter)  # still backing off
    assert len(searxng.queries) == 1
    assert meter.total == 0

    searxng.status = 200
    collect_on_run(source, now + timedelta(minutes=5), meter)
    assert len(searxng.queries) == 2
    source.refresh_from_db()
    assert (source.consecutive_failures, source.last_error) == (0, "")


def test_a_searxng_timeout_is_recorded_like_other_failures(searxng, alice, now, monkeypatch):
    monkeypatch.setattr(fetch, "READ_TIMEOUT_SECONDS", 0.2)
    searxng.delay = 1.0
    source = search_source(alice)

    collect_on_run(source, now, RunMeter())

    source.refresh_from_db()
    assert "did not answer in time" in source.last_error
    assert source.consecutive_failures == 1


@pytest.mark.parametrize(
    ("status", "body", "message"),
    [
        (403, b"Forbidden", "add json to search.formats"),
        (200, b"<html>search page</html>", "SearXNG did not answer with JSON."),
        (200, b'{"results": "none"}', "SearXNG's answer has no list of results."),
    ],
)
def test_unusable_searxng_answers_explain_themselves(searxng, alice, now, status, body, message):
    searxng.status, searxng.body = status, body
    source = search_source(alice)
    collect_on_run(source, now, RunMeter())
    source.refresh_from_db()
    assert message in source.last_error
    assert not ContentItem.objects.exists()


def test_a_run_collects_fresh_results_before_it_scores(searxng, alice, now):
    searxng.answers["PostgreSQL"] = [
        result("https://db.example/pg18", "PostgreSQL 18 released", "The new major version.")
    ]
    source = search_source(alice)
    subscription = subscribe(alice, now, source)

    first = run_now(subscription, now)

    assert first.status == "succeeded"
    assert list(first.items.values_list("title", flat=True)) == ["PostgreSQL 18 released"]
    assert first.billing_breakdown["operations"]["search"] == 1

    searxng.answers["PostgreSQL"].insert(
        0, result("https://db.example/pg18-1", "PostgreSQL 18.1 fixes", "A bug-fix release.")
    )
    second = run_now(subscription, now + timedelta(days=1))

    assert list(second.items.values_list("title", flat=True)) == ["PostgreSQL 18.1 fixes"]
    assert len(searxng.queries) == 2


def test_runs_moments_apart_share_one_search_and_meter_it_as_a_cache_hit(searxng, alice, now):
    searxng.answers["PostgreSQL"] = [result("https://db.example/pg18", "PostgreSQL 18 released")]
    source = search_source(alice)
    run_now(subscribe(alice, now, source), now)

    other = run_now(subscribe(alice, now, source, name="Other"), now + timedelta(minutes=3))

    assert len(searxng.queries) == 1
    assert other.billing_breakdown["operations"]["search"] == 1
    assert other.billing_breakdown["cache_hits"]["search"] == 1


def test_a_scheduled_searxng_source_refreshes_through_the_usual_pipeline(searxng, alice, now):
    searxng.answers["PostgreSQL"] = [result("https://db.example/pg18", "PostgreSQL 18 released")]
    source = search_source(alice, refresh_mode="scheduled")
    outcome = refresh_source(source, now=now)
    assert outcome.ok
    assert outcome.counts.inserted == 1


def test_an_unknown_provider_is_recorded_on_the_source(alice, now):
    source = search_source(alice, provider="bing", query="속보")
    collect_on_run(source, now, RunMeter())
    source.refresh_from_db()
    assert source.last_error.startswith("Unknown search provider 'bing'")
    assert source.consecutive_failures == 1


# --- The local pool ---------------------------------------------------------------------------


def test_a_pool_search_links_matching_items_without_touching_them(alice, now):
    match = add_item("PostgreSQL 18 released", now=now - timedelta(hours=5))
    in_text = add_item("Databases", description="Mentions postgresql in passing", now=now)
    add_item("Rust 2.0", now=now)
    source = search_source(alice, provider="pool")
    before = dict(ContentItem.objects.values_list("id", "last_seen_at"))

    meter = RunMeter()
    collect_on_run(source, now, meter)

    linked = set(ContentItemSource.objects.filter(source=source).values_list("item", flat=True))
    assert linked == {match.pk, in_text.pk}
    assert dict(ContentItem.objects.values_list("id", "last_seen_at")) == before
    log = FetchLog.objects.get(source=source)
    assert (log.outcome, log.fetched, log.inserted) == ("ok", 2, 0)
    assert meter.breakdown()["cache_hits"]["search"] == 1


def test_a_repeated_pool_search_links_only_new_matches(alice, now, django_assert_max_num_queries):
    for n in range(5):
        add_item(f"PostgreSQL note {n}", now=now)
    source = search_source(alice, provider="pool")
    collect_on_run(source, now, RunMeter())
    first_seen = dict(
        ContentItemSource.objects.filter(source=source).values_list("item", "first_seen_at")
    )
    newer = add_item("PostgreSQL 19 plans", now=now + timedelta(hours=1))
    later = now + timedelta(hours=1)

    with django_assert_max_num_queries(12):
        collect_on_run(source, later, RunMeter())

    sightings = dict(
        ContentItemSource.objects.filter(source=source).values_list("item", "first_seen_at")
    )
    assert sightings == {**first_seen, newer.pk: later}


def test_a_pool_search_source_feeds_a_source_based_run(alice, now):
    add_item("PostgreSQL 18 released", now=now)
    add_item("Rust 2.0 released", now=now)
    source = search_source(alice, provider="pool")

    run = run_now(subscribe(alice, now, source), now)

    assert list(run.items.values_list("title", flat=True)) == ["PostgreSQL 18 released"]
    assert run.billing_breakdown["operations"]["search"] == 1


def test_a_pool_search_is_not_run_by_the_scheduled_pipeline(alice, now):
    add_item("PostgreSQL 18 released", now=now)
    source = search_source(alice, provider="pool", refresh_mode="scheduled")
    outcome = refresh_source(source, now=now)
    assert not outcome.ok
    assert "run with each digest run" in outcome.error
    assert not ContentItemSource.objects.exists()


def test_the_ingest_app_registers_the_search_collector():
    on_run.unregister_collector("search")
    apps.get_app_config("ingest").ready()
    assert on_run._COLLECTORS["search"] is collect_on_run


# --- Adding a search --------------------------------------------------------------------------


def test_adding_a_search_creates_a_shared_on_run_source(alice, bob, now):
    user_source, created = add_search(alice, "  PostgreSQL,   logical replication ", now=now)
    assert created
    source = user_source.source
    assert source.config == {"provider": "pool", "query": "PostgreSQL, logical replication"}
    assert source.refresh_mode == "on_run"
    assert source.next_refresh_at is None
    assert source.title == "Tidings pool search: PostgreSQL, logical replication"

    bobs, _created = add_search(bob, "PostgreSQL, logical replication", provider="pool", now=now)
    assert bobs.source == source


@pytest.mark.parametrize(
    ("query", "provider", "errors"),
    [
        ("", "pool", {"query": "Enter what to search for."}),
        ("x" * 301, "pool", {"query": "At most 300 characters."}),
        (
            " , ",
            "pool",
            {"query": "Enter at least one word or phrase (alternatives separated by commas)."},
        ),
        ("rust", "bing", {"provider": "Choose one of pool, searxng, naver_news."}),
        (
            "rust",
            "searxng",
            {
                "provider": "The SearXNG search provider is not configured on this server "
                "(SEARXNG_URL is not set)."
            },
        ),
    ],
)
def test_refused_searches_name_the_field_and_save_nothing(alice, now, query, provider, errors):
    with override_settings(SEARXNG_URL=""), pytest.raises(SourceInputError) as refused:
        add_search(alice, query, provider=provider, now=now)
    assert refused.value.errors == errors
    assert not Source.objects.exists()


def test_the_console_adds_a_search(client, alice):
    client.force_login(alice)
    assert reverse("ingest:search-add").encode() in client.get(reverse("ingest:list")).content
    assert client.get(reverse("ingest:search-add")).status_code == 200

    with override_settings(SEARXNG_URL=""):
        refused = client.post(
            reverse("ingest:search-add"), {"query": "rust", "provider": "searxng"}
        )
    added = client.post(reverse("ingest:search-add"), {"query": "rust", "provider": "pool"})

    assert refused.status_code == 400
    assert "SEARXNG_URL is not set" in refused.context["form"].errors["provider"][0]
    assert added.status_code == 302
    assert UserSource.objects.get(user=alice).source.config == {"provider": "pool", "query": "rust"}


def test_the_api_adds_a_search(searxng, alice):
    api = APIClient()
    _row, token = issue_token(alice, "tests")
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")

    created = api.post(
        "/api/v1/sources/searches", {"query": "PostgreSQL", "provider": "searxng"}, format="json"
    )
    refused = api.post("/api/v1/sources/searches", {"query": " "}, format="json")

    assert created.status_code == 201
    body = created.json()
    assert (body["type"], body["refresh_mode"]) == ("search", "on_run")
    assert body["config"] == {"provider": "searxng", "query": "PostgreSQL"}
    assert refused.status_code == 400
    assert refused.json()["error"]["fields"] == {"query": "Enter what to search for."}


def test_every_query_the_schema_allows_is_one_the_service_takes():
    """The schema's pattern is what clean_search_input keeps: a fuzzer sending one control
    character ("\\x1f", which str.split() reads as a space) met a 400 for a schema-valid query."""
    for code in range(1, 0x3001):
        char = chr(code)
        for query in (char, f" {char} ", f"{char},{char}"):
            allowed = re.fullmatch(QUERY_PATTERN, query) is not None
            try:
                clean_search_input(query, "pool")
                taken = True
            except SourceInputError:
                taken = False
            assert allowed == taken, (hex(code), query)
