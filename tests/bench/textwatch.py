"""`textwatch`: does a text-change watch tell exactly the changes that matter? Precision and
recall over a scripted history of page versions, checks per second per worker, diff time.

Data: one product page (~750 bytes: navigation, a main part with a price, a changelog list and a
description, a sidebar, a footer) in `VERSIONS[size]` versions, scripted with a fixed seed.
Each version after the first is one of: a true change inside the watched part (the price, a
changelog line added, an edited sentence, a reordered list) or noise the watch must ignore (a
new script timestamp, re-indented markup, an "updated N minutes ago" footer, a sidebar change
outside the part, a "viewed by N people" line inside the part that an ignore rule drops). Every
version is served over loopback and checked through the real path: the fetch client,
extraction (CSS selector `#main`), the ignore rules, the database (a snapshot and an Inbox item
per change).

Baseline, measured in the same process on the same responses (fetched by the same client): a
whole-page text differ (what a page monitor does with no selector or rules): it alerts when the
page's visible text differs from the previous check. ratio = the watch's per-check time ÷ the
baseline's per-check time.

The tick with one slow page: `TICK_WATCHES` due watches, one of them on a page that answers
after `SLOW_SECONDS`. Before: the tick checked them one after another (`check_due`), so every
watch behind the slow one waited. Now the tick claims them and enqueues one check each
(`hand_out_due`): the tick's own time, then the checks run by `TICK_WORKERS` threads standing
for the cluster's workers (Q_WORKERS, 2 by default) — the time until every fast watch is
checked, and until all are.

Sizes: smoke = 50 versions, small = 100, full = 400. Checks: precision and recall are 1.0; the
fast watches are not held behind the slow page.
"""

from __future__ import annotations

import itertools
import queue
import random
import statistics
import threading
import time
from datetime import UTC, datetime, timedelta

from django.db import close_old_connections, connection
from django.test import override_settings

from digests.textwatch import extract, service
from digests.textwatch.diffing import diff_texts
from digests.textwatch.models import TextWatch
from ingest.fetching import fetch
from tests.conftest import FixtureServer, make_user
from tests.slow_page import SlowPage

VERSIONS = {"smoke": 50, "small": 100, "full": 400}
TICK_WATCHES = 20
SLOW_SECONDS = 3.0
SLOW_PAGE = "<html><body><div id='main'>{text}</div></body></html>"
TICK_WORKERS = 2
TRUE_KINDS = ("price", "changelog", "edit", "reorder")
NOISE_KINDS = ("script", "indent", "footer", "sidebar", "viewed")


def _page(state: dict, noise: int, indent: bool) -> str:
    sep = "\n      " if indent else ""
    changelog = "".join(f"<li>{sep}{line}</li>" for line in state["changelog"])
    sidebar = "".join(f"<li>Item {i}</li>" for i in state["sidebar"])
    return f"""<html><head><title>Widget</title>
<script>window.build = {noise};</script></head><body>
<nav><a href="/">Home</a> <a href="/shop">Shop</a> <a href="/cart">Cart</a></nav>
<div id="main"><h1>Widget Pro</h1>
  <p class="price">Price: {sep}<b>${state["price"]}</b></p>
  <p>{state["description"]}</p>
  <p class="views">Viewed by {state["views"]} people today</p>
  <ul class="changelog">{changelog}</ul></div>
<aside><h2>Also bought</h2><ul>{sidebar}</ul></aside>
<footer>Updated {state["minutes"]} minutes ago · © 2026 Widgets</footer>
</body></html>"""


