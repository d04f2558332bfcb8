"""`pages`: public edition pages served by gunicorn (2 workers, production settings), loaded
from a second process on loopback.

Data: one public topic with 100 editions × 30 items (3,000 edition items). Load: a Python
client process with CLIENT_THREADS keep-alive connections, REQUESTS requests per measurement.

- static: a static file through the same server (whitenoise) — the baseline;
- cached: the same edition page again and again (anonymous: server-side page cache + ETag);
- uncached: an edition page with a unique query string each time, so every request renders
  (one connection, so its latency is the server's render time, not queueing).

ratio = cached edition page req/s ÷ static file req/s (goal >= 0.8); goal uncached p50 <= 30 ms.

Sizes (tests/bench/sizes.py): full = 100 editions, 3,000 requests per measurement, 300
uncached renders; small = 30 editions, 1,000 requests, 100 renders; smoke = 10 editions, 200
requests, 30 renders. Every response must be a 200 (the benchmark stops otherwise).
"""

from __future__ import annotations

import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection

from ingest.models import ContentItem
from topics.models import Edition, EditionItem, Topic

EDITIONS = {"full": 100, "small": 30, "smoke": 10}
ITEMS_PER_EDITION = 30
REQUESTS = {"full": 3000, "small": 1000, "smoke": 200}
ROUNDS = 5
UNCACHED_REQUESTS = {"full": 300, "small": 100, "smoke": 30}
WARM_UP = {"full": 50, "small": 50, "smoke": 10}
CLIENT_THREADS = 8
NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)
ROOT = Path(__file__).resolve().parents[2]


