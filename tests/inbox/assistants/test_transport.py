"""The endpoint in-process: one JSON-RPC message per POST, answered as JSON; the tools run in the
request's own thread, on its connection and inside its transaction — what a test's transaction
holds (not committed anywhere) is what the tools see."""

from __future__ import annotations

import json
import threading

import pytest

from digests.models import Subscription
from inbox.assistants import registry
from tests.inbox.assistants.conftest import deliver, token_of

HEADERS = {
    "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": "2025-06-18",
}


def rpc(client, token, method: str, params: dict) -> dict:
    response = client.post(
        "/mcp",
        json.dumps({"jsonrpc": "2.0", "id": 7, "method": method, "params": params}),
        content_type="application/json",
        headers=HEADERS | {"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("application/json")
    assert response["Cache-Control"] == "private, no-store"
    return response.json()


@pytest.mark.django_db
def test_tools_and_resources_run_in_the_request_thread_inside_its_transaction(
    client, alice, now, monkeypatch
):
    run = deliver(alice, now, "Databases", "PostgreSQL", ["PostgreSQL 18 released"])
    token = token_of(alice)
    threads = set()
    original = registry._call

    def recording(*args):
        threads.add(threading.get_ident())
        return original(*args)

    monkeypatch.setattr(registry, "_call", recording)
    answer = rpc(client, token, "tools/call", {"name": "read_brief", "arguments": {}})
    brief = answer["result"]["structuredContent"]["brief"]
    assert brief["id"] == run.pk  # uncommitted rows: only the request's transaction has them
    assert threads == {threading.get_ident()}  # the test client's request thread is this one
    uri = f"tidings://subscriptions/{run.subscription_id}/latest-brief"
    resource = rpc(client, token, "resources/read", {"uri": uri})
    assert "PostgreSQL 18 released" in resource["result"]["contents"][0]["text"]


@pytest.mark.django_db
def test_a_malformed_message_is_a_json_rpc_error_not_a_crash(client, alice):
    response = client.post(
        "/mcp",
        b'{"jsonrpc": "2.0", "id": 1, "method": ',
        content_type="application/json",
        headers=HEADERS | {"Authorization": f"Bearer {token_of(alice)}"},
    )
    assert 400 <= response.status_code < 500
    assert "error" in response.json()


HOSTILE = [
    ("mark_items", {"item_ids": "all", "action": "save"}),
    ("mark_items", {"item_ids": [1], "action": "delete_everything"}),
    ("mark_items", {"item_ids": list(range(1, 600)), "action": "read"}),
    ("search_inbox", {"q": "x" * 100_000}),
    ("search_inbox", {"limit": 10**12}),
    ("search_inbox", {"from_date": "yesterday"}),
    ("search_inbox", {"cursor": "../../etc/passwd"}),
    ("read_item", {"item_id": -1}),
    ("read_item", {"item_id": {"$gt": 0}}),
    ("read_item", {}),
    ("create_subscription", {"topic": "t" * 10_000}),
    ("create_subscription", {"topic": "heat pumps", "schedule": "whenever you like"}),
    ("create_subscription", {"topic": "heat pumps", "timezone": "Mars/Olympus_Mons"}),
    ("create_subscription", {"topic": "x", "confirmation": "forged.token"}),
    ("search_pool_items", {"terms": []}),
    ("follow_topic", {"slug": "../admin"}),
    ("estimate_cost", {"cron": "61 25 * * *"}),
    ("no_such_tool", {}),
]


@pytest.mark.django_db
def test_hostile_arguments_get_a_tool_error_never_a_crash(client, alice, now):
    """Each hostile call is a tool error (or a JSON-RPC error) in bounded words, and changes
    nothing. (Through the endpoint in-process: the transport itself is the live-server tests'.)"""
    deliver(alice, now, "Databases", "PostgreSQL", ["PostgreSQL 18 released"])
    token = token_of(alice)
    for name, arguments in HOSTILE:
        answer = rpc(client, token, "tools/call", {"name": name, "arguments": arguments})
        if "error" in answer:  # refused by the protocol layer
            text = answer["error"]["message"]
        else:
            assert answer["result"]["isError"], (name, arguments)
            text = answer["result"]["content"][0]["text"]
        assert text and "Traceback" not in text and len(text) < 5000, (name, text[:200])
    assert Subscription.objects.filter(owner=alice).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("authorization", [None, "Bearer tid_nope_nope", "Basic YTpi"])
def test_no_valid_token_is_refused_in_the_error_shape(client, authorization):
    headers = HEADERS | ({"Authorization": authorization} if authorization else {})
    response = client.post(
        "/mcp",
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}),
        content_type="application/json",
        headers=headers,
    )
    assert response.status_code == 401
    assert response.json()["error"]["code"] in ("not_authenticated", "authentication_failed")