def script(versions: int, seed: int = 30) -> list[tuple[str, str, bool]]:
    """(kind, html, truly_changed) for each version; the first is the baseline."""
    rng = random.Random(seed)
    state = {
        "price": "49.00",
        "description": "A sturdy widget for every workshop.",
        "views": 120,
        "changelog": [f"v1.{i}: fixes" for i in range(5)],
        "sidebar": [1, 2, 3],
        "minutes": 3,
    }
    out = [("baseline", _page(state, 0, False), False)]
    for number in range(1, versions):
        true = rng.random() < 0.4
        kind = rng.choice(TRUE_KINDS if true else NOISE_KINDS)
        indent = False
        if kind == "price":
            state["price"] = f"{rng.randint(20, 80)}.{rng.randint(0, 99):02d}"
        elif kind == "changelog":
            state["changelog"].insert(0, f"v2.{number}: new feature {number}")
        elif kind == "edit":
            state["description"] = f"A sturdy widget for every workshop, revision {number}."
        elif kind == "reorder":
            state["changelog"] = state["changelog"][1:] + state["changelog"][:1]
        elif kind == "indent":
            indent = True
        elif kind == "footer":
            state["minutes"] = rng.randint(1, 59)
        elif kind == "sidebar":
            state["sidebar"] = rng.sample(range(1, 50), 3)
        elif kind == "viewed":
            state["views"] = rng.randint(100, 999)
        out.append((kind, _page(state, number, indent), true))
    return out


def _score(alerts: list[bool], truth: list[bool]) -> dict:
    tp = sum(a and t for a, t in zip(alerts, truth, strict=True))
    fp = sum(a and not t for a, t in zip(alerts, truth, strict=True))
    fn = sum(t and not a for a, t in zip(alerts, truth, strict=True))
    return {
        "alerts": tp + fp,
        "true_positives": tp,
        "false_positives": fp,
        "missed": fn,
        "precision": round(tp / (tp + fp), 3) if tp + fp else 1.0,
        "recall": round(tp / (tp + fn), 3) if tp + fn else 1.0,
    }


def run(size: str = "full") -> dict:
    versions = script(VERSIONS[size])
    start = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
    server = FixtureServer()
    server.loopback.start()
    try:
        with override_settings(
            FETCH_TEST_ONLY_LOOPBACK_HOSTS=("localhost",), FETCH_HOST_MIN_INTERVAL_MS=0
        ):
            url = server.add("/widget", versions[0][1], Content_Type="text/html; charset=utf-8")
            user = make_user("textwatch-bench@example.com", now=start)
            watch = service.add_watch(
                user,
                {"url": url, "name": "Widget", "selector_kind": "css", "selector": "#main",
                 "ignore_text": ["viewed by"]},
                now=start,
            )  # fmt: skip
            alerts, seconds = [], []
            for number, (_kind, html, _true) in enumerate(versions[1:], start=1):
                server.add("/widget", html, Content_Type="text/html; charset=utf-8")
                began = time.perf_counter()
                outcome = service.check_watch(watch, now=start + timedelta(hours=number))
                seconds.append(time.perf_counter() - began)
                if not outcome.ok:
                    raise RuntimeError(f"version {number}: {outcome.error}")
                alerts.append(outcome.notified)
            naive_alerts, naive_seconds, previous = [], [], None
            for _kind, html, _true in versions:
                server.add("/widget", html, Content_Type="text/html; charset=utf-8")
                began = time.perf_counter()
                text = extract.extract_text(fetch.fetch(url).content)
                naive_seconds.append(time.perf_counter() - began)
                if previous is not None:
                    naive_alerts.append(text != previous)
                previous = text
            tick = _tick_with_a_slow_page(server, user, start + timedelta(days=30))
    finally:
        server.loopback.stop()
    truth = [true for _k, _h, true in versions[1:]]
    texts = [extract.extract_text(html, kind="css", selector="#main") for _k, html, _t in versions]
    began = time.perf_counter()
    for before, after in itertools.pairwise(texts):
        diff_texts(before, after).as_html()
    diff_ms = (time.perf_counter() - began) * 1000 / (len(texts) - 1)
    check_ms = statistics.median(seconds) * 1000
    naive_ms = statistics.median(naive_seconds[1:]) * 1000
    watch_score = _score(alerts, truth)
    return {
        "name": "textwatch",
        "database": connection.vendor,
        "size": size,
        "versions": len(versions),
        "true_changes": sum(truth),
        "noise_versions": len(truth) - sum(truth),
        "page_bytes_mean": round(statistics.mean(len(h) for _k, h, _t in versions)),
        "watch": watch_score,
        "whole_page_differ": _score(naive_alerts, truth),
        "check_ms": round(check_ms, 2),
        "checks_per_second": round(1000 / check_ms, 1),
        "baseline_check_ms": round(naive_ms, 2),
        "diff_ms": round(diff_ms, 3),
        "ratio": round(check_ms / naive_ms, 2),
        "tick": tick,
        "checks": {
            "the watch tells every true change": watch_score["recall"] == 1.0,
            "the watch tells no noise": watch_score["precision"] == 1.0,
            "the fast watches are not held behind the slow page": tick["fast_done_s"]
            < SLOW_SECONDS,
        },
    }


