"""Refreshing sources (SPEC §4.8) and per-host politeness (SPEC §4.1), on real parts: feeds
served over HTTP on loopback, the real fetch client, the real database.

Backoff, degradation, conditional GET, cache hints, Retry-After, redirects and FetchLogs go
through `refresh_source()`; batches through `refresh_many()` and the scheduler tick. Claims
race on PostgreSQL with real threads; politeness is measured at a server that counts the
requests it has in flight, and across two processes through Redis.
"""

from __future__ import annotations

import itertools
import multiprocessing
import socket
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import override_settings

from digests.schedules import scheduler
from ingest.fetching import fetch as fetch_module
from ingest.fetching import politeness
from ingest.fetching.fetch import FetchTimeout, fetch
from ingest.models import ContentItem, FetchLog, Source, UserSource, config_hash
from ingest.refresh.pipeline import (
    MAX_REFRESH_ATTEMPTS,
    claim_due_sources,
    refresh_many,
    refresh_source,
)
from tests.ingest.politeness_worker import fetch_in_threads
from tests.loopback import LoopbackServer

MIN = timedelta(minutes=1)


def rss(*links: str, title: str = "Loopback Feed") -> str:
    items = "".join(
        f"<item><title>Story {link}</title><link>https://news.example/{link}</link>"
        f"<description>About {link}.</description></item>"
        for link in links
    )
    return (
        f'<?xml version="1.0"?><rss version="2.0"><channel><title>{title}</title>{items}'
        "</channel></rss>"
    )


def make_source(url: str, now, **fields) -> Source:
    return Source.objects.create(
        type=Source.Type.FEED,
        config={"url": url},
        config_hash=config_hash(Source.Type.FEED, {"url": url}),
        url=url,
        next_refresh_at=now,
        **fields,
    )


def reload(source: Source) -> Source:
    return Source.objects.get(pk=source.pk)


# --- Failures: backoff, degraded, reset --------------------------------------------------------


def test_failures_back_off_5_then_15_then_60_minutes(fixture_server, db, now):
    source = make_source(fixture_server.add("/broken", status=500), now)
    delays = []
    for attempt in range(4):
        at = now + attempt * timedelta(hours=2)
        outcome = refresh_source(reload(source), now=at)
        assert not outcome.ok
        delays.append(reload(source).next_refresh_at - at)
    assert delays == [5 * MIN, 15 * MIN, 60 * MIN, 60 * MIN]
    assert reload(source).consecutive_failures == 4
    assert reload(source).status == Source.Status.ACTIVE


