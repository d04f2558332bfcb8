"""The daily backfill of Korean feeds and feeds with gaps (seed 003 §5), at 03:30 Asia/Seoul."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from ingest.library.backfill import backfill_day, backfill_targets, request_if_due
from ingest.library.packs import install_pack
from ingest.models import Backfill, FetchLog, Source, config_hash
from ingest.refresh.pipeline import claim_due_sources, refresh_source

pytestmark = pytest.mark.django_db

# 03:30 in Seoul (UTC+9, no DST) is 18:30 UTC the day before.
SEOUL_0330 = datetime(2026, 11, 20, 18, 30, tzinfo=UTC)


def rss(*links: str, language: str = "ko") -> str:
    items = "".join(
        f"<item><title>기사 {link}</title><link>https://news.example.kr/{link}</link>"
        f"<description>{link} 요약.</description></item>"
        for link in links
    )
    return (
        '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel>'
        f"<title>한국 뉴스</title><language>{language}</language>{items}</channel></rss>"
    )


def feed_source(url: str, now, **fields) -> Source:
    return Source.objects.create(
        type=Source.Type.FEED,
        config={"url": url},
        config_hash=config_hash(Source.Type.FEED, {"url": url}),
        url=url,
        next_refresh_at=now,
        **fields,
    )


def reload(source: Source) -> Source:
    return Source.objects.get(pk=source.pk)


def test_the_backfill_is_due_from_0330_in_seoul():
    assert backfill_day(SEOUL_0330 - timedelta(minutes=1)) is None
    assert backfill_day(SEOUL_0330) == date(2026, 11, 21)
    assert backfill_day(SEOUL_0330 + timedelta(hours=5)) == date(2026, 11, 21)
    # Midnight in Seoul starts a new day that is not due before its own 03:30.
    assert backfill_day(datetime(2026, 11, 21, 15, 0, tzinfo=UTC)) is None


def test_it_asks_korean_feeds_and_feeds_with_gaps_once_a_day(alice, now):
    install_pack(alice, "korean-news", now=now)  # six feeds, and NAVER (not a feed)
    english = feed_source("https://blog.example/feed", now, language="en")
    gappy = feed_source("https://other.example/feed", now, gap_detected_at=now)
    korean = feed_source("https://news.example.kr/rss", now, language="ko-KR")
    feed_source("https://off.example.kr/rss", now, language="ko", status="disabled")

    assert request_if_due(now=SEOUL_0330 - timedelta(minutes=1)) is None
    first = request_if_due(now=SEOUL_0330)
    assert (first.day, first.sources) == (date(2026, 11, 21), 8)
    asked = set(
        Source.objects.filter(backfill_requested_at=SEOUL_0330).values_list("pk", flat=True)
    )
    assert asked == {s.pk for s in backfill_targets()}
    assert {gappy.pk, korean.pk} <= asked and english.pk not in asked

    assert request_if_due(now=SEOUL_0330 + timedelta(minutes=1)) is None  # once a day
    assert request_if_due(now=SEOUL_0330 + timedelta(hours=20)) is None
    assert request_if_due(now=SEOUL_0330 + timedelta(days=1)).day == date(2026, 11, 22)
    assert list(Backfill.objects.values_list("day", "sources")) == [
        (date(2026, 11, 22), 8),
        (date(2026, 11, 21), 8),
    ]


def test_a_missed_0330_is_caught_up_by_the_first_tick_after_it(now):
    assert request_if_due(now=SEOUL_0330 + timedelta(hours=6)).day == date(2026, 11, 21)


def test_the_backfill_read_is_unconditional_logged_as_a_backfill_and_adds_nothing_twice(
    fixture_server, db
):
    t0 = SEOUL_0330 - timedelta(hours=2)
    url = fixture_server.add("/rss", rss("a", "b"), ETag='"v1"')
    source = feed_source(url, t0)
    refresh_source(source, now=t0)
    # A later read, sent with the stored validators.
    fixture_server.add("/rss", rss("a", "b", "c"), ETag='"v2"')
    source = reload(source)
    assert source.language == "ko"

    assert request_if_due(now=SEOUL_0330).sources == 1
    source = reload(source)
    assert source.backfill_requested_at == SEOUL_0330
    refresh_source(source, now=SEOUL_0330)

    first_read, backfill_read = fixture_server.requests
    assert first_read[1].get("If-None-Match") is None  # nothing stored yet
    assert backfill_read[1].get("If-None-Match") is None  # unconditional, though "v1" is stored
    log = FetchLog.objects.filter(source=source).order_by("started_at").last()
    assert (log.kind, log.outcome, log.fetched, log.inserted) == ("backfill", "ok", 3, 1)
    source = reload(source)
    assert source.backfill_requested_at is None
    assert source.etag == '"v2"'

    # The next day's backfill re-reads the same feed and adds nothing.
    next_day = SEOUL_0330 + timedelta(days=1)
    request_if_due(now=next_day)
    refresh_source(reload(source), now=next_day)
    again = FetchLog.objects.filter(source=source).order_by("started_at").last()
    assert (again.kind, again.fetched, again.inserted) == ("backfill", 3, 0)
    # Ordinary reads stay ordinary.
    refresh_source(reload(source), now=next_day + timedelta(hours=1))
    kinds = list(FetchLog.objects.filter(source=source).order_by("started_at").values_list("kind"))
    assert kinds == [("refresh",), ("backfill",), ("backfill",), ("refresh",)]


def test_the_backfill_read_keeps_the_30_minute_floor(fixture_server, db):
    url = fixture_server.add("/rss", rss("a", "b"))
    source = feed_source(url, SEOUL_0330)
    read_at = SEOUL_0330 - timedelta(minutes=10)
    refresh_source(source, now=read_at)
    assert reload(source).next_refresh_at == read_at + timedelta(minutes=60)

    request_if_due(now=SEOUL_0330)

    # Brought forward, but not before 30 minutes after the last read.
    assert reload(source).next_refresh_at == read_at + timedelta(minutes=30)
    assert source not in claim_due_sources(now=SEOUL_0330 + timedelta(minutes=19))
    assert source in claim_due_sources(now=SEOUL_0330 + timedelta(minutes=20))


def test_a_source_backing_off_keeps_its_back_off_and_its_request_waits(fixture_server, db):
    url = fixture_server.add("/rss", "broken", status=500)
    source = feed_source(url, SEOUL_0330)
    refresh_source(source, now=SEOUL_0330 - timedelta(minutes=40))
    refresh_source(reload(source), now=SEOUL_0330 - timedelta(minutes=20))  # 2nd failure: 15 min
    backing_off_until = reload(source).next_refresh_at
    source = reload(source)
    source.language = "ko"
    source.save()

    request_if_due(now=SEOUL_0330)
    source = reload(source)
    assert source.next_refresh_at == backing_off_until
    refresh_source(source, now=SEOUL_0330)  # fails again: logged as the backfill it was
    log = FetchLog.objects.filter(source=source).order_by("started_at").last()
    assert (log.kind, log.outcome) == ("backfill", "error")
    assert reload(source).backfill_requested_at == SEOUL_0330  # still to do

    fixture_server.add("/rss", rss("a", "b"))
    refresh_source(reload(source), now=SEOUL_0330 + timedelta(hours=2))
    assert reload(source).backfill_requested_at is None


def test_a_read_in_which_every_item_is_new_reports_a_gap(fixture_server, db, now):
    url = fixture_server.add("/rss", rss("a", "b", language="en"))
    source = feed_source(url, now)
    refresh_source(source, now=now)  # the first read: nothing to compare with
    assert reload(source).gap_detected_at is None

    fixture_server.add("/rss", rss("b", "c", language="en"))  # overlaps: no gap
    refresh_source(reload(source), now=now + timedelta(hours=1))
    assert reload(source).gap_detected_at is None

    fixture_server.add("/rss", rss("x", "y", language="en"))  # rolled past what we saw
    later = now + timedelta(hours=2)
    refresh_source(reload(source), now=later)
    assert reload(source).gap_detected_at == later
    assert source.pk in set(backfill_targets().values_list("pk", flat=True))

    # The backfill read re-reads it (nothing new now) and the gap is settled.
    request_if_due(now=SEOUL_0330)
    refresh_source(reload(source), now=SEOUL_0330)
    source = reload(source)
    assert (source.gap_detected_at, source.backfill_requested_at) == (None, None)
    assert FetchLog.objects.filter(source=source, kind="backfill").count() == 1


def test_the_dispatcher_tick_requests_the_backfill(db, monkeypatch):
    from django.utils import timezone

    from digests.tasks import dispatch_tick

    korean = feed_source("https://news.example.kr/rss", None, language="ko")
    monkeypatch.setattr(timezone, "now", lambda: SEOUL_0330 - timedelta(minutes=1))
    dispatch_tick()
    assert not Backfill.objects.exists()

    monkeypatch.setattr(timezone, "now", lambda: SEOUL_0330)
    dispatch_tick()
    dispatch_tick()
    assert list(Backfill.objects.values_list("day", "sources")) == [(date(2026, 11, 21), 1)]
    assert reload(korean).backfill_requested_at == SEOUL_0330


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_tickers_at_once_request_one_backfill_a_day():
    from django.db import connection

    from tests.threads import at_once

    if connection.vendor != "postgresql":
        pytest.skip("concurrent claims are tested on PostgreSQL (SQLite serializes writers)")
    korean = feed_source("https://news.example.kr/rss", None, language="ko")

    outcomes = at_once(lambda _n: request_if_due(now=SEOUL_0330), range(4))

    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert [o.sources for o in outcomes if o is not None] == [1]
    assert Backfill.objects.get().sources == 1
    assert reload(korean).backfill_requested_at == SEOUL_0330


def test_an_operator_can_ask_for_a_backfill_by_hand(db):
    from io import StringIO

    from django.core.management import CommandError, call_command

    korean = feed_source("https://news.example.kr/rss", None, language="ko")
    out = StringIO()
    call_command("backfill", "--now", SEOUL_0330.isoformat(), stdout=out)
    assert out.getvalue().strip() == "Backfill requested for 1 source(s)."
    assert reload(korean).backfill_requested_at == SEOUL_0330
    with pytest.raises(CommandError, match="needs a UTC offset"):
        call_command("backfill", "--now", "2026-11-21T03:30:00")
