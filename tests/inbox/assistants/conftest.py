"""An MCP client (the SDK's own) against the server: over Streamable HTTP to Django's live server,
or over stdio to `manage.py mcp`. Alice has two delivered briefs; Bob has one of his own."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import httpx2
import pytest
import time_machine
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from inbox.models import ApiToken
from inbox.tokens import issue_token
from tests.factories import add_item, on_plan


def deliver(user, now, name: str, interest: str, titles: list[str]):
    for n, title in enumerate(titles):
        add_item(title, now=now, age_hours=n + 1, description=f"About {interest}.")
    subscription = create_subscription(
        user, {"name": name, "interests": [interest], "cron": "0 8 * * *"}, now=now
    )
    run = request_manual_run(subscription, now=now)
    return runner.execute_run(run.pk, now=now)


@pytest.fixture
def clock(now):
    """The wall clock at the tests' `now`, ticking: the server's views read it."""
    with time_machine.travel(now, tick=True):
        yield now


@pytest.fixture
def briefs(transactional_db, alice, bob, now, clock):
    on_plan(alice, "pro", now=now)
    pg = deliver(
        alice,
        now - timedelta(hours=2),
        "Databases",
        "PostgreSQL",
        ["PostgreSQL 18 released", "PostgreSQL vacuum tuning", "PostgreSQL on ARM"],
    )
    rust = deliver(alice, now - timedelta(hours=1), "Rust", "Rust", ["Rust 2.0 plans"])
    bobs = deliver(
        bob, now - timedelta(hours=1), "Bob's birds", "Birdwatching", ["Birdwatching in May"]
    )
    return {"pg": pg, "rust": rust, "bob": bobs}


def token_of(user, scope: str = ApiToken.Scope.WRITE) -> str:
    _row, clear = issue_token(user, f"assistant {scope}", scope=scope)
    return clear


def in_a_thread_of_its_own(coroutine_function) -> object:
    """asyncio.run() in a thread of its own: the browser tests' Playwright keeps an event loop
    running in the test thread for the whole session."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine_function()).result()


def run_client(url: str, token: str | None, body: Callable) -> object:
    """Connect the SDK's client to `url` with `token` and return what `body(client)` returns."""

    async def main():
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=60) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
        ):
            return await body(client)

    return in_a_thread_of_its_own(main)


@pytest.fixture
def mcp_url(live_server) -> str:
    return f"{live_server.url}/mcp"
