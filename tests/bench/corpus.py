"""Where benchmarks find real feeds: ../shared/corpora/feeds, when it is there."""

from __future__ import annotations

import contextlib
from pathlib import Path

import feedparser.api
import feedparser.sanitizer
from django.conf import settings

from ingest.feeds import feedparser_speed

SHARED_FEEDS = Path(settings.BASE_DIR).parent / "shared" / "corpora" / "feeds"
FEED_SUFFIXES = frozenset({".xml", ".atom", ".rss", ".json", ".rdf"})


def feed_files(folder: Path, suffixes=FEED_SUFFIXES) -> list[Path]:
    """Feed files below `folder`, sorted; manifests and reference outputs left out."""
    return sorted(
        p
        for p in folder.rglob("*")
        if p.is_file()
        and p.suffix.lower() in suffixes
        and not p.name.startswith("MANIFEST")
        and "expected" not in p.parent.name  # reference outputs, not feeds
    )


@contextlib.contextmanager
def feedparser_as_shipped(*, keep_our_doctype: bool = False):
    """Inside: feedparser.parse() as installed, for a "defaults" baseline. ingest.feeds.parse swaps
    feedparser's DOCTYPE handling (entities are never expanded) and turns on the speed-ups of
    ingest/feeds/feedparser_speed.py; all go back to feedparser's own here. With `keep_our_doctype`
    only the speed-ups are undone."""
    saved_doctype = feedparser.api.replace_doctype
    if not keep_our_doctype:
        feedparser.api.replace_doctype = feedparser.sanitizer.replace_doctype
    try:
        with feedparser_speed.shipped():
            yield
    finally:
        feedparser.api.replace_doctype = saved_doctype
