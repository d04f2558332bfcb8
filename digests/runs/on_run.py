"""On-run sources (SPEC §6 step 2): fetched and upserted at the start of each run, metered.

A source type that can be fetched per run registers a collector for its type (search does, in
`ingest.search.service.register_on_run_collector()`, called when the ingest app is ready); the
collector fetches through ingest, upserts into the pool and records each billable operation on
the run's meter. Scoring then finds the fresh items in the pool like any others.

Collection happens before the run's transaction: external calls never hold row locks.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from digests.models import Subscription
from digests.runs.meter import RunMeter
from ingest.models import Source

logger = logging.getLogger(__name__)

# collector(source, now, meter, subscription=…): the subscription whose run collects, so a
# source can ask what that subscription is interested in (NAVER News discovery does).
Collector = Callable[..., None]

_COLLECTORS: dict[str, Collector] = {}


def register_collector(source_type: str, collector: Collector) -> None:
    if source_type not in Source.Type.values:
        raise ValueError(f"Unknown source type {source_type!r}.")
    _COLLECTORS[source_type] = collector


def collector_for(source_type: str) -> Collector | None:
    return _COLLECTORS.get(source_type)


def unregister_collector(source_type: str) -> None:
    _COLLECTORS.pop(source_type, None)


def on_run_sources(subscription: Subscription):
    return Source.objects.filter(
        subscriptionsource__subscription=subscription,
        subscriptionsource__enabled=True,
        refresh_mode=Source.RefreshMode.ON_RUN,
    ).exclude(status=Source.Status.DISABLED)


def collect(subscription: Subscription, *, now: datetime, meter: RunMeter) -> int:
    """Fetch every on-run source of the subscription; return how many were collected. A
    source that fails is logged and skipped: the run still has the pool (the collector records
    the failure on the source, where ingest's back-off rules apply)."""
    if not _COLLECTORS:
        return 0
    collected = 0
    for source in on_run_sources(subscription).order_by("id"):
        collector = _COLLECTORS.get(source.type)
        if collector is None:
            logger.warning("no on-run collector for %s source %s", source.type, source.pk)
            continue
        try:
            collector(source, now, meter, subscription=subscription)
        except Exception:
            logger.exception("on-run source %s failed (run of %s)", source.pk, subscription.pk)
            continue
        collected += 1
    return collected
