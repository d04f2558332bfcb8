"""`load`: the product under concurrent load — a real load generator (locust, headless) against
gunicorn with 2 workers and production settings, on loopback, all on this machine's cores.

Data (full; `small` and `smoke` are smaller): 40 readers with 2,000 delivered items each
(80,000 run items; 30 % read, 5 % saved), one API token and one signed-in session each; one
public topic with 30 editions of 30 items. Three measurements of DURATION each, with
CLIENTS concurrent locust users that never pause:

- public: anonymous visitors on the home page, the topics list, a topic and an edition page;
- inbox: signed-in readers on their own Inbox (4 in 5 the first page, 1 in 5 Unread);
- api: token clients on `GET /api/v1/inbox/items` (3 in 4) and `/api/v1/subscriptions`.

- inbox_uncached: the same readers with the Inbox page cache off (INBOX_PAGE_CACHE_SECONDS=0,
  a server of its own): every view rendered, as before the cache — the baseline.

Each reports requests/s, p50 and p99 latency and errors, from locust's own statistics.

Old code against new, in turns (TIDINGS_LOAD_BASELINE=/path/to/another/checkout, e.g. a
`git worktree` of main at the branch point): two gunicorns on the same database, one per
checkout, and each measurement made PAIRS times on each, TURN_SECONDS a turn, which one goes
first alternating; per measurement the median of the turns and the median of the per-pair
ratios new ÷ old (requests/s), so that load from other work on the machine cancels out. Adds
`api_uncached` (the API with the page caches off).

Each measurement also reports CPU time per request (tests/bench/cpu_time.py): the server's
(its gunicorn processes and the PostgreSQL backends; on SQLite the database is inside the
workers) and the load generator's. Locust runs on the same cores as the server, so requests/s
compares two servers only as far as the client's share of the machine allows; in turns, old ÷
new server CPU per request (median of the pairs) is what each request costs each server.

In both modes the throttles keep counting every request, at rates no client reaches here (a
429 would be cheaper than an answer, and a fast run met the token's 300/min).
ratio = Inbox requests/s ÷ Inbox with its page cache off (goal ≥ 3). The issue's figure before
this work, on this machine: Inbox 63 requests/s at p50 292 ms (20 clients).
"""

from __future__ import annotations

import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test import override_settings

from inbox.tokens import issue_token
from tests.bench import inbox as inbox_bench
from tests.bench import pages as pages_bench
from tests.bench.cpu_time import Snapshot, per_request_ms

SIZES = {
    # readers, items per reader, seconds per measurement
    "smoke": (4, 100, 5),
    "small": (20, 500, 10),
    "full": (40, 2000, 30),
}
CLIENTS = 20
EDITIONS = 30
SECRET_KEY = "load-benchmark-" + "x" * 40
PAIRS = 4
TURN_SECONDS = {"smoke": 6, "small": 8, "full": 15}
# Every server of the benchmark: throttles count every request but refuse none.
UNTHROTTLED = {"API_TOKEN_RATE": "1000000/min", "API_USER_RATE": "1000000/min"}
ROOT = Path(__file__).resolve().parents[2]


def _readers(count: int, items: int) -> tuple[list[str], list[str]]:
    sessions, tokens = [], []
    with override_settings(SECRET_KEY=SECRET_KEY):  # the server's key signs its sessions
        for n in range(count):
            user = inbox_bench._user(n)
            user.set_unusable_password()
            user.save(update_fields=["password"])
            inbox_bench._deliver(user, items, offset=n * items)
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "inbox.auth_backends.EmailBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            sessions.append(session.session_key)
            tokens.append(issue_token(user, "load")[1])
    return sessions, tokens


def _public_topic() -> list[str]:
    """The `pages` benchmark's public topic, and the public pages to visit."""
    edition_page = pages_bench._populate(EDITIONS)
    topic_page = edition_page.split("/editions/")[0]
    return ["/", "/topics", topic_page, edition_page]


