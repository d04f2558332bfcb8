"""`refresh`: one scheduled refresh cycle of 2,000 feeds against its ideal time.

Data: 2,000 feeds on 500 host names (4 feeds a host), served by a loopback server in its own
process that waits 100 ms before every response; every 5th feed publishes 2 new items per
cycle (10 items a feed), the other 80 % answer 304 to a conditional request. The first cycle
primes ETags; the second is measured: claim all due sources, then `refresh_many()` — fetch
and parse on REFRESH_CONCURRENCY threads, store per source — under the production politeness
settings (at most 2 requests in flight per host, 1 s between request starts to one host).

ideal = Σ latency ÷ fetch concurrency (what a perfect client with that many requests in
flight would need); ratio = ideal ÷ measured (1.0 is perfect; the goal is ≥ 0.5 on 2 cores).

Sizes (tests/bench/sizes.py): full = 2,000 feeds on 500 hosts; small = 400 on 100; smoke = 80
on 20 (4 feeds a host at every size, so each waits out the per-host interval alike; below full
the fixed 3 s of that wait weigh more, so the ratio is lower and says nothing about the goal).

Host names fNNN.bench.test resolve to 127.0.0.1 only inside this process (socket.getaddrinfo
is patched here), and only this process adds them to the test-only loopback allowance.

Checks: every feed was claimed and none failed in either cycle.
"""

from __future__ import annotations

import multiprocessing
import resource
import socket
import time
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import connection
from django.test import override_settings

from ingest.models import ContentItem, FetchLog, Source
from ingest.refresh.pipeline import claim_due_sources, refresh_many
from tests.bench.feed_server import serve

FEEDS = {"full": 2_000, "small": 400, "smoke": 80}
FEEDS_PER_HOST = 4
LATENCY_SECONDS = 0.1
CHANGING_EVERY = 5  # 20 % of feeds change every cycle, 80 % answer 304
HOST_SUFFIX = ".bench.test"
HOST_MIN_INTERVAL_MS = 1_000  # the production default (the test settings use 0)


def _host(number: int, hosts: int) -> str:
    return f"f{number % hosts:03d}{HOST_SUFFIX}"


def _resolve_bench_hosts_to_loopback() -> None:
    real_getaddrinfo = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if isinstance(host, str) and host.endswith(HOST_SUFFIX):
            host = "127.0.0.1"
        return real_getaddrinfo(host, port, *args, **kwargs)

    socket.getaddrinfo = getaddrinfo


def _create_sources(port: int, now: datetime, feeds: int) -> list[int]:
    sources = []
    for number in range(feeds):
        url = f"http://{_host(number, feeds // FEEDS_PER_HOST)}:{port}/f{number:04d}.xml"
        sources.append(
            Source(
                type=Source.Type.FEED,
                config={"url": url},
                config_hash=f"bench-refresh-{number:05d}",
                url=url,
                next_refresh_at=now,
            )
        )
    Source.objects.bulk_create(sources, batch_size=500)
    return list(Source.objects.values_list("pk", flat=True))


def _cycle(now: datetime, concurrency: int, feeds: int) -> dict:
    started = time.perf_counter()
    claimed = [s.pk for s in claim_due_sources(now=now, limit=feeds)]
    outcomes = refresh_many(claimed, now=now, concurrency=concurrency)
    elapsed = time.perf_counter() - started
    return {
        "seconds": elapsed,
        "claimed": len(claimed),
        "not_modified": sum(o.not_modified for o in outcomes),
        "changed": sum(o.ok and not o.not_modified for o in outcomes),
        "failed": sum(not o.ok for o in outcomes),
        "items": sum(o.counts.seen for o in outcomes),
        "inserted": sum(o.counts.inserted for o in outcomes),
        "errors": sorted({o.error for o in outcomes if not o.ok})[:3],
    }


