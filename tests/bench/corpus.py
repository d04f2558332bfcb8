"""Where benchmarks find real feeds: ../shared/corpora/feeds, when it is there."""

from __future__ import annotations

import contextlib
from pathlib import Path

import feedparser.api
import feedparser.html
import feedparser.mixin
import feedparser.sanitizer
from django.conf import settings

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


# What feedparser ships with; ingest.feeds changes these process-wide.
_SHIPPED_XML_PARSERS = ["drv_libxml2"]


@contextlib.contextmanager
def feedparser_as_shipped(*, keep_our_doctype: bool = False):
    """Inside: feedparser.parse() as installed, for a "defaults" baseline. ingest.feeds swaps
    feedparser's DOCTYPE handling (entities are never expanded), its SAX driver and its
    windows-1252 table (ingest/feedparser_speed.py); all go back to feedparser's own here.
    With `keep_our_doctype` only the speed-ups are undone."""
    saved = (
        feedparser.api.replace_doctype,
        feedparser.api.PREFERRED_XML_PARSERS,
        feedparser.mixin._cp1252,
    )
    if not keep_our_doctype:
        feedparser.api.replace_doctype = feedparser.sanitizer.replace_doctype
    feedparser.api.PREFERRED_XML_PARSERS = _SHIPPED_XML_PARSERS
    feedparser.mixin._cp1252 = feedparser.html._cp1252  # the dict mixin imported
    try:
        yield
    finally:
        (
            feedparser.api.replace_doctype,
            feedparser.api.PREFERRED_XML_PARSERS,
            feedparser.mixin._cp1252,
        ) = saved