def _locust(
    user_class: str, host: str, credentials: Path, seconds: int, folder: Path, server_pid: int
) -> dict:
    prefix = folder / user_class
    database = connection.settings_dict["NAME"] if connection.vendor == "postgresql" else None
    before = Snapshot.take(server_pid, database)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "locust",
            "-f",
            str(ROOT / "tests" / "bench" / "locustfile.py"),
            user_class,
            "--headless",
            "--users",
            str(CLIENTS),
            "--spawn-rate",
            str(CLIENTS),
            "--run-time",
            f"{seconds}s",
            "--host",
            host,
            "--csv",
            str(prefix),
            "--only-summary",
            "--loglevel",
            "WARNING",
        ],
        cwd=ROOT,
        env={**os.environ, "TIDINGS_LOAD_CREDENTIALS": str(credentials)},
        check=False,  # locust exits 1 when any request failed; the figures say so
        stdout=subprocess.DEVNULL,
        stderr=open(f"{prefix}.log", "w"),  # noqa: SIM115 - closed with the process
    )
    spent = Snapshot.take(server_pid, database).seconds_since(before)
    with open(f"{prefix}_stats.csv") as file:
        rows = {row["Name"]: row for row in csv.DictReader(file)}
    total = rows["Aggregated"]
    if total["Request Count"] == "0":
        raise RuntimeError(f"locust made no request:\n{Path(f'{prefix}.log').read_text()[-3000:]}")
    requests = int(total["Request Count"])
    return {
        "requests": requests,
        "errors": int(total["Failure Count"]),
        "requests_per_second": round(float(total["Requests/s"]), 1),
        "p50_ms": float(total["50%"]),
        "p99_ms": float(total["99%"]),
        # What each request cost the server (gunicorn and the database) and the load
        # generator, in CPU time: the client shares the cores (tests/bench/cpu_time.py).
        **per_request_ms(spent, requests),
    }


def _warm_up(host: str, public_paths: list[str], session: str, token: str) -> None:
    """Each gunicorn worker imports the views on its first requests: not part of the figures."""
    import urllib.request

    requests = [urllib.request.Request(host + path) for path in public_paths]
    requests.append(
        urllib.request.Request(host + "/inbox/", headers={"Cookie": f"sessionid={session}"})
    )
    requests.append(
        urllib.request.Request(
            host + "/api/v1/inbox/items", headers={"Authorization": f"Bearer {token}"}
        )
    )
    for _round in range(4):
        for request in requests:
            with urllib.request.urlopen(request, timeout=180) as response:
                if response.status != 200:
                    raise RuntimeError(f"{request.full_url}: {response.status}")
                response.read()


def _measure(folder, credentials, seconds, cache_seconds, measured, sessions, tokens, paths):
    port = pages_bench._free_port()
    os.environ["INBOX_PAGE_CACHE_SECONDS"] = cache_seconds
    try:
        # Signing with the key the sessions were made with.
        server = pages_bench._start_server(
            str(folder / f"data-{cache_seconds}"),
            port,
            secret_key=SECRET_KEY,
            collect_static=cache_seconds == "0",  # the first of the two servers
        )
    finally:
        del os.environ["INBOX_PAGE_CACHE_SECONDS"]
    try:
        host = f"http://127.0.0.1:{port}"
        _warm_up(host, paths, sessions[0], tokens[0])
        return {
            name: _locust(user_class, host, credentials, seconds, folder, server.pid)
            for name, user_class in measured
        }
    finally:
        server.terminate()
        server.wait(30)


def _server(folder: Path, name: str, cache_seconds: str, root: Path, collect: bool):
    os.environ["INBOX_PAGE_CACHE_SECONDS"] = cache_seconds
    try:
        return pages_bench._start_server(
            str(folder / f"data-{name}-{cache_seconds}"),
            pages_bench._free_port(),
            secret_key=SECRET_KEY,
            collect_static=collect,
            root=root,
        )
    finally:
        del os.environ["INBOX_PAGE_CACHE_SECONDS"]


