"""`watch`: does a watched list report exactly the new items? Precision and recall over the
ten recorded steps of tests/ingest/testdata/watch_steps/, against two naive differs.

Data: one listing page in 10 versions (about 9 KB each, 8 posts on the page, a 10-link "most
read" sidebar, navigation, pagination): 6 posts are truly new over the 9 checks after the
baseline; the other changes are reorders, tracking parameters, "updated N minutes ago" and
comment-count churn, pagination and widget noise, an edited title, a removed post and two that
come back. Each step is served over loopback and checked through the real path: the fetch
client, the listing heuristic, the pool (SQLite or PostgreSQL); news = the check's
non-baseline sightings.

Baselines, measured in the same process on the same responses (fetched by the same client):
- "any text changed" (what page-change monitors do by default): alerts whenever the page's
  visible text differs from the previous check; the reported changes are the added lines.
- "links added": every link on this version that was not on the previous one.
ratio = the watcher's per-check time ÷ the text differ's per-check time.

Sizes (tests/bench/sizes.py): the ten steps are the repository's own fixture at every size;
full = 5 rounds of them and a synthetic large page of 500 items; small = 3 rounds, 500 items;
smoke = 1 round, 100 items. Check: the watcher reports exactly the truly new posts.
"""

from __future__ import annotations

import statistics
import time
from datetime import UTC, datetime, timedelta
from urllib.parse import urljoin

from bs4 import BeautifulSoup
from django.db import connection
from django.test import override_settings

from ingest.canonical import InvalidURL, canonicalize_url
from ingest.fetching import fetch
from ingest.models import Source
from ingest.refresh.pipeline import refresh_source
from ingest.watch.listing import extract_listing
from ingest.watch.service import list_config
from tests.conftest import FixtureServer
from tests.ingest.watch_steps import load_steps, new_urls

ROUNDS = {"full": 5, "small": 3, "smoke": 1}
LARGE_PAGE_ITEMS = {"full": 500, "small": 500, "smoke": 100}


def _ratio(found: int, total: int) -> float:
    return round(found / total, 3) if total else 1.0


def _soup(content: bytes) -> BeautifulSoup:
    # Decoded first, as the watcher does: bytes without a declared charset would make bs4 run
    # chardet, which would slow the baselines down unfairly.
    return BeautifulSoup(content.decode("utf-8", "replace"), "lxml")


def _visible_lines(content: bytes) -> set[str]:
    soup = _soup(content)
    for element in soup(["script", "style"]):
        element.decompose()
    return {line.strip() for line in soup.get_text("\n").splitlines() if line.strip()}


def _links(content: bytes, base: str) -> set[str]:
    urls = set()
    for anchor in _soup(content).find_all("a", href=True):
        try:
            urls.add(canonicalize_url(urljoin(base, anchor["href"])))
        except (InvalidURL, ValueError):
            continue
    return urls


def _watcher_round(server: FixtureServer, path: str, steps, round_no: int, start: datetime):
    url = server.url(path)
    source = Source.objects.create(
        type=Source.Type.LIST,
        config={**list_config(url), "bench_round": round_no},
        config_hash=f"bench-watch-{round_no}",
        url=url,
    )
    reported: list[set[str]] = []
    seconds: list[float] = []
    for step in steps:
        server.add(path, step.html, Content_Type="text/html; charset=utf-8")
        at = start + timedelta(hours=step.number)
        began = time.perf_counter()
        outcome = refresh_source(source, now=at)
        seconds.append(time.perf_counter() - began)
        if not outcome.ok:
            raise RuntimeError(f"step {step.number}: {outcome.error}")
        reported.append(new_urls(source, at))
    return reported, seconds


