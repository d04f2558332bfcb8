"""The shortest real gap between two runs of a schedule, over the calendar and DST changes."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from billing.intervals import gap_below, runs_per_day_and_days
from digests.schedules.next_run import ScheduleError

MINUTE = timedelta(minutes=1)
HOUR = timedelta(hours=1)


@pytest.mark.parametrize(
    ("cron", "zone", "below", "seconds", "on_date"),
    [
        ("*/5 * * * *", "UTC", HOUR, 300, None),
        ("* 8 * * *", "Europe/Berlin", HOUR, 60, None),  # every minute between 8 and 9
        ("*/10 * * * * *", "UTC", MINUTE, 10, None),  # six fields: seconds first
        ("0,30 8 * * 1", "UTC", HOUR, 1800, None),  # only on Mondays
        ("0,59 0 1 * *", "UTC", HOUR, 3540, None),  # only on the 1st of the month
        ("50 23 * * *", "UTC", HOUR, None, None),  # once a day, at 23:50
        ("5,55 0,23 * * *", "UTC", 11 * MINUTE, 600, None),  # 23:55 to 00:05 next day
        ("5,55 0,23 * * 1", "UTC", 11 * MINUTE, None, None),  # Mondays only: no next day
        ("0 8 * * *", "UTC", HOUR, None, None),
        ("@hourly", "Europe/Berlin", HOUR, None, None),  # both passes of the repeated hour
        ("* * * * *", "Europe/Berlin", MINUTE, None, None),
        # Lord Howe moves its clocks by 30 minutes on 2027-10-03: 02:00 does not exist that
        # night and fires when the clocks jump, half an hour before 03:00.
        ("0 2,3 * * *", "Australia/Lord_Howe", HOUR, 1800, date(2027, 10, 3)),
        ("0 2,3 * * *", "UTC", HOUR, None, None),
        # Berlin skips 02:00-03:00 on 2027-03-28: 02:00:30 and 02:59:30 fire at the jump,
        # 30 seconds after 01:59:30.
        ("30 59,0 1,2 * * *", "Europe/Berlin", MINUTE, 30, date(2027, 3, 28)),
        ("0 */2 * * *", "Europe/Berlin", 2 * HOUR, 3600, date(2027, 3, 28)),
    ],
)
def test_it_finds_the_shortest_gap_below_the_limit(now, cron, zone, below, seconds, on_date):
    gap = gap_below(cron, zone, below, now=now)
    if seconds is None:
        assert gap is None
    else:
        assert (gap.seconds, gap.on_date) == (seconds, on_date)


def test_an_invalid_schedule_is_a_schedule_error(now):
    with pytest.raises(ScheduleError):
        gap_below("61 * * * *", "UTC", HOUR, now=now)
    with pytest.raises(ScheduleError):
        gap_below("0 8 * * *", "Mars/Olympus", HOUR, now=now)


@pytest.mark.parametrize(
    ("cron", "per_day", "days"),
    [
        ("0 8 * * *", 1, 30),
        ("0 8 * * 1-5", 1, 21),
        ("*/15 9-17 * * *", 36, 30),
        ("0 0 1 * *", 1, 1),
        ("*/10 * * * * *", 8640, 30),
    ],
)
def test_runs_in_the_next_thirty_days_come_from_the_fields(cron, per_day, days):
    assert runs_per_day_and_days(cron, date(2026, 11, 20), 30) == (per_day, days)
