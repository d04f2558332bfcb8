"""How close together a cron schedule's runs can come, in real time, in its time zone.

The tier limit on the minimum interval between runs (billing/limits.py) needs the shortest gap
between two consecutive runs a schedule will ever make — not between its next two runs:
`*/5` is 5 minutes, a six-field `*/10 * * * * *` 10 seconds, "every minute between 8 and 9"
(`* 8 * * *`) 1 minute, `0,59 0 1 * *` 59 minutes once a month, and `0 2,3 * * *` in
Australia/Lord_Howe 30 minutes on the night its clocks move by half an hour.

Two parts, both exact:

1. Away from daylight-saving changes a zone's offset is constant, so real gaps are wall-clock
   gaps. In cron every day that fires fires at the same times of day (seconds × minutes ×
   hours), so the shortest wall gap is the shortest gap between those times, or — when two
   firing days can be consecutive — from the day's last time to the next day's first.
2. Around each change of the zone's offset in the coming year, the schedule's real runs are
   computed with the one schedule module (`digests.schedules.next_run.next_run_after`, with its DST
   rules: skipped times fire when the clocks jump, repeated times fire once, interval
   schedules follow elapsed time) over a window wide enough to hold every pair of runs the
   change can bring closer.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

from croniter import croniter

from digests.schedules.next_run import next_run_after, normalize_cron, validate_timezone

DAY = 86_400
# Long enough to see two consecutive firing days of any calendar pattern, leap days included.
_DAY_SCAN = timedelta(days=366 * 8)
_SAMPLE_STEP = timedelta(hours=6)
# The largest change of a zone's offset in use (Antarctica/Troll, 2 hours).
_MAX_SHIFT = 2 * 3600
# No DST window ever holds more runs than this (4 hours of a run per second would); a cap so
# a pathological input cannot make a form submission slow.
_MAX_WINDOW_RUNS = 20_000


@dataclass(frozen=True)
class Gap:
    seconds: int
    # Where the shortest gap happens: a DST change's date, or None for every firing day.
    on_date: date | None = None


def _times_of_day(expanded: list, seconds_first: bool) -> list[int] | None:
    minutes, hours = expanded[0], expanded[1]
    seconds = expanded[5] if seconds_first else [0]

    def values(field, full: int) -> list[int] | None:
        if field == ["*"]:
            return list(range(full))
        if all(isinstance(v, int) for v in field):
            return sorted(set(field))
        return None

    parts = values(seconds, 60), values(minutes, 60), values(hours, 24)
    if any(p is None for p in parts):
        return None
    secs, mins, hrs = parts
    return sorted(h * 3600 + m * 60 + s for h in hrs for m in mins for s in secs)


def _consecutive_firing_days(expression: str, seconds_first: bool) -> int:
    """The fewest days between two firing days (1 when two consecutive days can fire)."""
    fields = expression.split(" ")
    day_fields = fields[3:6] if seconds_first else fields[2:5]
    iterator = croniter(f"0 0 {' '.join(day_fields)}", datetime(2026, 1, 1, tzinfo=UTC))
    previous = iterator.get_next(datetime)
    shortest = None
    end = previous + _DAY_SCAN
    while True:
        current = iterator.get_next(datetime)
        gap = (current - previous).days
        shortest = gap if shortest is None else min(shortest, gap)
        if shortest == 1 or current > end:
            return shortest
        previous = current


def _wall_gap(expression: str) -> tuple[int | None, bool]:
    """(the shortest wall-clock gap, whether every run is at second 0)."""
    seconds_first = len(expression.split(" ")) == 6
    expanded = croniter(
        expression, datetime(2026, 1, 1, tzinfo=UTC), second_at_beginning=seconds_first
    ).expanded
    times = _times_of_day(expanded, seconds_first)
    if not times:
        return None, False
    on_the_minute = all(t % 60 == 0 for t in times)
    return _shortest_wall_gap(expression, seconds_first, times), on_the_minute


def _shortest_wall_gap(expression: str, seconds_first: bool, times: list[int]) -> int:
    in_day = min((b - a for a, b in itertools.pairwise(times)), default=None)
    across = DAY - times[-1] + times[0]  # last run of a day to the first of the next day
    if in_day is not None and across >= in_day:
        return in_day
    days = _consecutive_firing_days(expression, seconds_first)
    across = days * DAY - times[-1] + times[0]
    return across if in_day is None else min(in_day, across)


def _offset(zone: ZoneInfo, instant: datetime) -> timedelta:
    return instant.astimezone(zone).utcoffset() or timedelta(0)


def offset_changes(zone: ZoneInfo, start: datetime, end: datetime) -> list[tuple[datetime, int]]:
    """(instant, shift in seconds) of each change of the zone's UTC offset in [start, end]."""
    changes = []
    cursor = start
    before = _offset(zone, cursor)
    while cursor < end:
        following = min(cursor + _SAMPLE_STEP, end)
        after = _offset(zone, following)
        if after != before:
            low, high = cursor, following
            while high - low > timedelta(seconds=1):
                middle = low + (high - low) / 2
                if _offset(zone, middle) == before:
                    low = middle
                else:
                    high = middle
            changes.append((high, int(abs((after - before).total_seconds()))))
        cursor, before = following, after
    return changes