def test_more_than_12_failures_degrade_the_source_and_its_owner_sees_why(
    fixture_server, alice, client, now
):
    source = make_source(fixture_server.add("/broken", status=500), now)
    UserSource.objects.create(user=alice, source=source, display_name="Flaky blog")
    for attempt in range(12):
        refresh_source(reload(source), now=now + attempt * 2 * MIN * 60)
    assert reload(source).status == Source.Status.ACTIVE
    refresh_source(reload(source), now=now + 24 * 60 * MIN)
    degraded = reload(source)
    assert degraded.status == Source.Status.DEGRADED
    assert degraded.consecutive_failures == 13
    assert degraded.last_error == "The server answered HTTP 500."

    client.force_login(alice)
    page = client.get("/sources/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Flaky blog" in html
    assert "Degraded" in html
    assert "The server answered HTTP 500." in html
    # Degraded sources are still retried (hourly), so a recovered feed comes back by itself.
    later = degraded.next_refresh_at
    assert [s.pk for s in claim_due_sources(now=later)] == [source.pk]


def test_a_success_resets_failures_and_status(fixture_server, db, now):
    url = fixture_server.add("/feed.xml", status=503)
    source = make_source(url, now, status=Source.Status.DEGRADED, consecutive_failures=20)
    refresh_source(source, now=now)
    fixture_server.add("/feed.xml", rss("one", "two"))
    outcome = refresh_source(reload(source), now=now + 2 * 60 * MIN)
    assert outcome.ok
    recovered = reload(source)
    assert recovered.status == Source.Status.ACTIVE
    assert recovered.consecutive_failures == 0
    assert recovered.last_error == ""
    assert recovered.next_refresh_at == now + 2 * 60 * MIN + 60 * MIN
    assert ContentItem.objects.count() == 2


def test_a_malformed_feed_is_a_counted_failure_and_stores_nothing(fixture_server, db, now):
    url = fixture_server.add(
        "/feed.xml", b"\x00\x01 this is not { a feed", ETag='"broken"', Content_Type="text/xml"
    )
    source = make_source(url, now)
    outcome = refresh_source(source, now=now)
    assert not outcome.ok
    assert outcome.error.startswith("Could not read the feed")
    stored = reload(source)
    assert stored.consecutive_failures == 1
    assert stored.next_refresh_at == now + 5 * MIN
    assert stored.etag == ""  # or the next check would get "304" for a feed never read
    assert ContentItem.objects.count() == 0
    log = FetchLog.objects.get()
    assert (log.outcome, log.http_status, log.failed) == ("error", 200, 1)
    assert log.error == outcome.error


# --- Conditional GET and cache hints -----------------------------------------------------------


def test_it_sends_conditional_headers_from_the_stored_validators(fixture_server, db, now):
    url = fixture_server.add(
        "/feed.xml", rss("a"), ETag='"v1"', Last_Modified="Wed, 21 Oct 2015 07:28:00 GMT"
    )
    source = make_source(url, now)
    refresh_source(source, now=now)
    stored = reload(source)
    assert (stored.etag, stored.last_modified) == ('"v1"', "Wed, 21 Oct 2015 07:28:00 GMT")
    refresh_source(stored, now=now + 60 * MIN)
    (_, first), (_, second) = fixture_server.requests
    assert "If-None-Match" not in first
    assert "If-Modified-Since" not in first
    assert second["If-None-Match"] == '"v1"'
    assert second["If-Modified-Since"] == "Wed, 21 Oct 2015 07:28:00 GMT"


def test_304_is_no_work_and_is_logged_as_not_modified(fixture_server, db, now):
    url = fixture_server.add("/feed.xml", rss("a", "b"), ETag='"v1"')
    source = make_source(url, now)
    refresh_source(source, now=now)
    seen_at = set(ContentItem.objects.values_list("last_seen_at", flat=True))
    fixture_server.add("/feed.xml", status=304, ETag='"v1"')
    outcome = refresh_source(reload(source), now=now + 60 * MIN)
    assert outcome.ok
    assert outcome.not_modified
    assert outcome.counts.seen == 0
    assert set(ContentItem.objects.values_list("last_seen_at", flat=True)) == seen_at
    log = FetchLog.objects.order_by("-started_at").first()
    assert (log.outcome, log.http_status, log.fetched, log.inserted) == ("not_modified", 304, 0, 0)
    assert reload(source).etag == '"v1"'
    assert reload(source).next_refresh_at == now + 120 * MIN


@pytest.mark.parametrize(
    ("interval_minutes", "cache_control", "expected"),
    [
        (60, "max-age=7200", 120 * MIN),  # the server asks for less often: honoured
        (60, "public, max-age=600", 60 * MIN),  # more often than our interval: ours wins
        (5, "max-age=60", 30 * MIN),  # never more often than every 30 minutes
        (60, "max-age=604800", 24 * 60 * MIN),  # never less often than daily
        (60, "no-store", 60 * MIN),
    ],
)
def test_cache_control_max_age_is_honoured_within_30_minutes_and_24_hours(
    fixture_server, db, now, interval_minutes, cache_control, expected
):
    url = fixture_server.add("/feed.xml", rss("a"), Cache_Control=cache_control)
    source = make_source(url, now, refresh_interval_minutes=interval_minutes)
    refresh_source(source, now=now)
    assert reload(source).next_refresh_at == now + expected


def test_a_304_carries_cache_hints_too(fixture_server, db, now):
    url = fixture_server.add("/feed.xml", status=304, Cache_Control="max-age=10800")
    source = make_source(url, now, etag='"v1"')
    refresh_source(source, now=now)
    assert reload(source).next_refresh_at == now + 180 * MIN


# --- Retry-After and 429 -------------------------------------------------------------------------


def test_retry_after_on_429_postpones_the_next_refresh_and_pauses_the_host(fixture_server, db, now):
    busy = make_source(fixture_server.add("/a.xml", status=429, Retry_After="7200"), now)
    sibling = make_source(fixture_server.add("/b.xml", rss("b")), now)
    outcome = refresh_source(busy, now=now)
    assert not outcome.ok
    assert reload(busy).next_refresh_at == now + 120 * MIN  # not the 5-minute backoff
    assert FetchLog.objects.get(source=busy).http_status == 429

    # Another feed on the same host is not requested while the host asked us to wait.
    outcome = refresh_source(sibling, now=now)
    assert not outcome.ok
    assert outcome.error.startswith("localhost asked Tidings to wait")
    assert [path for path, _ in fixture_server.requests] == ["/a.xml"]
    postponed = reload(sibling).next_refresh_at - now
    assert 119 * MIN < postponed <= 120 * MIN + timedelta(seconds=1)


def test_a_429_without_retry_after_still_pauses_the_host_briefly(fixture_server, db, now):
    url = fixture_server.add("/feed.xml", status=429)
    refresh_source(make_source(url, now), now=now)
    with pytest.raises(fetch_module.HostCoolingDown) as paused:
        fetch(url)
    assert 55 <= paused.value.retry_after <= politeness.DEFAULT_COOLDOWN_SECONDS
    assert len(fixture_server.requests) == 1


def test_a_short_retry_after_is_waited_out_within_the_deadline(fixture_server, db):
    url = fixture_server.add("/feed.xml", rss("a"))
    # As note_retry_after() records it, but for 0.3 s rather than its 1 s minimum.
    cache.set("politeness:not-before:localhost", time.time() + 0.3, timeout=2)
    started = time.monotonic()
    assert fetch(url).status == 200
    assert 0.25 < time.monotonic() - started < 1.0


# --- Redirects ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "target_status", "target_body", "moves"),
    [
        (301, 200, rss("a"), True),
        (308, 200, rss("a"), True),
        (301, 500, "", False),  # the target failed: keep the address that worked
        (301, 200, "not a feed at all", False),  # the target is not a feed: keep it too
        (302, 200, rss("a"), False),  # temporary: never rewrite
        (307, 200, rss("a"), False),
    ],
)
def test_a_permanent_redirect_moves_the_stored_url_only_after_the_target_fetched_fine(
    fixture_server, db, now, status, target_status, target_body, moves
):
    old = fixture_server.add("/old.xml", status=status, Location="/new.xml")
    new = fixture_server.add("/new.xml", target_body, status=target_status)
    source = make_source(old, now)
    outcome = refresh_source(source, now=now)
    assert outcome.ok is (target_status == 200 and "rss" in target_body)
    assert reload(source).url == (new if moves else old)


