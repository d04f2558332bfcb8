"""Where benchmarks find real feeds: ../shared/corpora/feeds, when it is there."""

from __future__ import annotations

from pathlib import Path

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