def _naive_round(server: FixtureServer, path: str, steps):
    url = server.url(path)
    lines_added: list[set[str]] = []
    lines_changed: list[set[str]] = []
    links_added: list[set[str]] = []
    seconds: list[float] = []
    previous_lines: set[str] | None = None
    previous_links: set[str] | None = None
    for step in steps:
        server.add(path, step.html, Content_Type="text/html; charset=utf-8")
        began = time.perf_counter()
        result = fetch.fetch(url, max_bytes=fetch.PAGE_MAX_BYTES)
        lines = _visible_lines(result.content)
        added = set() if previous_lines is None else lines - previous_lines
        changed = set() if previous_lines is None else lines ^ previous_lines
        seconds.append(time.perf_counter() - began)
        links = _links(result.content, result.url)
        lines_added.append(added)
        lines_changed.append(changed)
        links_added.append(set() if previous_links is None else links - previous_links)
        previous_lines, previous_links = lines, links
    return lines_added, lines_changed, links_added, seconds


def _score_items(reported: list[set[str]], truth: list[set[str]]) -> dict:
    true_positive = sum(len(r & t) for r, t in zip(reported, truth, strict=True))
    reported_total = sum(len(r) for r in reported)
    truth_total = sum(len(t) for t in truth)
    return {
        "reported": reported_total,
        "true_positives": true_positive,
        "false_positives": reported_total - true_positive,
        "missed": truth_total - true_positive,
        "precision": _ratio(true_positive, reported_total),
        "recall": _ratio(true_positive, truth_total),
    }


def _score_alerts(reported: list[set], truth: list[set[str]]) -> dict:
    checks = list(zip(reported[1:], truth[1:], strict=True))  # the baseline is no check
    return {
        "checks": len(checks),
        "alerts": sum(bool(r) for r, _t in checks),
        "false_alerts": sum(bool(r) and not t for r, t in checks),
        "checks_with_news": sum(bool(t) for _r, t in checks),
    }


def _score_lines(added: list[set[str]], new_titles: list[set[str]]) -> dict:
    """Text lines are "true" when they carry a new post's title."""
    reported = sum(len(lines) for lines in added)
    true_lines = sum(
        sum(any(title in line for title in titles) for line in lines)
        for lines, titles in zip(added, new_titles, strict=True)
    )
    found = sum(
        sum(any(title in line for line in lines) for title in titles)
        for lines, titles in zip(added, new_titles, strict=True)
    )
    total = sum(len(titles) for titles in new_titles)
    return {
        "reported": reported,
        "true_positives": true_lines,
        "false_positives": reported - true_lines,
        "missed": total - found,
        "precision": _ratio(true_lines, reported),
        "recall": _ratio(found, total),
    }


