"""The period of a digest type (seed 002 §4.4), in the subscription's time zone: the window
the combination cache's first level is keyed on.

A subscription's type follows from its schedule: a cron with one day of the month is
`monthly` (the calendar month), one with only some days of the week and every day of the
month is `weekly` when it names exactly one weekday (the week from Monday), anything else —
every day, several times a day, several weekdays, a one-off — is `daily` (the calendar day).
Windows are local midnights converted to UTC, so a DST day is 23 or 25 hours long.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from digests.schedules.next_run import ScheduleError, normalize_cron

DAILY, WEEKLY, MONTHLY = "daily", "weekly", "monthly"


def digest_type(cron: str) -> str:
    try:
        fields = normalize_cron(cron).split() if cron else []
    except ScheduleError:
        return DAILY
    if len(fields) != 5:
        return DAILY
    _minute, _hour, day_of_month, _month, day_of_week = fields
    if day_of_month.isdigit():
        return MONTHLY
    one_weekday = day_of_week not in ("*", "?") and not any(c in day_of_week for c in ",-/")
    if day_of_month == "*" and one_weekday:
        return WEEKLY
    return DAILY


def _midnight(day: date, zone: ZoneInfo) -> datetime:
    # As a UTC instant: aware datetimes of one zone subtract as wall clocks in Python.
    return datetime.combine(day, time.min, tzinfo=zone).astimezone(UTC)


def period_window(kind: str, timezone: str, moment: datetime) -> tuple[datetime, datetime]:
    """The [start, end) of the `kind` period holding `moment`, in `timezone`."""
    try:
        zone = ZoneInfo(timezone or "UTC")
    except (ValueError, KeyError):
        zone = ZoneInfo("UTC")
    local = moment.astimezone(zone).date()
    if kind == WEEKLY:
        start = local - timedelta(days=local.weekday())
        end = start + timedelta(days=7)
    elif kind == MONTHLY:
        start = local.replace(day=1)
        end = (start + timedelta(days=32)).replace(day=1)
    else:
        start, end = local, local + timedelta(days=1)
    return _midnight(start, zone), _midnight(end, zone)