def _tick_with_a_slow_page(server, user, at: datetime) -> dict:
    with SlowPage("Slow", latency=SLOW_SECONDS, template=SLOW_PAGE) as slow:
        html = "<html><body><div id='main'>Price 10</div></body></html>"
        fast_url = server.add("/fast", html, Content_Type="text/html; charset=utf-8")
        ids = []
        for n in range(TICK_WATCHES):
            watch = service.add_watch(
                user, {"url": fast_url, "name": f"Fast {n}", "selector_kind": "css",
                       "selector": "#main"}, now=at,
            )  # fmt: skip
            ids.append(watch.pk)
        slow_id = ids[0]
        # The slow page's watch comes first in the due order, as the worst case.
        TextWatch.objects.filter(pk=slow_id).update(url=slow.url, next_check_at=at)
        due = at + timedelta(days=1)

        def rewind() -> None:
            TextWatch.objects.filter(pk__in=ids).update(next_check_at=at)

        rewind()
        began = time.perf_counter()
        service.check_due(now=due)
        inline_total = time.perf_counter() - began

        rewind()
        handed: queue.Queue[tuple] = queue.Queue()
        began = time.perf_counter()
        service.hand_out_due(now=due + timedelta(days=1), send=lambda *claim: handed.put(claim))
        tick_s = time.perf_counter() - began
        finished: dict[int, float] = {}

        def worker() -> None:
            try:
                while True:
                    try:
                        pk, until = handed.get_nowait()
                    except queue.Empty:
                        return
                    service.check_claimed(pk, now=due + timedelta(days=1), claimed_until=until)
                    finished[pk] = time.perf_counter() - began
            finally:
                close_old_connections()
                connection.close()

        threads = [threading.Thread(target=worker) for _ in range(TICK_WORKERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        fast = [seconds for pk, seconds in finished.items() if pk != slow_id]
    return {
        "watches": TICK_WATCHES,
        "slow_page_s": SLOW_SECONDS,
        "workers": TICK_WORKERS,
        "inline_tick_s": round(inline_total, 2),
        "tick_s": round(tick_s, 3),
        "fast_done_s": round(max(fast), 2),
        "all_done_s": round(max(finished.values()), 2),
    }


def describe(result: dict) -> list[str]:
    w, n, t = result["watch"], result["whole_page_differ"], result["tick"]
    return [
        f"textwatch script: {result['versions']} versions of one product page "
        f"(~{result['page_bytes_mean']:,} bytes), {result['true_changes']} true changes, "
        f"{result['noise_versions']} noise versions; {result['database']} ({result['size']})",
        f"watch (#main, ignore 'viewed by'): precision {w['precision']:.2f}  recall "
        f"{w['recall']:.2f}  ({w['true_positives']} right, {w['false_positives']} false, "
        f"{w['missed']} missed)",
        f"whole-page text differ:            precision {n['precision']:.2f}  recall "
        f"{n['recall']:.2f}  ({n['alerts']} alerts, {n['false_positives']} false)",
        f"per check (median): watch {result['check_ms']:.1f} ms = {result['checks_per_second']} "
        f"checks/s per worker (fetch + extract + rules + database) vs whole-page differ "
        f"{result['baseline_check_ms']:.1f} ms (fetch + extract): ratio {result['ratio']:.2f}; "
        f"diff + HTML {result['diff_ms']:.2f} ms a change",
        f"tick, {t['watches']} due watches, one page answering after {t['slow_page_s']:.0f} s: "
        f"checked in the tick one after another {t['inline_tick_s']:.2f} s (every fast watch "
        f"waits); handed out {t['tick_s'] * 1000:.0f} ms, then {t['workers']} workers: fast "
        f"watches done after {t['fast_done_s']:.2f} s, all after {t['all_done_s']:.2f} s",
    ]
