"""Requests to /mcp that no MCP client sends: each is refused before the SDK reads it, with a 4xx
in the API's error shape and quickly, never a 500 or an HTML page; a forged X-Forwarded-For
changes nothing (the address is REMOTE_ADDR unless proxies are trusted)."""

from __future__ import annotations

import json
import time

import pytest
from django.core.cache import cache

from inbox.assistants.http import MAX_REQUEST_BYTES
from tests.inbox.assistants.conftest import token_of
from tests.inbox.assistants.test_transport import HEADERS

LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
# Well past any stack: refused by depth, in milliseconds.
DEEP = b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"x": ' + (
    b"[" * 10_000 + b"]" * 10_000 + b"}}"
)
SEARCH_NUL = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/call",
    "params": {"name": "search_inbox", "arguments": {"q": "post\u0000gres"}},
}

CASES = {
    # (body, content type, extra headers) -> (status, error code)
    "a raw NUL byte": (
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list\x00", "params": {}}',
        "application/json",
        {},
        400,
        "parse_error",
    ),
    "an escaped NUL in a tool argument": (
        json.dumps(SEARCH_NUL).encode(),
        "application/json",
        {},
        400,
        "bad_text",
    ),
    "10,000 levels of nesting": (DEEP, "application/json", {}, 400, "too_deep"),
    "a body over the limit": (
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"x": "'
        + b"a" * (3 * MAX_REQUEST_BYTES)
        + b'"}}',
        "application/json",
        {},
        413,
        "too_large",
    ),
    "not UTF-8": (
        b'{"jsonrpc": "2.0", "id": 1, "method": "\xff\xfe"}',
        "application/json",
        {},
        400,
        "parse_error",
    ),
    "text/plain": (json.dumps(LIST).encode(), "text/plain", {}, 415, "unsupported_media_type"),
    "a form": (
        b"jsonrpc=2.0&method=tools/list",
        "application/x-www-form-urlencoded",
        {},
        415,
        "unsupported_media_type",
    ),
    "a forged session id": (
        json.dumps(LIST).encode(),
        "application/json",
        {"Mcp-Session-Id": "forged-" + "x" * 5000},
        404,
        "not_found",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_request_is_a_4xx_in_the_error_shape_in_bounded_time(client, alice, case):
    body, content_type, extra, status, code = CASES[case]
    headers = HEADERS | extra | {"Authorization": f"Bearer {token_of(alice)}"}
    client.get("/mcp", headers=headers)  # the first request imports the URLconf's views
    started = time.monotonic()
    response = client.post("/mcp", body, content_type=content_type, headers=headers)
    assert time.monotonic() - started < 2
    assert response.status_code == status, response.content[:300]
    error = response.json()["error"]
    assert error["code"] == code and error["message"]
    assert {"code", "message", "fields"} <= set(error)
    assert response["Cache-Control"] == "private, no-store"


@pytest.mark.django_db
def test_a_length_claimed_over_the_limit_is_refused_before_reading(client, alice):
    response = client.generic(
        "POST",
        "/mcp",
        json.dumps(LIST).encode(),
        content_type="application/json",
        headers=HEADERS | {"Authorization": f"Bearer {token_of(alice)}"},
        CONTENT_LENGTH=str(50 * MAX_REQUEST_BYTES),
    )
    assert response.status_code == 413 and response.json()["error"]["code"] == "too_large"


@pytest.mark.django_db
def test_a_forged_forwarded_for_neither_fails_nor_dodges_the_rate_limit(client, alice, settings):
    cache.clear()
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "token": "2/min",
        },
    }
    token = token_of(alice)
    statuses = []
    for n, forged in enumerate(["1.2.3.4", "<script>, ::1", "9" * 3000]):
        response = client.post(
            "/mcp",
            json.dumps(LIST | {"id": n}),
            content_type="application/json",
            headers=HEADERS | {"Authorization": f"Bearer {token}", "X-Forwarded-For": forged},
        )
        statuses.append(response.status_code)
    assert statuses == [200, 200, 429]
    assert response.json()["error"]["code"] == "throttled"
