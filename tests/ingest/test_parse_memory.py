"""The parse-memory budget: concurrent refreshes fetch at once but parse only as much as fits
in REFRESH_PARSE_MEMORY_MB per worker process."""

from __future__ import annotations

import threading
import time

from django.test import override_settings

from ingest.feeds import memory
from ingest.feeds.memory import MEGABYTE, PARSE_MEMORY_FACTOR, ParseMemoryBudget
from ingest.feeds.reader import read_feed
from ingest.models import Source


def hold_at_once(budget: ParseMemoryBudget, sizes: list[int]) -> int:
    """Reserve each size on its own thread, all at once, holding it a moment: the peak held."""
    barrier = threading.Barrier(len(sizes))

    def parse(size: int) -> None:
        barrier.wait()
        with budget.reserve(size):
            time.sleep(0.02)

    threads = [threading.Thread(target=parse, args=(size,)) for size in sizes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert budget.in_use == 0
    return budget.peak


@override_settings(REFRESH_PARSE_MEMORY_MB=256)
def test_sixteen_large_feeds_never_hold_more_than_the_budget():
    five_mb = 5 * MEGABYTE
    peak = hold_at_once(ParseMemoryBudget(), [five_mb] * 16)
    assert peak <= 256 * MEGABYTE
    assert peak >= 3 * five_mb * PARSE_MEMORY_FACTOR  # still several at once, not one by one


@override_settings(REFRESH_PARSE_MEMORY_MB=16)
def test_a_parse_larger_than_the_budget_runs_alone_and_small_ones_run_together():
    budget = ParseMemoryBudget()
    assert hold_at_once(budget, [5 * MEGABYTE] * 3) == 16 * MEGABYTE
    small = ParseMemoryBudget()
    assert hold_at_once(small, [10_000] * 16) == 16 * 10_000 * PARSE_MEMORY_FACTOR


def test_the_feed_reader_parses_inside_the_budget(db, tmp_path, monkeypatch):
    path = tmp_path / "feed.xml"
    path.write_bytes(
        b'<rss version="2.0"><channel><title>t</title><item><title>a</title>'
        b"<link>https://e.example/a</link></item></channel></rss>"
    )
    seen = []
    real_reserve = memory.parse_memory.reserve

    def reserve(size):
        seen.append(size)
        return real_reserve(size)

    monkeypatch.setattr(memory.parse_memory, "reserve", reserve)
    fetched = read_feed(Source(type=Source.Type.FEED, config={"file": str(path)}))
    assert fetched.ok and seen == [path.stat().st_size]