# --- Minimum interval and FetchLogs -------------------------------------------------------------


def test_a_feed_refreshed_less_than_30_minutes_ago_is_not_fetched_again(fixture_server, db, now):
    source = make_source(fixture_server.add("/feed.xml", rss("a")), now)
    refresh_source(source, now=now)
    Source.objects.filter(pk=source.pk).update(next_refresh_at=now)  # e.g. a redelivered task
    (outcome,) = refresh_many([source.pk], now=now + 20 * MIN)
    assert outcome.skipped
    assert len(fixture_server.requests) == 1
    assert FetchLog.objects.count() == 1
    assert reload(source).next_refresh_at == now + 30 * MIN
    # A failing feed is not held to it: its backoff is shorter on purpose.
    broken = make_source(fixture_server.add("/broken.xml", status=500), now)
    refresh_source(broken, now=now)
    (outcome,) = refresh_many([broken.pk], now=now + 5 * MIN)
    assert not outcome.skipped
    assert reload(broken).consecutive_failures == 2


def test_every_refresh_writes_exactly_one_fetch_log(fixture_server, db, now):
    url = fixture_server.add("/feed.xml", rss("a", "b", "c"), ETag='"v1"')
    source = make_source(url, now)
    refresh_source(source, now=now)
    fixture_server.add("/feed.xml", status=304)
    refresh_source(reload(source), now=now + 60 * MIN)
    fixture_server.add("/feed.xml", status=500)
    refresh_source(reload(source), now=now + 120 * MIN)
    fixture_server.add("/feed.xml", "garbage")
    refresh_source(reload(source), now=now + 180 * MIN)
    logs = list(FetchLog.objects.order_by("started_at").values_list("outcome", "http_status"))
    assert logs == [("ok", 200), ("not_modified", 304), ("error", 500), ("error", 200)]
    first = FetchLog.objects.order_by("started_at").first()
    assert (first.fetched, first.inserted) == (3, 3)


