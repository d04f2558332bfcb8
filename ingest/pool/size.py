"""How many active items the pool holds in a time window: the collection a topic-only run's
word weights are measured against (digests/runs/scoring.py).

A topic-only run's candidates are the pool's items that mention one of its words, so a word's
count among them is its count in the pool; the pool's size in the window is the other half of
its inverse document frequency. Counted from the (status, published_at) index, and kept for
SIZE_SECONDS: a word's weight is a logarithm, and a few minutes of arrivals do not move it.
"""

from __future__ import annotations

from datetime import datetime

from django.core.cache import cache

from ingest.models import ContentItem

SIZE_SECONDS = 600


def items_in_window(since: datetime, until: datetime) -> int:
    """Active items published in [since, until], as of the last count at most SIZE_SECONDS
    old for the same window (keyed to SIZE_SECONDS steps of its ends)."""
    step = SIZE_SECONDS
    key = f"pool-size:{int(since.timestamp()) // step}:{int(until.timestamp()) // step}"
    size = cache.get(key)
    if size is None:
        size = ContentItem.objects.filter(
            status=ContentItem.Status.ACTIVE, published_at__gte=since, published_at__lte=until
        ).count()
        cache.set(key, size, SIZE_SECONDS)
    return size
