"""Management commands admins and scripts rely on: ingest, tick and demo."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from digests.models import Run, RunItem, Subscription
from ingest.models import ContentItem, FetchLog, Source
from topics.models import Edition, Topic

RSS = """<?xml version="1.0"?><rss version="2.0"><channel><title>Local</title>
<link>https://local.example/</link>
<item><title>First story about PostgreSQL</title><link>https://local.example/1</link></item>
<item><title>Second story</title><link>https://local.example/2?utm_medium=rss</link></item>
</channel></rss>"""


def run(*args) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command(*args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def feed_file(tmp_path) -> Path:
    path = tmp_path / "local.xml"
    path.write_text(RSS)
    return path


def test_ingest_a_file_prints_counts_as_json(db, feed_file):
    code, out, _ = run("ingest", str(feed_file), "--json")
    assert code == 0
    assert json.loads(out) == {
        "sources": [
            {
                "source": str(feed_file),
                "status": "ok",
                "items_seen": 2,
                "inserted": 2,
                "updated": 0,
                "deduped": 0,
                "error": "",
            }
        ]
    }
    assert ContentItem.objects.filter(canonical_url="https://local.example/2").exists()


def test_ingesting_twice_inserts_nothing_new(db, feed_file):
    run("ingest", str(feed_file))
    _code, out, _ = run("ingest", str(feed_file), "--json")
    row = json.loads(out)["sources"][0]
    assert (row["inserted"], row["items_seen"]) == (0, 2)
    assert ContentItem.objects.count() == 2


def test_ingest_a_url_from_a_loopback_fixture_server(db, fixture_server):
    url = fixture_server.add("/rss", RSS, Content_Type="application/rss+xml")
    code, out, _ = run("ingest", url)
    assert code == 0
    assert "2 new" in out
    assert Source.objects.get().url == url
    assert FetchLog.objects.count() == 1


def test_ingest_refuses_a_private_address_with_the_policy_reason_and_writes_nothing(db):
    code, out, _ = run("ingest", "http://169.254.169.254/latest/meta-data/", "--json")
    assert code == 1
    row = json.loads(out)["sources"][0]
    assert row["status"] == "error"
    assert "link-local" in row["error"]
    assert Source.objects.count() == 0
    assert FetchLog.objects.count() == 0


def test_ingest_reports_each_source_and_fails_if_any_failed(db, feed_file, tmp_path):
    garbage = tmp_path / "garbage.xml"
    garbage.write_text("this is not a feed")
    code, out, err = run("ingest", str(feed_file), str(garbage), str(tmp_path / "missing.xml"))
    assert code == 1
    assert "ok     " in out
    assert "is not a readable feed" in err
    assert "neither an existing file nor a URL" in err
    # the broken file left no source behind; the good one was ingested
    assert Source.objects.count() == 1
    assert ContentItem.objects.count() == 2


def test_ingest_from_a_server_that_is_down_fails_cleanly(db, fixture_server):
    url = fixture_server.url("/does-not-exist")
    code, out, _ = run("ingest", url, "--json")
    assert code == 1
    assert "HTTP 404" in json.loads(out)["sources"][0]["error"]
    assert Source.objects.count() == 0


def test_tick_runs_due_subscriptions_at_the_given_time(db, alice, feed_file):
    from digests.subscriptions.service import create_subscription

    run("ingest", str(feed_file))
    subscription = create_subscription(
        alice,
        {"name": "PG", "interests": ["PostgreSQL"], "cron": "0 8 * * *", "timezone": "UTC"},
        now=ContentItem.objects.first().first_seen_at,
    )
    due = subscription.next_run_at
    code, out, _ = run("tick", "--now", due.isoformat())
    assert code == 0
    assert "ran 0 source refreshes, 1 runs" in out
    assert Run.objects.get().delivered_count == 1


def test_tick_refuses_a_bad_time(db):
    with pytest.raises(CommandError, match="not an ISO 8601 time"):
        call_command("tick", "--now", "yesterday")
    with pytest.raises(CommandError, match="needs a UTC offset"):
        call_command("tick", "--now", "2026-11-22T08:00:00")


def test_demo_is_offline_idempotent_and_fills_the_inbox(db, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    code, out, _ = run("demo")
    assert code == 0
    assert "demo@tidings.local" in out
    delivered = RunItem.objects.count()
    assert delivered >= 10
    assert Subscription.objects.count() == 4
    assert all(r.status == "succeeded" for r in Run.objects.all())
    items = ContentItem.objects.count()
    topic = Topic.objects.listed().get()
    assert topic.editions.get().item_count > 0
    assert f"/topics/{topic.slug}" in out

    run("demo")
    assert Subscription.objects.count() == 4
    assert ContentItem.objects.count() == items
    assert RunItem.objects.count() == delivered
    assert Topic.objects.count() == 1 and Edition.objects.count() == 1


def test_create_token_prints_a_working_token_on_its_last_line(db):
    from rest_framework.test import APIClient

    from tests.conftest import make_user

    make_user("ops@example.com")
    code, out, _err = run("create_token", "OPS@example.com", "--name", "nightly export")
    assert code == 0
    token = out.strip().splitlines()[-1]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert client.get("/api/v1/me").json()["email"] == "ops@example.com"
    from inbox.models import ApiToken

    assert ApiToken.objects.get().name == "nightly export"


def test_create_token_refuses_an_unknown_account(db):
    with pytest.raises(CommandError, match="No account"):
        call_command("create_token", "nobody@example.com", stdout=StringIO())
