"""`manage.py mcp` over stdio, started by the SDK's own stdio client as an assistant starts it:
the token from the environment, a read of the latest brief and a write through the tools; and
no token, no server."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection
from mcp import Client, StdioServerParameters

from tests.inbox.assistants.conftest import in_a_thread_of_its_own

ROOT = Path(__file__).resolve().parents[3]


def _database_for_the_server(tmp_path, env: dict) -> str:
    """The server's database, with Alice, a delivered brief and her token; returns the token.
    The rows are the test's own (committed: a transactional test). On PostgreSQL the server
    opens the test's database; SQLite's lives in this process's memory, so there it is copied
    to a file with SQLite's backup API (migrating a file took minutes on a busy machine)."""
    from django.utils import timezone

    from inbox.tokens import issue_token
    from tests.conftest import make_user
    from tests.inbox.assistants.conftest import deliver

    alice = make_user("alice@example.com")
    deliver(alice, timezone.now(), "Databases", "PostgreSQL", ["PostgreSQL 18 released"])
    token = issue_token(alice, "assistant")[1]
    if connection.vendor == "postgresql":
        settings = connection.settings_dict
        password = f":{quote(settings['PASSWORD'])}" if settings.get("PASSWORD") else ""
        env["DATABASE_URL"] = (
            f"postgres://{quote(settings['USER'])}{password}@{settings['HOST'] or '127.0.0.1'}:"
            f"{settings['PORT'] or 5432}/{settings['NAME']}"
        )
        return token
    path = tmp_path / "stdio.sqlite3"
    connection.ensure_connection()
    with contextlib.closing(sqlite3.connect(path)) as copy:
        connection.connection.backup(copy)
    env["DATABASE_URL"] = f"sqlite:///{path}"
    return token


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_stdio_client_reads_and_writes_with_the_token_from_the_environment(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "TIDINGS_DATA_DIR": str(tmp_path / "data"),
    }
    env.pop("TIDINGS_API_TOKEN", None)
    python = sys.executable
    token = _database_for_the_server(tmp_path, env)

    refused = subprocess.run(
        [python, "manage.py", "mcp"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert refused.returncode != 0 and "TIDINGS_API_TOKEN" in refused.stderr

    server = StdioServerParameters(
        command=python,
        args=["manage.py", "mcp"],
        cwd=str(ROOT),
        env=env | {"TIDINGS_API_TOKEN": token},
    )

    async def exchange():
        async with Client(server) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            brief = await client.call_tool("read_brief", {})
            item_id = brief.structured_content["brief"]["items"][0]["id"]
            before = await client.call_tool("search_inbox", {"state": "saved"})
            saved = await client.call_tool("mark_items", {"item_ids": [item_id], "action": "save"})
            after = await client.call_tool("search_inbox", {"state": "saved"})
            return names, brief, saved, before, after

    names, brief, saved, before, after = in_a_thread_of_its_own(exchange)
    assert "run_now" in names
    assert brief.structured_content["brief"]["subscription_name"] == "Databases"
    assert brief.structured_content["brief"]["items"][0]["untrusted"]["title"] == (
        "PostgreSQL 18 released"
    )
    assert saved.structured_content["count"] == 1
    # The process keeps its token (and the Inbox version read with it) for the whole session:
    # a search after a change is never an earlier search's kept page.
    assert before.structured_content["items"] == []
    assert [i["id"] for i in after.structured_content["items"]] == saved.structured_content["ids"]
