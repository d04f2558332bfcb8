"""`refreshmemory`: the memory a worker holds while a refresh batch parses large feeds at once,
with and without the parse-memory budget (ingest/feeds/memory.py).

Data: N threads (REFRESH_CONCURRENCY's default is 16) each parse a feed of S MB (items of
ordinary HTML paragraphs and links) through the feed reader's parse step, all released at
once. Each configuration runs in a forked process of its own; its figure is the growth of the
process's peak resident set over its resident set before the parses (ru_maxrss − RSS at start).
Configurations: unbounded (the budget set far above any need: every parse at once, as before)
and the default REFRESH_PARSE_MEMORY_MB. ratio = unbounded peak growth ÷ bounded peak growth
(above 1: the budget saves memory); the wall time of each is printed too (the parses hold the
GIL, so running them one after another costs little).

Sizes (tests/bench/sizes.py): full = 16 threads × 5 MB (the feed cap); small = 8 × 2 MB;
smoke = 4 × 0.5 MB. Check: the bounded run's peak growth stays under the budget plus one
unbudgeted parse's worth of slack (2× the budget) at full size.
"""

from __future__ import annotations

import multiprocessing
import resource
import threading
import time

from django.conf import settings
from django.test import override_settings

from ingest.feeds.memory import parse_memory
from ingest.feeds.parse import parse_feed
from tests.bench.hostile import ordinary_feed
from tests.bench.sizes import checked

SHAPES = {"full": (16, 5.0), "small": (8, 2.0), "smoke": (4, 0.5)}
UNBOUNDED_MB = 1_000_000


def _rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() / (1024 * 1024)


def _parse_all(document: bytes, threads: int, budget_mb: int, results) -> None:
    start = _rss_mb()
    barrier = threading.Barrier(threads)

    def parse() -> None:
        barrier.wait()
        with parse_memory.reserve(len(document)):
            parse_feed(document, base_url="https://bench.example/")

    with override_settings(REFRESH_PARSE_MEMORY_MB=budget_mb):
        started = time.perf_counter()
        workers = [threading.Thread(target=parse) for _ in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    results.put({"growth_mb": round(peak - start, 1), "seconds": round(seconds, 2)})


def _measure(document: bytes, threads: int, budget_mb: int) -> dict:
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    process = context.Process(target=_parse_all, args=(document, threads, budget_mb, results))
    process.start()
    outcome = results.get(timeout=1800)
    process.join()
    return outcome


def run(size: str = "full") -> dict:
    threads, megabytes = SHAPES[checked(size)]
    document = ordinary_feed(int(megabytes * 1024 * 1024))
    budget = settings.REFRESH_PARSE_MEMORY_MB
    unbounded = _measure(document, threads, UNBOUNDED_MB)
    bounded = _measure(document, threads, budget)
    return {
        "size": size,
        "threads": threads,
        "feed_mb": round(len(document) / (1024 * 1024), 2),
        "budget_mb": budget,
        "unbounded": unbounded,
        "bounded": bounded,
        "ratio": round(unbounded["growth_mb"] / max(bounded["growth_mb"], 1.0), 2),
        "checks": {
            "bounded peak under twice the budget": size != "full"
            or bounded["growth_mb"] < 2 * budget
        },
    }


def describe(result: dict) -> list[str]:
    return [
        f"refreshmemory benchmark ({result['size']}): {result['threads']} parses at once of a "
        f"{result['feed_mb']} MB feed",
        f"  unbounded: peak RSS +{result['unbounded']['growth_mb']} MB in "
        f"{result['unbounded']['seconds']} s",
        f"  budget {result['budget_mb']} MB: peak RSS +{result['bounded']['growth_mb']} MB in "
        f"{result['bounded']['seconds']} s",
        f"  ratio (unbounded growth ÷ bounded growth): {result['ratio']}",
    ]
