"""How often a watched list is checked: the shortest check interval among its active
notifiers (digests/watches/notifiers.py), within the fetch policy's bounds.

A watched list is one shared Source however many people watch it, so it is fetched at the
pace of its most eager watcher (each bounded by their own tier, billing/limits.py), and never
more often than the pipeline's 30-minute floor per address. A list nobody is notified about
keeps the default hour. Kept apart from digests/watches/notifiers.py so billing's downgrade rules
can use it without importing the watch service (which imports billing)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Min

from digests.models import Subscription
from ingest.models import Source

DEFAULT_CHECK_MINUTES = 60
MIN_CHECK_MINUTES = 30  # ingest.refresh.pipeline.MIN_REFRESH_INTERVAL
MAX_CHECK_MINUTES = 24 * 60  # ingest.refresh.pipeline.MAX_REFRESH_INTERVAL


def active_notifiers():
    return Subscription.objects.alive().filter(
        watch_source__isnull=False, status=Subscription.Status.ACTIVE
    )


def sync_source_intervals(source_ids: Iterable[int]) -> None:
    """Set each list's refresh interval from its active notifiers (call in the transaction
    that changed them). The next check already scheduled stays; the one after follows."""
    ids = sorted(set(source_ids))
    if not ids:
        return
    shortest = dict(
        active_notifiers()
        .filter(watch_source_id__in=ids)
        .values("watch_source_id")
        .annotate(shortest=Min("check_interval_minutes"))
        .values_list("watch_source_id", "shortest")
    )
    for source_id in ids:
        minutes = shortest.get(source_id) or DEFAULT_CHECK_MINUTES
        minutes = min(MAX_CHECK_MINUTES, max(MIN_CHECK_MINUTES, minutes))
        Source.objects.filter(pk=source_id).exclude(refresh_interval_minutes=minutes).update(
            refresh_interval_minutes=minutes
        )
