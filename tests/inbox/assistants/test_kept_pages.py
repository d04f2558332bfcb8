"""An assistant's Inbox search keeps its pages as the JSON API's list does (inbox/page_cache.py):
a repeated search costs the token's one query, and whatever changes the Inbox — the reader's
own action through any door, a delivery — shows in the next search."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.inbox.assistants.conftest import deliver, token_of
from tests.inbox.assistants.test_transport import rpc

pytestmark = pytest.mark.django_db


def search(client, token, **arguments) -> tuple[list[dict], str | None, int]:
    """The items and next cursor of one search_inbox call, and the queries it cost."""
    with CaptureQueriesContext(connection) as captured:
        answer = rpc(client, token, "tools/call", {"name": "search_inbox", "arguments": arguments})
    result = answer["result"]
    assert not result.get("isError"), result
    data = result["structuredContent"]
    return data["items"], data["next_cursor"], len(captured.captured_queries)


def titles(items: list[dict]) -> list[str]:
    return [item["untrusted"]["title"] for item in items]


def test_a_repeated_search_costs_the_tokens_one_query(client, alice, now):
    deliver(alice, now, "Databases", "PostgreSQL", [f"PostgreSQL note {n}" for n in range(8)])
    token = token_of(alice)
    for arguments in ({}, {"limit": 3}, {"state": "unread"}, {"q": "note 1"}):
        first, first_cursor, built = search(client, token, **arguments)
        again, again_cursor, queries = search(client, token, **arguments)
        assert queries == 1 < built  # the token, its user and their preferences (the version)
        assert (again, again_cursor) == (first, first_cursor) and again
    assert len(search(client, token, limit=3)[0]) == 3
    assert search(client, token, q="note 1")[0] != search(client, token)[0]


def test_the_next_page_by_cursor_is_its_own_page(client, alice, now):
    deliver(alice, now, "Databases", "PostgreSQL", [f"PostgreSQL note {n}" for n in range(5)])
    token = token_of(alice)
    first, cursor, _queries = search(client, token, limit=2)
    second, _cursor, _queries = search(client, token, limit=2, cursor=cursor)
    assert len(second) == 2 and not set(titles(first)) & set(titles(second))


def test_a_mark_through_the_tool_or_the_api_shows_in_the_next_search(client, alice, now):
    run = deliver(alice, now, "Databases", "PostgreSQL", ["PostgreSQL 18 released"])
    item_id = run.items.get().pk
    token = token_of(alice)
    assert search(client, token, state="saved")[0] == []
    assert search(client, token)[0][0]["read"] is False
    answer = rpc(
        client,
        token,
        "tools/call",
        {"name": "mark_items", "arguments": {"item_ids": [item_id], "action": "save"}},
    )
    assert answer["result"]["structuredContent"]["count"] == 1
    assert [item["id"] for item in search(client, token, state="saved")[0]] == [item_id]
    response = client.post(
        f"/api/v1/inbox/items/{item_id}/actions",
        {"action": "read"},
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 200, response.content
    assert search(client, token)[0][0]["read"] is True


def test_a_delivery_shows_in_the_next_search(client, alice, now):
    deliver(alice, now, "Databases", "PostgreSQL", ["PostgreSQL 18 released"])
    token = token_of(alice)
    assert titles(search(client, token)[0]) == ["PostgreSQL 18 released"]
    deliver(alice, now + timedelta(hours=1), "Rust", "Rust", ["Rust 2.0 plans"])
    assert set(titles(search(client, token)[0])) == {"PostgreSQL 18 released", "Rust 2.0 plans"}


def test_another_readers_kept_search_is_never_served(client, alice, bob, now):
    deliver(alice, now, "Databases", "PostgreSQL", ["PostgreSQL 18 released"])
    assert len(search(client, token_of(alice))[0]) == 1
    assert search(client, token_of(bob))[0] == []


def test_a_dated_search_and_any_search_with_the_cache_off_are_built_each_time(
    client, alice, now, settings
):
    deliver(alice, now, "Databases", "PostgreSQL", ["PostgreSQL 18 released"])
    token = token_of(alice)
    day = now.date().isoformat()
    dated = {"from_date": day, "to_date": day}
    search(client, token, **dated)
    assert search(client, token, **dated)[2] > 1
    search(client, token)
    settings.INBOX_PAGE_CACHE_SECONDS = 0
    assert search(client, token)[2] > 1


def test_a_refused_search_is_refused_again_not_kept(client, alice, now):
    deliver(alice, now, "Databases", "PostgreSQL", ["PostgreSQL 18 released"])
    token = token_of(alice)
    call = {"name": "search_inbox", "arguments": {"cursor": "not-a-cursor"}}
    for _attempt in range(2):
        result = rpc(client, token, "tools/call", call)["result"]
        assert result["isError"] and "cursor" in result["content"][0]["text"]
