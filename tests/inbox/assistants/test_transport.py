"""The endpoint in-process: one JSON-RPC message per POST, answered as JSON; the tools run in the
request's own thread, on its connection and inside its transaction — what a test's transaction
holds (not committed anywhere) is what the tools see."""

from __future__ import annotations

import json
import threading

import pytest

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
