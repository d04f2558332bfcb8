"""`manage.py mcp` over stdio, started by the SDK's own stdio client as an assistant starts it:
the token from the environment, a read of the latest brief and a write through the tools; and
no token, no server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from tests.inbox.assistants.conftest import in_a_thread_of_its_own

ROOT = Path(__file__).resolve().parents[3]

SETUP = """
from datetime import datetime, UTC
from tests.conftest import make_user
from tests.inbox.assistants.conftest import deliver
from inbox.tokens import issue_token
from django.utils import timezone
now = timezone.now()
alice = make_user("alice@example.com")
deliver(alice, now, "Databases", "PostgreSQL", ["PostgreSQL 18 released"])
print(issue_token(alice, "assistant")[1])
"""


@pytest.mark.slow
def test_a_stdio_client_reads_and_writes_with_the_token_from_the_environment(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'stdio.sqlite3'}",
        "TIDINGS_DATA_DIR": str(tmp_path / "data"),
    }
    env.pop("TIDINGS_API_TOKEN", None)
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    token = subprocess.run(
        [python, "manage.py", "shell", "-c", SETUP],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()[-1]

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
            saved = await client.call_tool("mark_items", {"item_ids": [item_id], "action": "save"})
            return names, brief, saved

    names, brief, saved = in_a_thread_of_its_own(exchange)
    assert "run_now" in names
    assert brief.structured_content["brief"]["subscription_name"] == "Databases"
    assert brief.structured_content["brief"]["items"][0]["untrusted"]["title"] == (
        "PostgreSQL 18 released"
    )
    assert saved.structured_content["count"] == 1
