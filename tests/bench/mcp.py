"""`mcp`: an assistant's read tools through the MCP endpoint against the same reads through the
JSON API, on a 10,000-item Inbox.

Data: tests/bench/inbox.py's: one user, 5 subscriptions, runs of 20 items (30 % read, 5 % saved,
2 % not interested), plus other users so the tables are not the user's alone.

Pairs (each through the whole Django stack with the test client: server time, no network;
MCP is one JSON-RPC `tools/call` POSTed to /mcp, stateless, answered in JSON):
- search_inbox (30 items)            vs GET /api/v1/inbox/items?limit=30
- search_inbox state=saved           vs GET /api/v1/inbox/items?state=saved&limit=30
- read_brief run_id                  vs GET /api/v1/runs/{id}
- list_subscriptions                 vs GET /api/v1/subscriptions
Each pair is measured interleaved (MCP, API, MCP, API…) so that load on the machine falls on
both halves alike; p50 and p99 per side, and ratio = median of the per-pair ratios MCP ÷ API
(goal ≤ 1.5). Queries per call are counted; they must not depend on the page.

Sizes (tests/bench/sizes.py): full = 10,000 items + 20 other users × 1,000, 200 pairs per
tool; small = 2,000 + 5 × 500, 100 pairs; smoke = 500 + 2 × 100, 20 pairs.
"""

from __future__ import annotations

import json
import statistics
import time

from django.conf import settings
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from digests.models import Run
from inbox.tokens import issue_token
from tests.bench.inbox import ITEMS, OTHER_ITEMS, OTHER_USERS, _deliver, _user

PAIRS = {"smoke": 20, "small": 100, "full": 200}
GOAL = 1.5
MCP_HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "MCP-Protocol-Version": "2025-06-18",
}


def _timed(send) -> tuple[float, int, object]:
    with CaptureQueriesContext(connection) as captured:
        started = time.perf_counter()
        response = send()
        seconds = time.perf_counter() - started
    return seconds, len(captured.captured_queries), response


def _mcp_call(client: Client, headers: dict, name: str, arguments: dict):
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }

    def send():
        response = client.post(
            "/mcp", json.dumps(body), content_type="application/json", headers=headers
        )
        assert response.status_code == 200, response.content[:300]
        result = response.json()["result"]
        assert not result.get("isError"), result
        return result

    return send


def _api_get(client: Client, headers: dict, url: str):
    def send():
        response = client.get(url, headers=headers)
        assert response.status_code == 200, response.content[:300]
        return response

    return send


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _pair(mcp_send, api_send, pairs: int) -> dict:
    mcp_send(), api_send()  # warm: the first call of each builds what later calls reuse
    mcp_times, api_times, ratios = [], [], []
    mcp_queries, api_queries = set(), set()
    for _ in range(pairs):
        mcp_seconds, mcp_count, _result = _timed(mcp_send)
        api_seconds, api_count, _response = _timed(api_send)
        mcp_times.append(mcp_seconds)
        api_times.append(api_seconds)
        ratios.append(mcp_seconds / api_seconds)
        mcp_queries.add(mcp_count)
        api_queries.add(api_count)
    return {
        "mcp_p50_ms": round(statistics.median(mcp_times) * 1000, 2),
        "mcp_p99_ms": round(_percentile(mcp_times, 0.99) * 1000, 2),
        "api_p50_ms": round(statistics.median(api_times) * 1000, 2),
        "api_p99_ms": round(_percentile(api_times, 0.99) * 1000, 2),
        "ratio": round(statistics.median(ratios), 3),
        "mcp_queries": sorted(mcp_queries),
        "api_queries": sorted(api_queries),
    }


def _unthrottled():
    """The rate limits off: hundreds of calls a minute from one user is the point here."""
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "user": None, "token": None}
    return override_settings(
        REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    )


def run(size: str = "full") -> dict:
    with _unthrottled():
        return _run(size)


def _run(size: str) -> dict:
    started = time.perf_counter()
    reader = _user(0)
    _deliver(reader, ITEMS[size], 0)
    for n in range(1, OTHER_USERS[size] + 1):
        _deliver(_user(n), OTHER_ITEMS[size], n * 100_000)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    setup_seconds = time.perf_counter() - started
    # Two tokens: the API's and the assistant's own, each with its own per-token allowance.
    api_headers = {"Authorization": f"Bearer {issue_token(reader, 'bench api')[1]}"}
    mcp_headers = MCP_HEADERS | {"Authorization": f"Bearer {issue_token(reader, 'bench mcp')[1]}"}
    client = Client()
    run_id = (
        Run.objects.filter(user=reader).order_by("-scheduled_at").values_list("pk", flat=True)[10]
    )
    calls = {
        "search_inbox": (
            _mcp_call(client, mcp_headers, "search_inbox", {"limit": 30}),
            _api_get(client, api_headers, "/api/v1/inbox/items?limit=30"),
        ),
        "search_inbox_saved": (
            _mcp_call(client, mcp_headers, "search_inbox", {"limit": 30, "state": "saved"}),
            _api_get(client, api_headers, "/api/v1/inbox/items?limit=30&state=saved"),
        ),
        "read_brief": (
            _mcp_call(client, mcp_headers, "read_brief", {"run_id": run_id}),
            _api_get(client, api_headers, f"/api/v1/runs/{run_id}"),
        ),
        "list_subscriptions": (
            _mcp_call(client, mcp_headers, "list_subscriptions", {}),
            _api_get(client, api_headers, "/api/v1/subscriptions"),
        ),
    }
    tools = {name: _pair(mcp, api, PAIRS[size]) for name, (mcp, api) in calls.items()}
    worst = max(figures["ratio"] for figures in tools.values())
    return {
        "size": size,
        "items": ITEMS[size],
        "other_users": OTHER_USERS[size],
        "pairs": PAIRS[size],
        "setup_seconds": round(setup_seconds, 1),
        "tools": tools,
        "ratio": worst,
        "goal": GOAL,
        "checks": {
            "MCP queries per call are constant": all(
                len(figures["mcp_queries"]) == 1 for figures in tools.values()
            ),
            **({"MCP ÷ API ≤ 1.5 (full size)": worst <= GOAL} if size == "full" else {}),
        },
    }


def describe(result: dict) -> list[str]:
    lines = [
        f"MCP read tools vs the JSON API: {result['items']:,} Inbox items "
        f"(+{result['other_users']} other users), {result['pairs']} interleaved pairs per tool "
        f"(set-up {result['setup_seconds']} s)"
    ]
    for name, figures in result["tools"].items():
        lines.append(
            f"  {name:<20} MCP p50 {figures['mcp_p50_ms']} ms p99 {figures['mcp_p99_ms']} ms "
            f"({figures['mcp_queries']} queries) | API p50 {figures['api_p50_ms']} ms p99 "
            f"{figures['api_p99_ms']} ms ({figures['api_queries']} queries) | "
            f"ratio {figures['ratio']}"
        )
    lines.append(f"worst ratio MCP ÷ API {result['ratio']} (goal ≤ {result['goal']})")
    return lines
