"""The daily backfill (seed 003 §5: "回补任务：每天 03:30 扫描过去 48 小时漏抓" — every day at
03:30, look for what the last 48 hours' reads missed).

At 03:30 Asia/Seoul — or at the first dispatcher tick after it, if none ran then — the day is
claimed once (`Backfill`, unique per day, whichever ticker inserts it) and every Korean feed
(the Korean pack's feeds, and any feed that says its language is Korean) and every feed that
reported a gap (`Source.gap_detected_at`: a read in which every item was new, so items
published between two reads may have been missed) gets `backfill_requested_at`. Its next
refresh is then the backfill read: unconditional (no ETag / If-Modified-Since, so a server's
wrong 304 cannot hide anything), upserted like any read — items already in the pool are only
seen again, so a second backfill adds nothing — and logged as a FetchLog of kind `backfill`
(ingest/refresh/pipeline.py). A feed's items older than 48 hours are what the feed no longer
shows: the backfill can only re-read what a feed still holds.

The backfill read *is* the source's next scheduled refresh, brought forward to the earliest
time the 30-minute floor per feed (SPEC §4.8) allows, so a backfill never makes a feed read
more often than its floor; a source backing off after failures keeps its back-off, and its
request waits for its next successful read.

Why the tick and not a django-q2 Schedule: django-q2 schedules run in the server's time zone
(and double-fire on DST fall-back); the tick already does every time-zone-aware job and is
safe with several tickers. Asia/Seoul has no DST today; the rule would still hold if it did.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.db.models import Q

from ingest.library.packs import PACKS_BY_KEY
from ingest.models import Backfill, Source
from ingest.refresh.pipeline import MIN_REFRESH_INTERVAL

BACKFILL_ZONE = ZoneInfo("Asia/Seoul")
BACKFILL_AT = time(3, 30)
BACKFILL_WINDOW = timedelta(hours=48)
KOREAN_PACK = "korean-news"


@dataclass
class BackfillRequest:
    day: object  # date in Asia/Seoul
    sources: int


def korean_pack_feed_urls() -> list[str]:
    return [s.url for s in PACKS_BY_KEY[KOREAN_PACK].sources if s.type == Source.Type.FEED]


def backfill_targets():
    """Scheduled feeds to re-read: Korean ones, and any that reported a gap."""
    return Source.objects.filter(
        type=Source.Type.FEED,
        refresh_mode=Source.RefreshMode.SCHEDULED,
        status__in=[Source.Status.ACTIVE, Source.Status.DEGRADED],
    ).filter(
        Q(url__in=korean_pack_feed_urls())
        | Q(language__istartswith="ko")
        | Q(gap_detected_at__isnull=False)
    )


def request_backfill(*, now: datetime) -> int:
    """Ask every target's next refresh to be a backfill read, as soon as its floor allows;
    returns how many sources were asked."""
    asked = 0
    for source in backfill_targets().only(
        "pk", "last_refresh_at", "next_refresh_at", "consecutive_failures"
    ):
        earliest = now
        if source.last_refresh_at is not None:
            earliest = max(now, source.last_refresh_at + MIN_REFRESH_INTERVAL)
        changes = {"backfill_requested_at": now}
        if not source.consecutive_failures and (
            source.next_refresh_at is None or source.next_refresh_at > earliest
        ):
            changes["next_refresh_at"] = earliest
        asked += Source.objects.filter(pk=source.pk).update(**changes)
    return asked


def backfill_day(now: datetime):
    """The Asia/Seoul day whose backfill is due at `now` (None before 03:30 there)."""
    local = now.astimezone(BACKFILL_ZONE)
    return local.date() if local.time() >= BACKFILL_AT else None


def request_if_due(*, now: datetime) -> BackfillRequest | None:
    """The dispatcher tick's call: claim today's backfill once it is 03:30 in Seoul, and ask
    the sources. Several tickers at once: exactly one inserts the day and asks."""
    day = backfill_day(now)
    if day is None or Backfill.objects.filter(day=day).exists():
        return None
    try:
        with transaction.atomic():
            row = Backfill.objects.create(day=day, requested_at=now)
            row.sources = request_backfill(now=now)
            row.save(update_fields=["sources"])
    except IntegrityError:
        return None  # another ticker claimed the day
    return BackfillRequest(day=day, sources=row.sources)