def _populate(editions: int) -> str:
    owner = User.objects.create_user("pages-bench", "pages@bench.example", "x")
    topic = Topic.objects.create(
        slug="bench-topic",
        title="Bench topic",
        description="A topic with a hundred editions.",
        owner=owner,
        cron="0 8 * * *",
        timezone="UTC",
        last_edition_at=NOW,
    )
    items = ContentItem.objects.bulk_create(
        ContentItem(
            canonical_url=f"https://news.example/{n}",
            canonical_url_hash=f"{n:064d}",
            title=f"Story {n}: what changed in release {n} and why it matters",
            description="A summary of two sentences. It is long enough to look real.",
            first_seen_at=NOW,
            last_seen_at=NOW,
        )
        for n in range(editions * ITEMS_PER_EDITION)
    )
    made = Edition.objects.bulk_create(
        Edition(
            topic=topic,
            edition_date=date(2026, 11, 22) - timedelta(days=n),
            status=Edition.Status.SUCCEEDED,
            scheduled_at=NOW - timedelta(days=n),
            published_at=NOW - timedelta(days=n),
            finished_at=NOW - timedelta(days=n),
            item_count=ITEMS_PER_EDITION,
            narrative_md="**Story** leads this issue.\n\nSources:\n1. [Story](https://x.example)",
        )
        for n in range(editions)
    )
    EditionItem.objects.bulk_create(
        EditionItem(
            edition=edition,
            item=items[e * ITEMS_PER_EDITION + rank],
            canonical_url_hash=items[e * ITEMS_PER_EDITION + rank].canonical_url_hash,
            rank=rank + 1,
            overall=80,
            title=items[e * ITEMS_PER_EDITION + rank].title,
            url=items[e * ITEMS_PER_EDITION + rank].canonical_url,
            summary="A summary of two sentences. It is long enough to look real.",
            source_name="News Example",
            published_at=NOW,
        )
        for e, edition in enumerate(made)
        for rank in range(ITEMS_PER_EDITION)
    )
    middle = made[editions // 2]
    return f"/topics/{topic.slug}/editions/{middle.edition_date:%Y-%m-%d}"


def _database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or "postgres"
    return (
        f"postgres://{user}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _start_server(
    data_dir: str,
    port: int,
    *,
    secret_key: str = "pages-benchmark-" + "x" * 40,
    collect_static: bool = True,
    root: Path = ROOT,
) -> subprocess.Popen:
    """gunicorn serving the checkout at `root` (another checkout: the code before a change,
    tests/bench/load.py's turns)."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": secret_key,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": _database_url(),
        "TIDINGS_DATA_DIR": data_dir,
        "SITE_URL": f"http://127.0.0.1:{port}",
    }
    env.pop("REDIS_URL", None)
    if collect_static:  # a second server in the same run finds them collected
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=root,
            env=env,
            check=True,
        )
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "--workers",
            "2",
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
            # A first request on a loaded machine imports most of the project: not a hang.
            "--timeout",
            "120",
        ],
        cwd=root,
        env=env,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("gunicorn did not start")


def _load(
    port: int, paths: list[str], *, threads: int = CLIENT_THREADS, expect: int = 200
) -> tuple[float, list[float]]:
    """Requests `paths` (split across `threads` keep-alive connections); returns req/s and
    each request's latency in ms."""
    latencies: list[float] = []
    lock = threading.Lock()
    errors: list[str] = []

    def worker(share: list[str]) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        mine = []
        for path in share:
            started = time.perf_counter()
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            mine.append((time.perf_counter() - started) * 1000)
            if response.status != expect:
                errors.append(f"{path}: {response.status}")
        conn.close()
        with lock:
            latencies.extend(mine)

    shares = [paths[n::threads] for n in range(threads)]
    clients = [threading.Thread(target=worker, args=(share,)) for share in shares]
    started = time.perf_counter()
    for client in clients:
        client.start()
    for client in clients:
        client.join()
    elapsed = time.perf_counter() - started
    if errors:
        raise RuntimeError(f"unexpected responses, e.g. {errors[:3]}")
    return len(paths) / elapsed, latencies


def _combine(rounds: list[tuple[float, list[float]]]) -> tuple[float, list[float]]:
    """Requests per second over all rounds (total requests / total time), all latencies."""
    requests = sum(len(latencies) for _rps, latencies in rounds)
    seconds = sum(len(latencies) / rps for rps, latencies in rounds)
    return requests / seconds, [ms for _rps, latencies in rounds for ms in latencies]


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(size: str = "full") -> dict:
    editions, requests = EDITIONS[size], REQUESTS[size]
    page = _populate(editions)
    connection.close()  # the server's workers open their own
    with tempfile.TemporaryDirectory() as data_dir:
        port = _free_port()
        server = _start_server(data_dir, port)
        try:
            static = f"{settings.STATIC_URL}css/tidings.css"
            _load(port, [static, page] * WARM_UP[size])  # warm both workers
            # Alternating rounds, so a busy moment on the machine hits both alike.
            static_rounds, cached_rounds = [], []
            for _ in range(ROUNDS):
                static_rounds.append(_load(port, [static] * (requests // ROUNDS)))
                cached_rounds.append(_load(port, [page] * (requests // ROUNDS)))
            static_rps, static_ms = _combine(static_rounds)
            cached_rps, cached_ms = _combine(cached_rounds)
            # One connection: the latency of a render, not of a queue in front of it.
            uncached_rps, uncached_ms = _load(
                port, [f"{page}?u={n}" for n in range(UNCACHED_REQUESTS[size])], threads=1
            )
        finally:
            server.terminate()
            server.wait(timeout=10)
    return {
        "name": "pages",
        "database": connection.vendor,
        "size": size,
        "editions": editions,
        "items_per_edition": ITEMS_PER_EDITION,
        "requests": requests,
        "client_threads": CLIENT_THREADS,
        "static_rps": round(static_rps, 1),
        "cached_rps": round(cached_rps, 1),
        "uncached_rps": round(uncached_rps, 1),
        "static_p50_ms": round(statistics.median(static_ms), 2),
        "cached_p50_ms": round(statistics.median(cached_ms), 2),
        "uncached_p50_ms": round(statistics.median(uncached_ms), 2),
        "uncached_p95_ms": round(_percentile(uncached_ms, 0.95), 2),
        "ratio": round(cached_rps / static_rps, 3),
    }


def describe(result: dict) -> list[str]:
    return [
        f"pages on {result['database']} ({result['size']}): gunicorn 2 workers, "
        f"{result['editions']} editions x "
        f"{result['items_per_edition']} items, {result['requests']} requests over "
        f"{result['client_threads']} keep-alive connections",
        f"  static file      {result['static_rps']:>8} req/s  p50 {result['static_p50_ms']} ms",
        f"  cached edition   {result['cached_rps']:>8} req/s  p50 {result['cached_p50_ms']} ms",
        f"  uncached edition {result['uncached_rps']:>8} req/s  p50 {result['uncached_p50_ms']} ms"
        f"  p95 {result['uncached_p95_ms']} ms",
        f"  ratio cached/static = {result['ratio']} (goal >= 0.8); uncached p50 goal <= 30 ms",
    ]