def run(size: str = "full") -> dict:
    feeds = FEEDS[size]
    concurrency = settings.REFRESH_CONCURRENCY
    spawn = multiprocessing.get_context("spawn")
    ready, stop = spawn.Queue(), spawn.Event()
    server = spawn.Process(target=serve, args=(ready, stop, LATENCY_SECONDS, CHANGING_EVERY))
    server.start()
    try:
        port = ready.get(timeout=60)
        _resolve_bench_hosts_to_loopback()
        hosts = tuple(sorted({_host(n, feeds // FEEDS_PER_HOST) for n in range(feeds)}))
        with override_settings(
            FETCH_TEST_ONLY_LOOPBACK_HOSTS=hosts,
            FETCH_HOST_MIN_INTERVAL_MS=HOST_MIN_INTERVAL_MS,
        ):
            first_now = datetime.now(UTC)
            _create_sources(port, first_now, feeds)
            prime = _cycle(first_now, concurrency, feeds)
            # Two hours on: past every source's next check (60 min), so all are due again.
            measured = _cycle(first_now + timedelta(hours=2), concurrency, feeds)
    finally:
        stop.set()
        server_stats = ready.get(timeout=30)
        server.join(30)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    ideal = feeds * LATENCY_SECONDS / concurrency
    return {
        "name": "refresh",
        "database": connection.vendor,
        "size": size,
        "cache": settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1],
        "feeds": feeds,
        "hosts": len(hosts),
        "latency_ms": int(LATENCY_SECONDS * 1000),
        "changing_share": round(1 / CHANGING_EVERY, 2),
        "concurrency": concurrency,
        "per_host_in_flight": 2,
        "host_min_interval_ms": HOST_MIN_INTERVAL_MS,
        "prime_seconds": round(prime["seconds"], 3),
        "prime_failed": prime["failed"],
        "ideal_seconds": round(ideal, 3),
        "measured_seconds": round(measured["seconds"], 3),
        "claimed": measured["claimed"],
        "not_modified": measured["not_modified"],
        "changed": measured["changed"],
        "failed": measured["failed"],
        "errors": measured["errors"] + prime["errors"],
        "items": measured["items"],
        "inserted": measured["inserted"],
        "items_per_s": round(measured["items"] / measured["seconds"], 1),
        "feeds_per_s": round(measured["claimed"] / measured["seconds"], 1),
        "stored_items": ContentItem.objects.count(),
        "fetch_logs": FetchLog.objects.count(),
        "server_requests": server_stats["requests"],
        "peak_rss_mb": round(peak_kb / 1024, 1),
        "ratio": round(ideal / measured["seconds"], 2),
        "checks": {
            "every feed claimed in both cycles": prime["claimed"] == measured["claimed"] == feeds,
            "no fetch failed": prime["failed"] == measured["failed"] == 0,
        },
    }


def describe(result: dict) -> list[str]:
    return [
        f"refresh benchmark on {result['database']} ({result['size']}; cache: {result['cache']})",
        f"  data: {result['feeds']} feeds on {result['hosts']} hosts, "
        f"{result['latency_ms']} ms per response, {result['changing_share']:.0%} changed per "
        f"cycle, the rest 304; fetch concurrency {result['concurrency']}, "
        f"≤ {result['per_host_in_flight']} in flight and {result['host_min_interval_ms']} ms "
        "between starts per host",
        f"  priming cycle: {result['prime_seconds']} s ({result['prime_failed']} failed)",
        f"  measured cycle: {result['claimed']} sources in {result['measured_seconds']} s "
        f"({result['feeds_per_s']} feeds/s): {result['not_modified']} not modified, "
        f"{result['changed']} changed, {result['failed']} failed",
        f"  items: {result['items']} parsed, {result['inserted']} new = "
        f"{result['items_per_s']} items/s; peak RSS {result['peak_rss_mb']} MB",
        f"  ideal cycle (Σ latency ÷ concurrency): {result['ideal_seconds']} s",
        f"  ratio (ideal ÷ measured): {result['ratio']}",
        *(f"  error: {error}" for error in result["errors"]),
    ]