def _gap_around(
    expression: str, zone_name: str, change: datetime, shift: int, below: int
) -> int | None:
    """The shortest gap between runs near one offset change, if shorter than `below`."""
    reach = timedelta(seconds=below + 2 * shift + 60)
    fire = next_run_after(expression, zone_name, change - reach)
    shortest = None
    for _step in range(_MAX_WINDOW_RUNS):
        following = next_run_after(expression, zone_name, fire)
        gap = int((following - fire).total_seconds())
        if gap < below and (shortest is None or gap < shortest):
            shortest = gap
        if following > change + reach:
            break
        fire = following
    return shortest


@lru_cache(maxsize=512)
def _shortest(expression: str, zone_name: str, below: int, today: date) -> Gap | None:
    wall, on_the_minute = _wall_gap(expression)
    if wall is not None and wall < below:
        return Gap(wall)
    if on_the_minute and below <= 60:
        # Offsets and their changes are whole minutes in every zone, so runs on the minute
        # are whole minutes apart whatever the clocks do.
        return None
    if wall is not None and wall - _MAX_SHIFT >= below:
        return None  # no change of the clocks can bring two runs closer than `below`
    zone = validate_timezone(zone_name)
    start = datetime(today.year, today.month, today.day, tzinfo=UTC)
    found: Gap | None = None
    for change, shift in offset_changes(zone, start, start + timedelta(days=366)):
        if wall is not None and wall - shift >= below:
            continue  # this change cannot bring any two runs closer than `below`
        gap = _gap_around(expression, zone_name, change, shift, below)
        if gap is not None and (found is None or gap < found.seconds):
            found = Gap(gap, on_date=change.astimezone(zone).date())
    return found


def gap_below(expression: str, zone_name: str, below: timedelta, *, now: datetime) -> Gap | None:
    """The shortest real gap between two consecutive runs of the schedule over the coming
    year's calendar and DST changes, if it is shorter than `below`; else None. Raises
    digests.schedules.next_run.ScheduleError for an invalid expression or zone."""
    expression = normalize_cron(expression)
    validate_timezone(zone_name)
    return _shortest(expression, zone_name, int(below.total_seconds()), now.date())


def runs_per_day_and_days(expression: str, start: date, days: int) -> tuple[int, int]:
    """(runs on each firing day, firing days among the `days` local dates from `start`) of a
    cron schedule, read from its fields like `_wall_gap` does; their product is the number of
    runs in those days (give or take a run on a day the clocks change)."""
    expression = normalize_cron(expression)
    seconds_first = len(expression.split(" ")) == 6
    expanded = croniter(
        expression, datetime(2026, 1, 1, tzinfo=UTC), second_at_beginning=seconds_first
    ).expanded
    times = _times_of_day(expanded, seconds_first) or [0]
    fields = expression.split(" ")
    day_fields = fields[3:6] if seconds_first else fields[2:5]
    first = datetime(start.year, start.month, start.day, tzinfo=UTC)
    iterator = croniter(f"0 0 {' '.join(day_fields)}", first - timedelta(seconds=1))
    firing = 0
    while iterator.get_next(datetime) < first + timedelta(days=days):
        firing += 1
    return len(times), firing
