"""Browser fetching (SPEC §4.6): headless Chromium for lists built by JavaScript, with every
request the page makes fetched by our own client under the fetch policy (SPEC §4.1) or
aborted — the browser never opens a connection of its own.

Pages are served on loopback by the fixture server; a canary socket on 127.0.0.1 (an address
the policy refuses) counts every connection anybody makes to it.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from datetime import timedelta

import pytest
from django.conf import settings

from ingest.fetching import browser
from ingest.fetching.fetch import FetchRefused, FetchTimeout, HTTPStatusError
from ingest.library.sources import SourceError
from ingest.refresh.pipeline import refresh_many, refresh_source
from ingest.watch.listing import extract_listing
from ingest.watch.service import add_list_watch
from tests.conftest import requires_chromium
from tests.ingest.watch_steps import new_urls

pytestmark = requires_chromium

RELEASES_APP = """<!doctype html>
<html><head><meta charset="utf-8"><title>Releases</title></head>
<body><main><ul class="releases" id="list"></ul></main>
<script>
fetch("/api/releases.json").then(r => r.json()).then(items => {
  const list = document.getElementById("list");
  for (const item of items) {
    const li = document.createElement("li");
    li.innerHTML = `<a href="/releases/${item.slug}">${item.title}</a><p>${item.note}</p>`;
    list.appendChild(li);
  }
});
</script></body></html>"""


def releases(count: int) -> str:
    return json.dumps(
        [
            {"slug": f"v{n}.0", "title": f"Version {n}.0 of the harbour app", "note": f"Notes {n}"}
            for n in range(1, count + 1)
        ]
    )


class Canary:
    """A TCP listener on 127.0.0.1 that counts the connections it accepts."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.sock.settimeout(0.05)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.stopped.is_set():
            try:
                conn, _address = self.sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.accepted += 1
            conn.close()

    def close(self):
        self.stopped.set()
        self.thread.join()
        self.sock.close()


@pytest.fixture
def canary():
    listener = Canary()
    yield listener
    listener.close()


def test_a_list_built_by_javascript_is_watched_with_the_browser(fixture_server, alice, now):
    url = fixture_server.add("/app", RELEASES_APP, Content_Type="text/html; charset=utf-8")
    fixture_server.add("/api/releases.json", releases(3), Content_Type="application/json")

    with pytest.raises(SourceError) as plain:
        add_list_watch(alice, url, render="http", now=now)
    assert plain.value.code == "no_items"  # without scripts the list is empty

    added = add_list_watch(alice, url, render="browser", now=now)
    source = added.user_source.source
    assert source.config["render"] == "browser"
    assert added.refresh.ok and added.refresh.counts.seen == 3
    assert new_urls(source, now) == set()  # the baseline

    fixture_server.add("/api/releases.json", releases(4), Content_Type="application/json")
    later = now + timedelta(hours=1)
    outcome = refresh_source(source, now=later)
    assert outcome.ok, outcome.error
    assert new_urls(source, later) == {fixture_server.url("/releases/v4.0")}

    # Every request reached the server through our client, never from Chromium itself.
    paths = [path for path, _headers in fixture_server.requests]
    assert paths.count("/api/releases.json") == 2  # the browser's add, then its refresh
    assert {headers["User-Agent"] for _path, headers in fixture_server.requests} == {
        settings.FETCH_USER_AGENT
    }


def test_scheduled_batches_render_on_their_worker_threads(fixture_server, alice, now):
    url = fixture_server.add("/app", RELEASES_APP, Content_Type="text/html; charset=utf-8")
    fixture_server.add("/api/releases.json", releases(2), Content_Type="application/json")
    source = add_list_watch(alice, url, render="browser", now=now).user_source.source
    fixture_server.add("/api/releases.json", releases(3), Content_Type="application/json")

    later = now + timedelta(hours=1)
    [outcome] = refresh_many([source.pk], now=later)
    assert outcome.ok, outcome.error
    assert new_urls(source, later) == {fixture_server.url("/releases/v3.0")}


def test_requests_to_refused_addresses_are_aborted_and_never_connect(fixture_server, canary):
    probe = f"""<!doctype html><html><head><title>Probe</title>
    <link rel="stylesheet" href="http://127.0.0.1:{canary.port}/style.css"></head>
    <body><img src="http://127.0.0.1:{canary.port}/pixel.png"><ul id="list"></ul>
    <script>
    const attempts = [
      fetch("http://169.254.169.254/latest/meta-data/"),
      fetch("http://10.0.0.1/"),
      fetch("http://127.0.0.1:{canary.port}/secret"),
      fetch("/collect", {{method: "POST", body: "cookie=" + document.cookie}}),
    ];
    try {{ new WebSocket("ws://127.0.0.1:{canary.port}/socket"); }} catch (e) {{}}
    Promise.allSettled(attempts).then(results => {{
      const list = document.getElementById("list");
      results.forEach((result, n) => {{
        list.insertAdjacentHTML("beforeend",
          `<li><a href="/attempts/${{n}}-${{result.status}}">Attempt number ${{n}}</a></li>`);
      }});
    }});
    </script></body></html>"""
    url = fixture_server.add("/probe", probe, Content_Type="text/html")

    rendered = browser.render_page(url)
    time.sleep(0.2)  # anything still in flight would have reached the canary by now

    assert canary.accepted == 0
    refused = dict(rendered.refused)
    assert "169.254.169.254" in refused["http://169.254.169.254/latest/meta-data/"]
    assert "10.0.0.1" in refused["http://10.0.0.1/"]
    assert f"http://127.0.0.1:{canary.port}/secret" in refused
    assert refused[fixture_server.url("/collect")] == "only GET requests are made"
    assert rendered.skipped >= 2  # the stylesheet and the image were never fetched
    assert [path for path, _headers in fixture_server.requests] == ["/probe"]

    # The script saw every refused request fail, and went on to build its list.
    listing = extract_listing(rendered.html, base_url=rendered.url)
    assert [entry.url for entry in listing.entries] == [
        fixture_server.url(f"/attempts/{n}-rejected") for n in range(4)
    ]


