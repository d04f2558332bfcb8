"""`ingest`: end-to-end ingest items/s (parse, sanitize, canonicalize, dedup, upsert into the
pool) over real feeds, against bare `feedparser.parse()` with its defaults on the same bytes.

Corpus: ../shared/corpora/feeds (85 curated feeds + 200 small-web feeds) when present, else
the demo feeds shipped in the repository (ingest/demo_feeds.py: 5 feeds, 40 items, at every
size). ratio = pipeline items/s ÷ feedparser items/s. The two run interleaved, file by file, in
one process on one thread. Reading levels are rated by the worker after ingest
(ingest/pool/levels.py), not on the ingest path: that work is timed separately afterwards and
reported beside the ratio, not inside it.

Sizes (tests/bench/sizes.py), of the shared corpus: full = all 285 files (53.5 MB, 8,929
items); small = every 4th file (72 files, 10.5 MB, 1,876 items); smoke = every 15th (19 files,
3.4 MB, 335 items). Checks: no feed file failed; the pipeline kept items.
"""

from __future__ import annotations

import resource
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import feedparser
from django.conf import settings
from django.db import connection

from ingest.models import ContentItem, Source
from ingest.pool import levels
from ingest.refresh.pipeline import refresh_source
from tests.bench.corpus import SHARED_FEEDS, feed_files, feedparser_as_shipped
from tests.bench.sizes import every_nth


def corpus_files(corpus: str | None, size: str = "full") -> tuple[str, list[Path]]:
    """The corpus's feed files (every n-th below full size), or the demo feeds without it."""
    folder = Path(corpus) if corpus else SHARED_FEEDS
    if folder.is_dir():
        return str(folder), every_nth(feed_files(folder), size)
    from ingest.demo_feeds import write_demo_feeds

    print(f"ingest: no corpus at {folder}; using the demo feeds shipped in the repository")
    demo_folder = Path(settings.DATA_DIR) / "bench-demo-feeds"
    written = write_demo_feeds(demo_folder, now=datetime.now(UTC))
    return "shipped demo feeds", [path for _feed, path in written]


def _feedparser_defaults(content: bytes) -> int:
    with feedparser_as_shipped():
        # feedparser's defaults: its own sanitizer and relative-URI resolution on.
        return len(
            feedparser.parse(content, sanitize_html=True, resolve_relative_uris=True).entries
        )


@dataclass
class Measured:
    baseline_seconds: float = 0.0
    baseline_items: int = 0
    pipeline_seconds: float = 0.0
    pipeline_items: int = 0
    failed_files: int = 0


def _measure(files: list[Path]) -> Measured:
    """Both sides, interleaved file by file (which goes first alternates), so a slower
    stretch of the machine costs both the same."""
    now = datetime.now(UTC)
    sources = [
        Source.objects.create(
            type=Source.Type.FEED,
            config={"file": str(path)},
            config_hash=f"bench-{index:06d}",
            title=path.stem,
        )
        for index, path in enumerate(files)
    ]
    measured = Measured()

    def baseline(path: Path) -> None:
        content = path.read_bytes()
        started = time.perf_counter()
        measured.baseline_items += _feedparser_defaults(content)
        measured.baseline_seconds += time.perf_counter() - started

    def pipeline(source: Source) -> None:
        started = time.perf_counter()  # the pipeline reads the file itself
        outcome = refresh_source(source, now=now)
        measured.pipeline_seconds += time.perf_counter() - started
        measured.pipeline_items += outcome.counts.seen
        measured.failed_files += not outcome.ok

    for index, (path, source) in enumerate(zip(files, sources, strict=True)):
        if index % 2:
            pipeline(source)
            baseline(path)
        else:
            baseline(path)
            pipeline(source)
    return measured


def run(size: str = "full", corpus: str | None = None) -> dict:
    label, files = corpus_files(corpus, size)
    corpus_bytes = sum(p.stat().st_size for p in files)
    measured = _measure(files)
    baseline_seconds, baseline_items = measured.baseline_seconds, measured.baseline_items
    pipeline_seconds, pipeline_items = measured.pipeline_seconds, measured.pipeline_items
    failed_files, stored = measured.failed_files, ContentItem.objects.count()
    started = time.perf_counter()
    rated = levels.rate_items(ContentItem.objects.values_list("id", flat=True))
    rating_seconds = time.perf_counter() - started
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    feedparser_rate = baseline_items / baseline_seconds
    pipeline_rate = pipeline_items / pipeline_seconds
    return {
        "name": "ingest",
        "database": connection.vendor,
        "size": size,
        "corpus": label,
        "files": len(files),
        "bytes": corpus_bytes,
        "feedparser_items": baseline_items,
        "feedparser_seconds": round(baseline_seconds, 3),
        "feedparser_items_per_s": round(feedparser_rate, 1),
        "pipeline_items": pipeline_items,
        "pipeline_seconds": round(pipeline_seconds, 3),
        "pipeline_items_per_s": round(pipeline_rate, 1),
        "stored_items": stored,
        "failed_files": failed_files,
        "items_kept_vs_feedparser": round(pipeline_items / max(1, baseline_items), 4),
        "peak_rss_mb": round(peak_kb / 1024, 1),
        "rated_afterwards": rated,
        "rating_seconds": round(rating_seconds, 3),
        "ratio": round(pipeline_rate / feedparser_rate, 2),
        "checks": {"no feed file failed": failed_files == 0, "items kept": stored > 0},
    }


def describe(result: dict) -> list[str]:
    return [
        f"ingest benchmark on {result['database']} ({result['size']}) — corpus: {result['corpus']}",
        f"  data: {result['files']} files, {result['bytes'] / 1e6:.1f} MB",
        f"  feedparser.parse (defaults): {result['feedparser_items']} items in "
        f"{result['feedparser_seconds']} s = {result['feedparser_items_per_s']} items/s",
        f"  Tidings pipeline (parse+sanitize+canonicalize+dedup+upsert): "
        f"{result['pipeline_items']} items in {result['pipeline_seconds']} s = "
        f"{result['pipeline_items_per_s']} items/s; {result['stored_items']} stored after "
        f"dedup; {result['failed_files']} files failed",
        f"  items kept vs feedparser: {result['items_kept_vs_feedparser']:.2%}; "
        f"peak RSS {result['peak_rss_mb']} MB",
        f"  reading levels, rated afterwards by the worker (not in the ratio): "
        f"{result['rated_afterwards']} items in {result['rating_seconds']} s",
        f"  ratio (pipeline ÷ feedparser): {result['ratio']}",
    ]