def _median_ms(work, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def _large_page(items: int) -> bytes:
    rows = "".join(
        f'<li class="post"><h3><a href="/posts/{n}-a-long-enough-slug">Post number {n} about '
        f"the harbour and its boats</a></h3><p>Updated {n % 59} minutes ago · {n % 40} "
        f'comments</p><a href="/tags/t{n % 7}">t{n % 7}</a></li>'
        for n in range(items)
    )
    nav = "".join(f'<a href="/section/{n}">Section {n}</a>' for n in range(30))
    return (
        f"<html><body><nav>{nav}</nav><main><ul>{rows}</ul></main>"
        f'<footer><a href="/about">About</a></footer></body></html>'
    ).encode()


def run(size: str = "full") -> dict:
    rounds = ROUNDS[size]
    path, steps = load_steps()
    start = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
    server = FixtureServer()
    server.loopback.start()
    try:
        with override_settings(
            FETCH_TEST_ONLY_LOOPBACK_HOSTS=("localhost",), FETCH_HOST_MIN_INTERVAL_MS=0
        ):
            truth = [{server.url(p) for p in step.new_paths} for step in steps]
            watcher_runs = [_watcher_round(server, path, steps, n, start) for n in range(rounds)]
            naive_runs = [_naive_round(server, path, steps) for _ in range(rounds)]
    finally:
        server.loopback.stop()

    reported = watcher_runs[0][0]
    if any(run_reported != reported for run_reported, _s in watcher_runs):
        raise RuntimeError("the watcher reported differently in two rounds")
    lines_added, lines_changed, links_added, _seconds = naive_runs[0]
    new_titles = [
        {
            entry.title
            for entry in extract_listing(step.html, base_url=server.url(path)).entries
            if entry.url in new
        }
        for step, new in zip(steps, truth, strict=True)
    ]
    watcher_ms = statistics.median(s for _r, seconds in watcher_runs for s in seconds[1:]) * 1000
    baseline_ms = statistics.median(s for *_x, seconds in naive_runs for s in seconds[1:]) * 1000

    extract_ms = _median_ms(
        lambda: [extract_listing(step.html, base_url=server.url(path)) for step in steps], rounds
    ) / len(steps)
    large = _large_page(LARGE_PAGE_ITEMS[size])
    large_entries = len(extract_listing(large, base_url="https://bench.example/").entries)
    large_extract_ms = _median_ms(
        lambda: extract_listing(large, base_url="https://bench.example/"), rounds
    )
    large_text_ms = _median_ms(lambda: _visible_lines(large), rounds)
    watcher = _score_items(reported, truth)

    return {
        "name": "watch",
        "database": connection.vendor,
        "size": size,
        "steps": len(steps),
        "checks_after_baseline": len(steps) - 1,
        "page_bytes_mean": round(statistics.mean(len(s.html) for s in steps)),
        "items_per_page": len(steps[0].on_page),
        "new_items_total": sum(len(t) for t in truth),
        "rounds": rounds,
        "watcher": {
            **watcher,
            **_score_alerts(reported, truth),
            "per_step": [sorted(u.rsplit("/", 1)[-1] for u in r) for r in reported],
        },
        "text_differ": {
            **_score_lines(lines_added, new_titles),
            **_score_alerts(lines_changed, truth),
        },
        "link_differ": {**_score_items(links_added, truth), **_score_alerts(links_added, truth)},
        "watcher_check_ms": round(watcher_ms, 2),
        "text_differ_check_ms": round(baseline_ms, 2),
        "ratio": round(watcher_ms / baseline_ms, 2),
        "extract_ms_per_page": round(extract_ms, 1),
        "large_page_items": large_entries,
        "large_page_bytes": len(large),
        "large_page_extract_ms": round(large_extract_ms, 1),
        "large_page_text_ms": round(large_text_ms, 1),
        "checks": {
            "the watcher reports exactly the new posts": watcher["precision"]
            == watcher["recall"]
            == 1.0
        },
    }


def describe(result: dict) -> list[str]:
    w, t, link = result["watcher"], result["text_differ"], result["link_differ"]
    return [
        f"watch fixture: {result['steps']} versions of one listing page "
        f"(~{result['page_bytes_mean']:,} bytes, {result['items_per_page']} posts each), "
        f"{result['new_items_total']} truly new posts over {result['checks_after_baseline']} "
        f"checks; {result['rounds']} rounds on {result['database']} ({result['size']})",
        f"watcher (no selector):  precision {w['precision']:.2f}  recall {w['recall']:.2f}  "
        f"({w['true_positives']} right, {w['false_positives']} false, {w['missed']} missed); "
        f"alerts on {w['alerts']}/{w['checks']} checks, {w['false_alerts']} false "
        f"({w['checks_with_news']} checks had news)",
        f"text differ:            precision {t['precision']:.2f}  recall {t['recall']:.2f}  "
        f"({t['reported']} changed lines, {t['false_positives']} without a new post); "
        f"alerts on {t['alerts']}/{t['checks']} checks, {t['false_alerts']} false",
        f"links added:            precision {link['precision']:.2f}  recall {link['recall']:.2f}  "
        f"({link['reported']} links, {link['false_positives']} not new posts); "
        f"alerts on {link['alerts']}/{link['checks']} checks, {link['false_alerts']} false",
        f"per check (median): watcher {result['watcher_check_ms']:.1f} ms (fetch + extract + "
        f"pool upsert) vs text differ {result['text_differ_check_ms']:.1f} ms (fetch + text "
        f"diff): ratio {result['ratio']:.2f}; extraction alone "
        f"{result['extract_ms_per_page']:.1f} ms a page",
        f"large page: {result['large_page_items']} items from {result['large_page_bytes']:,} "
        f"bytes in {result['large_page_extract_ms']:.0f} ms (median; its visible text alone: "
        f"{result['large_page_text_ms']:.0f} ms)",
    ]