def test_a_refused_page_address_never_starts_the_browser(monkeypatch):
    monkeypatch.setattr(browser, "_render", lambda *args: pytest.fail("the browser started"))
    with pytest.raises(FetchRefused):
        browser.render_page("http://10.0.0.1/list")


def test_the_page_answering_an_error_is_that_error(fixture_server):
    with pytest.raises(HTTPStatusError) as error:
        browser.render_page(fixture_server.url("/missing"))
    assert error.value.status == 404


def test_redirects_are_followed_by_our_client_and_links_resolve_at_the_target(fixture_server):
    page = """<html><body><ul id="l"></ul><script>
      for (const n of [1, 2]) document.getElementById("l").insertAdjacentHTML("beforeend",
        `<li><a href="story-${n}">A relative link to story number ${n}</a></li>`);
    </script></body></html>"""
    target = fixture_server.add("/new/", page, Content_Type="text/html")
    start = fixture_server.add("/old", b"", status=301, Location=target)

    rendered = browser.render_page(start)
    assert rendered.url == target
    entries = extract_listing(rendered.html, base_url=rendered.url).entries
    assert [entry.url for entry in entries] == [
        fixture_server.url("/new/story-1"),
        fixture_server.url("/new/story-2"),
    ]
    assert [path for path, _headers in fixture_server.requests] == ["/old", "/new/"]


def test_a_page_making_too_many_requests_is_capped(fixture_server, monkeypatch):
    monkeypatch.setattr(browser, "MAX_REQUESTS", 5)
    page = """<html><body><script>
      for (let n = 0; n < 20; n++) fetch("/ping?n=" + n).catch(() => {});
    </script><a href="/stories/only-one-story">The only story on this page</a></body></html>"""
    url = fixture_server.add("/busy", page, Content_Type="text/html")

    rendered = browser.render_page(url)
    assert len(fixture_server.requests) == 5  # the page itself and four pings
    assert [why for _url, why in rendered.refused].count("the page made too many requests") == 16


def test_a_script_that_never_ends_is_stopped_at_the_deadline(fixture_server, monkeypatch):
    monkeypatch.setattr(browser, "DEADLINE_SECONDS", 4.0)
    # The caller's own bound is the deadline and the unwinding; on a loaded machine the driver
    # may take that long to notice the browser it drove is gone (2026-11-30: 14 s with 10).
    monkeypatch.setattr(browser, "UNWIND_SECONDS", 4.0)
    page = "<html><body><a href='/x/one-story'>One story</a><script>while (true) {}</script>"
    url = fixture_server.add("/spin", page, Content_Type="text/html")
    free = browser._browser_slots._value

    started = time.monotonic()
    with pytest.raises(FetchTimeout):
        browser.render_page(url)
    assert time.monotonic() - started < 10
    # The browser itself was stopped, not left spinning: its render ends and frees its slot.
    until = time.monotonic() + 30
    while browser._browser_slots._value < free and time.monotonic() < until:
        time.sleep(0.1)
    assert browser._browser_slots._value >= free


def test_without_chromium_the_render_option_is_refused(alice, now, monkeypatch):
    monkeypatch.setattr(browser, "CHROMIUM_PATH", "/nonexistent/chromium")
    with pytest.raises(SourceError) as refused:
        add_list_watch(alice, "https://example.com/news", render="browser", now=now)
    assert (refused.value.field, refused.value.code) == ("render", "browser_unavailable")


def test_a_render_stuck_in_the_browser_does_not_hold_its_caller(fixture_server, monkeypatch):
    """Past the deadline and the unwinding time the caller gets its timeout, whatever the
    render thread is stuck in; the thread keeps its browser slot until it really ends."""
    monkeypatch.setattr(browser, "DEADLINE_SECONDS", 1.0)
    monkeypatch.setattr(browser, "UNWIND_SECONDS", 0.5)
    stuck, ended = threading.Event(), threading.Event()

    def never_returns(document, deadline):
        stuck.wait(30)
        ended.set()

    monkeypatch.setattr(browser, "_render", never_returns)
    url = fixture_server.add("/stuck", "<html></html>", Content_Type="text/html")
    free = browser._browser_slots._value  # another test's render may still be unwinding

    started = time.monotonic()
    with pytest.raises(FetchTimeout):
        browser.render_page(url)
    assert time.monotonic() - started < 3
    assert browser._browser_slots._value == free - 1
    stuck.set()
    assert ended.wait(5)
    time.sleep(0.1)
    assert browser._browser_slots._value >= free