def _turns(size, baseline: Path, folder, credentials, sessions, tokens, paths) -> dict:
    """Old code (`baseline`) and new, measurement by measurement, in turns."""
    seconds = TURN_SECONDS[size]
    plan = (
        ("0", [("inbox_uncached", "InboxReader"), ("api_uncached", "ApiClient")]),
        ("3600", [("inbox", "InboxReader"), ("api", "ApiClient")]),
    )
    results = {}
    for cache_seconds, measured in plan:
        servers = {
            side: _server(folder, side, cache_seconds, root, _uncollected(root))
            for side, root in (("old", baseline), ("new", ROOT))
        }
        try:
            hosts = {side: f"http://127.0.0.1:{_port(s)}" for side, s in servers.items()}
            for host in hosts.values():
                _warm_up(host, paths, sessions[0], tokens[0])
            for name, user_class in measured:
                turns = {"old": [], "new": []}
                for pair in range(PAIRS):
                    order = ("old", "new") if pair % 2 == 0 else ("new", "old")
                    for side in order:
                        turns[side].append(
                            _locust(
                                user_class,
                                hosts[side],
                                credentials,
                                seconds,
                                folder,
                                servers[side].pid,
                            )
                        )
                results[name] = _summary(turns)
        finally:
            for server in servers.values():
                server.terminate()
                try:
                    server.wait(30)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait(30)
    return results


@contextmanager
def _throttles_counting_only():
    """The servers' throttles count every request but refuse none: the figures are answers, and
    a fast run would otherwise meet the token's 300/min (CI met it: 429s counted as failures)."""
    saved = {name: os.environ.get(name) for name in UNTHROTTLED}
    os.environ.update(UNTHROTTLED)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _uncollected(root: Path) -> bool:
    """Whether the checkout's static files still need collecting (each checkout has its own)."""
    return not (root / "staticfiles" / "staticfiles.json").exists()


def _port(server) -> int:
    return int(server.args[server.args.index("--bind") + 1].rsplit(":", 1)[1])


def _summary(turns: dict) -> dict:
    def median(side, key):
        return round(statistics.median(t[key] for t in turns[side]), 1)

    pairs = list(zip(turns["old"], turns["new"], strict=True))
    ratios = [
        new["requests_per_second"] / max(old["requests_per_second"], 0.01) for old, new in pairs
    ]
    summary = {
        **{
            f"{side}_{key}": median(side, key)
            for side in ("old", "new")
            for key in ("requests_per_second", "p50_ms")
        },
        "errors": sum(t["errors"] for side in turns.values() for t in side),
        "pair_ratios": [round(r, 2) for r in ratios],
        "ratio": round(statistics.median(ratios), 2),
    }
    if all("server_cpu_ms" in t for side in turns.values() for t in side):
        for side in ("old", "new"):
            for key in ("server_cpu_ms", "app_cpu_ms", "database_cpu_ms", "client_cpu_ms"):
                summary[f"{side}_{key}"] = round(statistics.median(t[key] for t in turns[side]), 3)
        # How many times less CPU the new server spends on a request, pair by pair.
        cpu_ratios = [old["server_cpu_ms"] / max(new["server_cpu_ms"], 0.001) for old, new in pairs]
        summary["server_cpu_pair_ratios"] = [round(r, 2) for r in cpu_ratios]
        summary["server_cpu_ratio"] = round(statistics.median(cpu_ratios), 2)
    return summary


def run(size: str = "full") -> dict:
    with _throttles_counting_only():
        return _run(size)


