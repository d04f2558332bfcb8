"""django-q2 entry points: thin, idempotent wrappers around the services.

django-q2 may deliver a task more than once; each service tolerates that (a run is claimed
with a conditional update, a source refresh is harmless to repeat).
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.core.cache import cache
from django.utils import timezone

from billing import periods
from config.queue import enqueue as _enqueue
from digests.ai import combination_cache
from digests.delivery import service as deliveries
from digests.runs import runner
from digests.schedules import scheduler
from digests.textwatch import apprise
from inbox.portability import import_jobs
from inbox.tasks import enqueue_import
from ingest.library import backfill
from ingest.library.packs import sync_naver_status

logger = logging.getLogger(__name__)


def enqueue_delivery(delivery_id: int) -> bool:
    return _enqueue("digests.tasks.send_delivery", delivery_id, group="deliveries")


def enqueue_apprise(run_id: int) -> bool:
    return _enqueue("digests.textwatch.tasks.send_run", run_id, group="deliveries")


def enqueue_watch_check(watch_id: int, claimed_until: datetime | None = None) -> bool:
    return _enqueue("digests.textwatch.tasks.check", watch_id, claimed_until, group="watches")


def enqueue_run(run_id: int) -> bool:
    return _enqueue("digests.tasks.execute_run", run_id, group="runs")


def enqueue_source_refresh(source_id: int) -> bool:
    return _enqueue("ingest.tasks.refresh_source", source_id, group="refresh")


def enqueue_source_refreshes(source_ids: list[int]) -> bool:
    return _enqueue("ingest.tasks.refresh_sources", source_ids, group="refresh")


def enqueue_edition(topic_id: int) -> bool:
    return _enqueue("topics.tasks.produce_edition", topic_id, group="editions")


def dispatch_tick() -> dict:
    now = timezone.now()
    # Trending is recomputed once an hour, whichever tick gets there first.
    if cache.add(f"topics:trending:{now:%Y%m%d%H}", True, timeout=2 * 3600):
        _enqueue("topics.tasks.recompute_trending", group="topics")
    # Items a lost rating task or a console refresh left unrated, every five minutes.
    if cache.add(f"ingest:levels-sweep:{now:%Y%m%d%H}{now.minute // 5}", True, timeout=900):
        _enqueue("ingest.tasks.rate_recent_unrated", group="levels")
    # NAVER discovery follows its credentials: sources switched on once they are set, off
    # when they are gone (one UPDATE, every five minutes).
    if cache.add(f"ingest:naver-sync:{now:%Y%m%d%H}{now.minute // 5}", True, timeout=900):
        sync_naver_status()
    # The daily backfill of Korean feeds and feeds with gaps, at 03:30 Asia/Seoul (or the
    # first tick after it): the day is claimed once, its reads are the sources' next refreshes.
    backfill.request_if_due(now=now)
    # Accounts whose period ended get their new period's credits (pull mode: one indexed
    # query a tick; at most one task enqueued a minute, and the reset is idempotent anyway).
    if periods.resets_due(now=now) and cache.add(f"billing:resets:{now:%Y%m%d%H%M}", True, 120):
        _enqueue("billing.tasks.reset_periods", group="billing")
    # Text-change watches that are due and Apprise notifications to send (watches/).
    _enqueue("digests.textwatch.tasks.tick", group="watches")
    result = scheduler.tick(
        now=now,
        run_source=enqueue_source_refresh,
        run_sources=enqueue_source_refreshes,
        run_run=enqueue_run,
        run_edition=enqueue_edition,
        run_delivery=enqueue_delivery,
    )
    combination_cache.delete_expired_hourly(now)
    # Imports whose worker died, and queued ones whose task was lost, are handed out again.
    for job_id in import_jobs.reclaim(now=now):
        enqueue_import(job_id)
    return {
        "sources": len(result.sources),
        "runs": len(result.runs),
        "swept": len(result.swept),
        "editions": len(result.editions),
        "deliveries": len(result.deliveries),
    }


def execute_run(run_id: int) -> str:
    run = runner.execute_run(run_id, now=timezone.now())
    if run is None:
        return "missing"
    # The brief is in the Inbox: now its email and webhook, each a task of its own.
    deliveries.hand_out_run(run.pk, enqueue_delivery)
    apprise.hand_out_sends(run.pk, enqueue_apprise)  # and its Apprise targets, at once too
    return run.status


def send_delivery(delivery_id: int) -> str:
    delivery = deliveries.send_delivery(delivery_id, now=timezone.now())
    return delivery.status if delivery else "missing"