# --- Batches: refresh_many and the tick ---------------------------------------------------------


@pytest.fixture
def many_hosts(monkeypatch) -> list[str]:
    """Names h1.test … h3.test resolving to 127.0.0.1 and allowed as test-only loopback hosts."""
    names = ["h1.test", "h2.test", "h3.test"]
    real = socket.getaddrinfo

    def resolve(host, port, *args, **kwargs):
        return real("127.0.0.1" if host in names else host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    with override_settings(FETCH_TEST_ONLY_LOOPBACK_HOSTS=("localhost", *names)):
        yield names


def test_refresh_many_fetches_concurrently_and_stores_every_source(
    counting_server, many_hosts, db, now
):
    counting_server.delay = 0.2
    sources = [
        make_source(f"http://{host}:{counting_server.port}/{host}-{n}.xml", now)
        for host in many_hosts
        for n in range(2)
    ]
    started = time.monotonic()
    outcomes = refresh_many([s.pk for s in sources], now=now, concurrency=6)
    elapsed = time.monotonic() - started
    assert sorted(o.source.pk for o in outcomes) == [s.pk for s in sources]
    assert all(o.ok and o.counts.inserted == 1 for o in outcomes)
    assert FetchLog.objects.count() == 6
    assert counting_server.peak > 2  # more than one host's limit: hosts are fetched in parallel
    assert elapsed < 1.0  # one at a time would take 1.2 s


@pytest.mark.django_db(transaction=True)
def test_refresh_many_outside_a_transaction_stores_every_result_once(counting_server, now):
    # Outside a transaction PostgreSQL stores on writer threads with their own connections;
    # SQLite stores on the calling thread. Either way: every source once, one log each.
    counting_server.delay = 0.0
    sources = [make_source(counting_server.url(f"/w{n}.xml"), now) for n in range(8)]
    outcomes = refresh_many([s.pk for s in sources], now=now, concurrency=4)
    assert sorted(o.source.pk for o in outcomes) == [s.pk for s in sources]
    assert all(o.ok for o in outcomes)
    assert FetchLog.objects.filter(outcome="ok").count() == 8
    assert ContentItem.objects.count() == 8
    assert Source.objects.filter(next_refresh_at=now + 60 * MIN).count() == 8


def test_the_tick_hands_claimed_sources_over_in_batches(db, now, monkeypatch):
    monkeypatch.setattr(scheduler, "SOURCE_BATCH", 2)
    sources = [make_source(f"https://feeds{n}.example/rss", now) for n in range(5)]
    batches: list[list[int]] = []
    singles: list[int] = []
    result = scheduler.tick(
        now=now, run_source=singles.append, run_sources=batches.append, run_run=lambda _: None
    )
    assert singles == []
    assert [len(batch) for batch in batches] == [2, 2, 1]
    assert sorted(itertools.chain(*batches)) == sorted(result.sources)
    assert sorted(result.sources) == sorted(s.pk for s in sources)
    lease = now + timedelta(seconds=settings.WORK_LEASE_SECONDS)
    assert Source.objects.filter(lease_expires_at=lease, attempts=1).count() == 5


def test_the_tick_runs_a_batch_inline_through_refresh_many(fixture_server, db, now):
    source = make_source(fixture_server.add("/feed.xml", rss("a")), now)
    result = scheduler.tick(
        now=now,
        run_source=lambda _: pytest.fail("sources go in batches"),
        run_sources=lambda ids: refresh_many(ids, now=now),
        run_run=lambda _: None,
    )
    assert result.sources == [source.pk]
    refreshed = reload(source)
    assert refreshed.next_refresh_at == now + 60 * MIN
    assert (refreshed.attempts, refreshed.lease_expires_at) == (0, None)  # lease released
    assert ContentItem.objects.count() == 1


def test_a_claimed_source_is_not_claimed_again_while_its_lease_holds(db, now):
    source = make_source("https://feeds.example/rss", now)
    lease = timedelta(seconds=settings.WORK_LEASE_SECONDS)
    assert [s.pk for s in claim_due_sources(now=now)] == [source.pk]
    assert claim_due_sources(now=now + lease - timedelta(seconds=1)) == []
    # Its worker died: once the lease is over, the next tick claims it again.
    again = claim_due_sources(now=now + lease + timedelta(seconds=1))
    assert [(s.pk, s.attempts) for s in again] == [(source.pk, 2)]


def test_a_source_whose_worker_dies_every_time_backs_off_as_a_failure(db, now):
    source = make_source("https://feeds.example/rss", now)
    lease = timedelta(seconds=settings.WORK_LEASE_SECONDS) + timedelta(seconds=1)
    at = now
    for _attempt in range(MAX_REFRESH_ATTEMPTS):
        assert [s.pk for s in claim_due_sources(now=at)] == [source.pk]
        at += lease
    assert claim_due_sources(now=at) == []
    gave_up = reload(source)
    assert (gave_up.attempts, gave_up.lease_expires_at) == (0, None)
    assert gave_up.consecutive_failures == 1
    assert gave_up.next_refresh_at == at + 5 * MIN
    assert "3 times in a row" in gave_up.last_error
    assert FetchLog.objects.get().outcome == "error"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_tickers_claim_every_due_source_exactly_once(now):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent claims are tested on PostgreSQL (SQLite serializes writers)")
    Source.objects.bulk_create(
        Source(
            type=Source.Type.FEED,
            config={"url": f"https://f{n}.example/rss"},
            config_hash=f"claim-{n:04d}",
            url=f"https://f{n}.example/rss",
            next_refresh_at=now - timedelta(seconds=n),
        )
        for n in range(200)
    )
    barrier = threading.Barrier(2)
    claimed: list[list[int]] = [[], []]
    errors: list[Exception] = []

    def ticker(index: int) -> None:
        try:
            barrier.wait(10)
            claimed[index] = [s.pk for s in claim_due_sources(now=now, limit=200)]
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=ticker, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    first, second = map(set, claimed)
    assert first.isdisjoint(second)
    assert first | second == set(Source.objects.values_list("pk", flat=True))
    assert len(first) + len(second) == 200
    lease = now + timedelta(seconds=settings.WORK_LEASE_SECONDS)
    assert Source.objects.filter(lease_expires_at=lease, attempts=1).count() == 200


# --- Politeness -----------------------------------------------------------------------------------


class CountingServer:
    """Answers every GET with a one-item feed after `delay` seconds; counts requests in flight.

    A request stops counting just before its answer is sent, so the server never counts more
    than the client holds (a client releases its slot only after reading the answer)."""

    def __init__(self):
        self.delay = 0.1
        self.in_flight = 0
        self.peak = 0
        self.starts: list[float] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                with server.lock:
                    server.in_flight += 1
                    server.peak = max(server.peak, server.in_flight)
                    server.starts.append(time.monotonic())
                time.sleep(server.delay)
                with server.lock:
                    server.in_flight -= 1
                body = rss(self.path.strip("/")).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/rss+xml")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.loopback = LoopbackServer(Handler).start()
        self.port = self.loopback.port

    def url(self, path: str = "/feed.xml") -> str:
        return self.loopback.url(path)


@pytest.fixture
def counting_server() -> Iterator[CountingServer]:
    server = CountingServer()
    with override_settings(FETCH_TEST_ONLY_LOOPBACK_HOSTS=("localhost",)):
        yield server
    server.loopback.stop()


def fetch_in_parallel(urls: list[str]) -> list[object]:
    results: list[object] = [None] * len(urls)

    def one(index: int) -> None:
        try:
            results[index] = fetch(urls[index]).status
        except fetch_module.FetchError as exc:
            results[index] = exc

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(urls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def test_six_parallel_fetches_to_one_host_keep_at_most_two_in_flight(counting_server):
    results = fetch_in_parallel([counting_server.url(f"/{n}.xml") for n in range(6)])
    assert results == [200] * 6
    assert counting_server.peak == 2


class _StartRecordingCache:
    """The politeness cache, noting every start the client confirms: the very timestamp it
    stores as a host's last start. Reading a clock after the turn is granted instead would
    add the thread's wake-up delay, which on a busy machine differs between requests."""

    def __init__(self, cache, starts: list[float]):
        self._cache, self._starts = cache, starts

    def set(self, key, value, *args, **kwargs):
        if key.startswith(politeness._key("last-start", "")):
            self._starts.append(value)
        return self._cache.set(key, value, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._cache, name)


@pytest.fixture
def turn_starts(monkeypatch) -> list[float]:
    """When each request's turn began (the moment the client may send), as the fetch client
    itself recorded it when it confirmed the start."""
    starts: list[float] = []
    monkeypatch.setattr(politeness, "cache", _StartRecordingCache(politeness.cache, starts))
    return starts


def test_requests_to_one_host_start_at_least_the_minimum_interval_apart(
    counting_server, turn_starts
):
    counting_server.delay = 0.0
    with override_settings(FETCH_HOST_MIN_INTERVAL_MS=200):
        results = fetch_in_parallel([counting_server.url(f"/{n}.xml") for n in range(3)])
    assert results == [200] * 3
    assert len(turn_starts) == 3
    gaps = [later - earlier for earlier, later in itertools.pairwise(sorted(turn_starts))]
    assert min(gaps) >= 0.2, gaps
    # What the server sees can only jitter by how long a request takes to leave the machine.
    assert len(counting_server.starts) == 3


def test_a_request_that_wakes_late_does_not_start_on_top_of_the_next(
    counting_server, monkeypatch, turn_starts
):
    """The first request oversleeps its reserved start by one interval (a busy machine), so it
    wakes just when the second request's turn comes: they must still start apart."""
    counting_server.delay = 0.0
    real_sleep_until = politeness._sleep_until
    overslept = []

    def oversleep_once(deadline, delay):
        if not overslept:
            overslept.append(True)
            delay += 0.25
        real_sleep_until(deadline, delay)

    monkeypatch.setattr(politeness, "_sleep_until", oversleep_once)
    with override_settings(FETCH_HOST_MIN_INTERVAL_MS=250):
        results = fetch_in_parallel([counting_server.url(f"/{n}.xml") for n in range(2)])
    assert results == [200] * 2
    first, second = sorted(turn_starts)
    assert second - first >= 0.25


def test_the_interval_is_per_host(counting_server, many_hosts):
    # Three hosts at once: none waits for another's interval. One wait would take 3 s (two, 6 s);
    # the margin below it is for a loaded machine (CI's other lane once stalled this 1.1 s).
    counting_server.delay = 0.0
    urls = [f"http://{host}:{counting_server.port}/feed.xml" for host in many_hosts]
    started = time.monotonic()
    with override_settings(FETCH_HOST_MIN_INTERVAL_MS=3000):
        assert fetch_in_parallel(urls) == [200] * 3
    assert time.monotonic() - started < 2.5


def test_a_host_at_its_limit_waits_and_a_crashed_holders_slot_expires(counting_server):
    # Two slots taken by a process that died mid-fetch: their leases run out by themselves.
    for index in range(politeness.MAX_IN_FLIGHT_PER_HOST):
        cache.add(f"politeness:slot:localhost:{index}", "dead-process", timeout=0.3)
    started = time.monotonic()
    assert fetch(counting_server.url()).status == 200
    assert 0.25 < time.monotonic() - started < 1.0


def test_waiting_for_a_busy_host_is_bounded_by_the_fetch_deadline(counting_server, monkeypatch):
    monkeypatch.setattr(fetch_module, "TOTAL_DEADLINE_SECONDS", 0.3)
    for index in range(politeness.MAX_IN_FLIGHT_PER_HOST):
        cache.add(f"politeness:slot:localhost:{index}", "someone-else", timeout=60)
    started = time.monotonic()
    with pytest.raises(FetchTimeout) as timeout:
        fetch(counting_server.url())
    assert time.monotonic() - started < 0.6
    assert "busy with other requests" in timeout.value.message
    assert counting_server.starts == []


def test_slots_are_released_after_failures_too(fixture_server):
    url = fixture_server.add("/gone", status=404)
    for _ in range(3):
        with pytest.raises(fetch_module.HTTPStatusError):
            fetch(url)
    assert cache.get("politeness:slot:localhost:0") is None
    assert cache.get("politeness:slot:localhost:1") is None


@pytest.fixture
def redis_cache(redis_cache_settings) -> dict:
    return redis_cache_settings


def test_two_processes_share_the_per_host_limit_through_redis(counting_server, redis_cache):
    # This process and a spawned one (its own interpreter, its own Django) fetch from one host
    # at the same time, 3 requests each; only the Redis cache connects them.
    counting_server.delay = 0.3
    spawn = multiprocessing.get_context("spawn")
    barrier = spawn.Barrier(2)
    results = spawn.Queue()
    other = spawn.Process(
        target=fetch_in_threads,
        args=(counting_server.url("/other.xml"), redis_cache, 3, barrier, results),
    )
    other.start()
    try:
        barrier.wait(timeout=60)
        here = fetch_in_parallel([counting_server.url(f"/here{n}.xml") for n in range(3)])
        there = results.get(timeout=60)
    finally:
        other.join(10)
    assert here == [200] * 3
    assert there == ["200"] * 3
    assert len(counting_server.starts) == 6
    assert counting_server.peak == 2  # each process alone would have allowed 2


def test_a_listing_never_overwrites_what_a_feed_says_about_an_item(db, now):
    from ingest.pool.entries import ParsedEntry
    from ingest.pool.upsert import upsert_entries

    def entry(title, description):
        return ParsedEntry(
            url="https://news.example/story",
            entry_id="https://news.example/story",
            title=title,
            description=description,
            content_html="",
            author="",
            published_at=None,
        )

    feed = Source.objects.create(type="feed", config={"url": "f"}, config_hash="f")
    listing = Source.objects.create(type="list", config={"url": "l"}, config_hash="l")
    upsert_entries(feed, [entry("Vacuum explained", "A long summary from the feed.")], now=now)
    upsert_entries(listing, [entry("Vacuum explained (updated 3 min ago)", "3 min ago")], now=now)
    item = ContentItem.objects.get()
    assert (item.title, item.description) == ("Vacuum explained", "A long summary from the feed.")
    assert item.sightings.count() == 2
    upsert_entries(feed, [entry("Vacuum, explained", "The feed's new summary.")], now=now)
    item.refresh_from_db()
    assert (item.title, item.description) == ("Vacuum, explained", "The feed's new summary.")
