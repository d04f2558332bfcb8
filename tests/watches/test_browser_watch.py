"""A text watch on a page whose text is written by JavaScript, through the browser fetcher."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from digests.models import RunItem
from digests.textwatch import service
from tests.conftest import requires_chromium

pytestmark = requires_chromium

APP = """<!doctype html><html><head><meta charset="utf-8"><title>Status</title></head>
<body><main><p id="status">loading…</p></main>
<script>
fetch("/api/status.json").then(r => r.json()).then(s => {
  document.getElementById("status").textContent = "Service is " + s.state;
});
</script></body></html>"""


def test_a_script_rendered_part_is_watched_with_the_browser(fixture_server, alice, now):
    url = fixture_server.add("/app", APP, Content_Type="text/html; charset=utf-8")
    fixture_server.add("/api/status.json", json.dumps({"state": "up"}))
    settings = {"url": url, "selector_kind": "css", "selector": "#status"}

    plain = service.preview(settings)
    assert plain["text"] == "loading…"  # without scripts the text is never there

    watch = service.add_watch(alice, {**settings, "render": "browser", "name": "Status"}, now=now)
    assert watch.snapshots.get().text == "Service is up"
    fixture_server.add("/api/status.json", json.dumps({"state": "down"}))
    outcome = service.check_watch(watch, now=now + timedelta(hours=1))
    assert outcome.notified
    [item] = RunItem.objects.filter(run__user=alice)
    assert item.summary.startswith("− Service is up\n+ Service is down")


@pytest.fixture(autouse=True)
def _fast_hosts(settings):
    settings.FETCH_HOST_MIN_INTERVAL_MS = 0
