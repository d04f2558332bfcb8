"""Dates and times shown one way (config/moments.py): the language's short or long format,
always with the zone, in the zone of what the time is about."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import formats, translation

from config.moments import _date_format, day, moment
from digests.subscriptions.service import create_subscription

NOON_UTC = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def test_a_time_carries_its_zone_in_the_short_and_long_forms():
    assert moment(NOON_UTC, "Europe/Berlin") == "20 Nov 2026, 13:00 CET"
    assert moment(NOON_UTC, "Asia/Tokyo", style="long") == "Friday, 20 November 2026, 21:00 JST"
    # A zone whose abbreviation is only an offset shows the offset plainly.
    assert moment(NOON_UTC, "Asia/Kathmandu") == "20 Nov 2026, 17:45 UTC+05:45"


def test_chinese_has_its_own_short_and_long_forms():
    with translation.override("zh-hans"):
        assert moment(NOON_UTC, "Asia/Shanghai") == "2026年11月20日 20:00 CST"
        assert day(date(2026, 11, 20), style="long") == "2026年11月20日 星期五"


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
@pytest.mark.parametrize("format_name", ["SHORT_DATETIME_FORMAT", "DATETIME_FORMAT"])
def test_the_fast_formatter_writes_what_djangos_date_format_writes(language, format_name):
    # Every month, every weekday, single- and double-digit days and hours, in two zones.
    instants = [NOON_UTC + timedelta(days=n * 9, hours=n * 7, minutes=n * 13) for n in range(90)]
    with translation.override(language):
        for zone in ("Europe/Berlin", "Asia/Kolkata"):
            for instant in instants:
                local = instant.astimezone(ZoneInfo(zone))
                assert _date_format(local, format_name) == formats.date_format(local, format_name)


def test_a_format_character_without_a_fast_path_is_written_by_django():
    local = NOON_UTC.astimezone(ZoneInfo("Europe/Berlin"))
    with translation.override("en"):  # TIME_FORMAT is "P": no fast path
        assert _date_format(local, "TIME_FORMAT") == formats.date_format(local, "TIME_FORMAT")
        assert _date_format(local, "TIME_FORMAT") == "1 p.m."


def test_the_subscription_page_shows_its_runs_in_the_subscriptions_zone(client, alice, now):
    # Alice lives in Berlin; this subscription runs on Tokyo time.
    subscription = create_subscription(
        alice,
        {"name": "Tokyo", "interests": ["x"], "cron": "30 7 * * 1-5", "timezone": "Asia/Tokyo"},
        now=now,
    )
    client.force_login(alice)
    html = client.get(reverse("digests:detail", args=[subscription.pk])).content.decode()
    assert "07:30 JST" in html
    assert "CET" not in html
    listing = client.get(reverse("digests:list")).content.decode()
    assert "07:30 JST" in listing
