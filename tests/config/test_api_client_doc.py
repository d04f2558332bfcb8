"""docs/api-client.md, "A client in ten minutes", tells the truth: its Python blocks (with the
generated client) and its JavaScript blocks (plain `fetch`, run by Node) are taken from the page
in order, run as one program each against a live server with a real token, and do what the page
says — they list and page the Inbox, save an item and mark the others read, sync what changed,
get a 304 for an unchanged ETag, create a subscription once despite a retry, and explain a
refusal by its code."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from digests.models import Subscription
from inbox.models import UserContentState
from inbox.tokens import issue_token
from tests import api_client
from tests.conftest import make_user
from tests.inbox.test_sync_api import deliver

PAGE = api_client.ROOT / "docs" / "api-client.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```$", re.M | re.S)
EXPECTED = [
    r"Signed in as reader@example\.com with a write token",
    r"3 items in the Inbox",
    r"Saved 'PostgreSQL note \d'",
    r"Marked 2 read",
    r"3 items changed since the last sync",
    r"Counts unchanged: 304",
    r"Created subscription (\d+), next run \d{4}-\d\d-\d\d",
    r"Retried: the same subscription (\d+) \(replayed: true\)",
    r"Refused \(400\): fix cron \(invalid\)",
]


def program(language: str) -> str:
    blocks = [code for lang, code in BLOCK.findall(PAGE.read_text()) if lang == language]
    assert blocks, f"no {language} blocks in {PAGE.name}"
    return "\n".join(blocks)


@pytest.fixture
def reader(live_server, now):
    user = make_user("reader@example.com")
    deliver(user, now, "PG", "PostgreSQL", 3)
    _row, token = issue_token(user, "docs")
    env = {**os.environ, "TIDINGS_URL": live_server.url, "TIDINGS_TOKEN": token}
    return user, env


def check_run(command: list[str], env: dict, user) -> None:
    result = subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=90, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(EXPECTED), result.stdout
    for pattern, line in zip(EXPECTED, lines, strict=True):
        assert re.fullmatch(pattern, line), (pattern, line)
    created = re.fullmatch(EXPECTED[6], lines[6]).group(1)
    assert re.fullmatch(EXPECTED[7], lines[7]).group(1) == created
    # What the program did is what the account now holds: one new subscription (the retry
    # made none, the refusal none), one item saved and the two others read.
    names = sorted(Subscription.objects.filter(owner=user).values_list("name", flat=True))
    assert names == ["Databases", "PG"]
    states = UserContentState.objects.filter(user=user)
    assert states.filter(saved_at__isnull=False).count() == 1
    assert states.filter(read_at__isnull=False).count() == 2


@pytest.mark.slow
@pytest.mark.timeout(240)  # a program of a dozen requests in a process of its own
def test_the_python_program_of_the_page_runs_as_it_says(reader, tmp_path):
    user, env = reader
    script = tmp_path / "client.py"
    script.write_text(program("python"))
    env["PYTHONPATH"] = str(api_client.CLIENT_DIR)
    check_run([sys.executable, str(script)], env, user)


@pytest.mark.slow
@pytest.mark.timeout(240)  # a program of a dozen requests in a process of its own
def test_the_javascript_program_of_the_page_runs_as_it_says(reader, tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the page's JavaScript needs Node 20 or later")
    user, env = reader
    script = tmp_path / "client.mjs"
    script.write_text(program("js"))
    check_run([node, str(script)], env, user)