def _run(size: str) -> dict:
    readers, items, seconds = SIZES[size]
    sessions, tokens = _readers(readers, items)
    public_paths = _public_topic()
    connection.close()  # the server's workers get the database to themselves
    baseline = os.environ.get("TIDINGS_LOAD_BASELINE")
    if baseline:
        with tempfile.TemporaryDirectory() as folder:
            folder = Path(folder)
            credentials = folder / "credentials.json"
            credentials.write_text(
                json.dumps({"sessions": sessions, "tokens": tokens, "public_paths": public_paths})
            )
            turns = _turns(
                size, Path(baseline), folder, credentials, sessions, tokens, public_paths
            )
        return {
            "name": "load",
            "size": size,
            "database": connection.vendor,
            "cpus": os.cpu_count(),
            "clients": CLIENTS,
            "readers": readers,
            "items_per_reader": items,
            "baseline": baseline,
            "turns": turns,
            "checks": {f"{n}: no request failed": not r["errors"] for n, r in turns.items()},
        }
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        credentials = folder / "credentials.json"
        credentials.write_text(
            json.dumps({"sessions": sessions, "tokens": tokens, "public_paths": public_paths})
        )
        results = {}
        # The baseline: the same server with the Inbox page cache off (every view rendered).
        for cache_seconds, measured in (
            ("0", [("inbox_uncached", "InboxReader")]),
            (
                "3600",
                [
                    ("public", "PublicVisitor"),
                    ("inbox", "InboxReader"),
                    ("api", "ApiClient"),
                ],
            ),
        ):
            results |= _measure(
                folder,
                credentials,
                seconds,
                cache_seconds,
                measured,
                sessions,
                tokens,
                public_paths,
            )
    return {
        "name": "load",
        "size": size,
        "database": connection.vendor,
        "cpus": os.cpu_count(),
        "clients": CLIENTS,
        "seconds_each": seconds,
        "readers": readers,
        "items_per_reader": items,
        **results,
        "checks": {f"{name}: no request failed": not r["errors"] for name, r in results.items()},
        "ratio": round(
            results["inbox"]["requests_per_second"]
            / results["inbox_uncached"]["requests_per_second"],
            2,
        ),
    }


def describe(result: dict) -> list[str]:
    if "turns" in result:
        lines = [
            f"load benchmark on {result['database']}, old code ({result['baseline']}) and new in "
            f"turns ({PAIRS} pairs) — gunicorn with 2 workers each, locust with "
            f"{result['clients']} clients, {result['readers']} readers × "
            f"{result['items_per_reader']:,} delivered items"
        ]
        for name, r in result["turns"].items():
            lines.append(
                f"  {name:<14} old {r['old_requests_per_second']:>6.1f} req/s p50 "
                f"{r['old_p50_ms']:>5.0f} ms | new {r['new_requests_per_second']:>6.1f} req/s "
                f"p50 {r['new_p50_ms']:>5.0f} ms | new ÷ old {r['ratio']} "
                f"(pairs {r['pair_ratios']}) errors {r['errors']}"
            )
            if "server_cpu_ratio" in r:
                lines.append(
                    f"  {'':<14} CPU per request, server (app + database) old "
                    f"{r['old_server_cpu_ms']} ms ({r['old_app_cpu_ms']} + "
                    f"{r['old_database_cpu_ms']}) | new {r['new_server_cpu_ms']} ms "
                    f"({r['new_app_cpu_ms']} + {r['new_database_cpu_ms']}) | old ÷ new "
                    f"{r['server_cpu_ratio']} (pairs {r['server_cpu_pair_ratios']}); the load "
                    f"generator {r['old_client_cpu_ms']} / {r['new_client_cpu_ms']} ms"
                )
        return lines
    lines = [
        f"load benchmark on {result['database']} — gunicorn with 2 workers, locust with "
        f"{result['clients']} clients, all on {result['cpus']} CPUs, {result['seconds_each']} s "
        "each",
        f"  data: {result['readers']} readers × {result['items_per_reader']:,} delivered items, "
        f"a public topic with {EDITIONS} editions",
    ]
    for name in ("public", "inbox_uncached", "inbox", "api"):
        figures = result[name]
        cpu = (
            f"  CPU per request: server {figures['server_cpu_ms']} ms, load generator "
            f"{figures['client_cpu_ms']} ms"
            if "server_cpu_ms" in figures
            else ""
        )
        lines.append(
            f"  {name:<14} {figures['requests_per_second']:>7.1f} requests/s  "
            f"p50 {figures['p50_ms']:>6.0f} ms  p99 {figures['p99_ms']:>6.0f} ms  "
            f"errors {figures['errors']} of {figures['requests']:,}{cpu}"
        )
    lines.append(
        f"  ratio (Inbox ÷ Inbox with its page cache off, requests/s; goal ≥ 3): {result['ratio']}"
    )
    return lines
