"""A year of DST through the real scheduler, against a reference computed independently.

The simulation: subscriptions over 20 time zones (Lord Howe's 30-minute shift, Chatham's
+12:45, Apia skipping 30 December 2011 entirely, Havana, Santiago and São Paulo changing at
midnight, Tehran, the southern hemisphere), an injected clock, and the dispatcher's claim
(`digests.schedules.scheduler.claim_due_subscriptions`) called at every instant something is due —
as a minutely ticker would — from 1 July 2011 to 1 July 2012. Optionally the clock advances in
batches of `batch` (exact as long as no schedule fires twice within one batch).

The reference shares no code with digests/schedules/next_run.py (no croniter, no bisection over
instants): its own small cron matcher, the zone's offset transitions found by scanning, and
the SPEC §5 rules stated as "when does the local clock pass this wall time":

- a wall-clock schedule fires the first time the local clock reaches a matching time — a time
  skipped by spring-forward fires at the jump, a time repeated by fall-back fires once;
- a schedule whose hour field is a wildcard or a step follows real elapsed time: it fires at
  every instant the clock reads a matching time (both passes of a repeated hour), and a time
  skipped by spring-forward fires where it would have been without the jump (the old offset).

Used by tests/digests/test_dst_year.py (a reduced size) and the `dstyear` benchmark (1,000
subscriptions, every due instant).
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db.models import Min

from digests.models import Run, Subscription
from digests.schedules.next_run import next_run_after
from digests.schedules.scheduler import CLAIM_BATCH, claim_due_subscriptions

START = datetime(2011, 7, 1, tzinfo=UTC)
END = datetime(2012, 7, 1, tzinfo=UTC)
ZONES = (
    "UTC",
    "America/New_York",
    "America/Los_Angeles",
    "America/St_Johns",
    "America/Havana",
    "America/Santiago",
    "America/Sao_Paulo",
    "America/Asuncion",
    "Europe/London",
    "Europe/Berlin",
    "Africa/Cairo",
    "Asia/Tehran",
    "Asia/Kolkata",
    "Asia/Kathmandu",
    "Asia/Tokyo",
    "Australia/Adelaide",
    "Australia/Sydney",
    "Australia/Lord_Howe",
    "Pacific/Auckland",
    "Pacific/Chatham",
    "Pacific/Apia",
)[1:]  # 20 zones; UTC is what the others are measured against
# Schedules chosen to land on transitions: most zones change clocks between 00:00 and 03:00
# local time, often on a Sunday.
CRONS_SMALL = ("30 2 * * *", "30 1 * * *", "0 */12 * * *")
CRONS_FULL = (
    *CRONS_SMALL,
    "0 0 * * *",
    "15 2 * * 0",
    "0 8 * * *",
    "45 2 * * 1-5",
    "0,30 1-3 * * *",
    "0 */6 * * *",
    "0 9 1 * *",
)

# --- The reference -------------------------------------------------------------------------


def _field(text: str, low: int, high: int) -> frozenset[int]:
    values: set[int] = set()
    for part in text.split(","):
        step = 1
        if "/" in part:
            part, step_text = part.split("/")
            step = int(step_text)
        if part == "*":
            first, last = low, high
        elif "-" in part:
            first, last = (int(n) for n in part.split("-"))
        else:
            first = last = int(part)
        values.update(range(first, last + 1, step))
    return frozenset(values)


@dataclass(frozen=True)
class Cron:
    minutes: frozenset[int]
    hours: frozenset[int]
    days: frozenset[int]
    months: frozenset[int]
    weekdays: frozenset[int]  # 0 = Sunday
    days_restricted: bool
    weekdays_restricted: bool
    elapsed: bool

    @classmethod
    def parse(cls, expression: str) -> Cron:
        minute, hour, day, month, weekday = expression.split()
        return cls(
            _field(minute, 0, 59),
            _field(hour, 0, 23),
            _field(day, 1, 31),
            _field(month, 1, 12),
            frozenset(n % 7 for n in _field(weekday, 0, 7)),
            day != "*",
            weekday != "*",
            "*" in hour or "/" in hour,
        )

    def day_matches(self, day: date) -> bool:
        if day.month not in self.months:
            return False
        by_day = day.day in self.days
        by_weekday = (day.isoweekday() % 7) in self.weekdays
        if self.days_restricted and self.weekdays_restricted:
            return by_day or by_weekday  # cron's rule when both are given
        return by_day and by_weekday

    def wall_times(self, low: datetime, high: datetime):
        """Matching naive wall times w with low <= w < high."""
        times = sorted((h, m) for h in self.hours for m in self.minutes)
        day = low.date()
        while day <= high.date():
            if self.day_matches(day):
                for h, m in times:
                    wall = datetime(day.year, day.month, day.day, h, m)
                    if low <= wall < high:
                        yield wall
            day += timedelta(days=1)


@lru_cache(maxsize=64)
def offset_segments(zone: str, start: datetime, end: datetime):
    """[(from_instant, offset)] for the zone, from scanning its offset every 15 minutes (every
    transition since 1970 is on a quarter hour)."""
    tz = ZoneInfo(zone)
    at = start
    segments = [(start, at.astimezone(tz).utcoffset())]
    while at < end:
        at += timedelta(minutes=15)
        offset = at.astimezone(tz).utcoffset()
        if offset != segments[-1][1]:
            segments.append((at, offset))
    return tuple(segments)


def expected_fires(expression: str, zone: str, start: datetime, end: datetime) -> set[datetime]:
    """Every instant in (start, end] the schedule fires at, by the rules in the docstring."""
    cron = Cron.parse(expression)
    margin = timedelta(days=2)
    segments = offset_segments(zone, start - margin, end + margin)
    fires: set[datetime] = set()
    for index, (begins, offset) in enumerate(segments):
        ends = segments[index + 1][0] if index + 1 < len(segments) else end + margin
        local_from = (begins + offset).replace(tzinfo=None)
        local_to = (ends + offset).replace(tzinfo=None)
        # How far the local clock had got before this segment began.
        reached = (
            local_from if index == 0 else (begins + segments[index - 1][1]).replace(tzinfo=None)
        )
        if local_from > reached:  # spring-forward: wall times in [reached, local_from) never happen
            for wall in cron.wall_times(reached, local_from):
                if cron.elapsed:
                    fires.add((wall - segments[index - 1][1]).replace(tzinfo=UTC))
                else:
                    fires.add(begins)
        low = local_from if cron.elapsed else max(local_from, reached)
        for wall in cron.wall_times(low, local_to):
            fires.add((wall - offset).replace(tzinfo=UTC))
    return {fire for fire in fires if start < fire <= end}


# --- The simulation ------------------------------------------------------------------------


def make_subscriptions(crons, *, per_combination: int) -> dict[int, tuple[str, str]]:
    owners = User.objects.bulk_create(
        User(username=f"dst{n}@example.com", email=f"dst{n}@example.com")
        for n in range(max(1, len(crons) * len(ZONES) * per_combination // 50))
    )
    rows = [
        Subscription(
            owner=owners[n % len(owners)],
            name=f"{cron} in {zone}",
            interests=["time"],
            cron=cron,
            timezone=zone,
            next_run_at=next_run_after(cron, zone, START),
        )
        for n, (cron, zone, _copy) in enumerate(
            (cron, zone, copy)
            for cron in crons
            for zone in ZONES
            for copy in range(per_combination)
        )
    ]
    made = Subscription.objects.bulk_create(rows)
    return {s.pk: (s.cron, s.timezone) for s in made}


def tick_through_the_year(*, batch: timedelta = timedelta(0)) -> dict:
    """Advance the clock to every due instant (plus `batch`) and claim, until the year ends."""
    ticks = 0
    started = time.perf_counter()
    while True:
        due = Subscription.objects.aggregate(first=Min("next_run_at"))["first"]
        if due is None or due > END:
            break
        now = min(due + batch, END)
        while len(claim_due_subscriptions(now=now, limit=CLAIM_BATCH)) == CLAIM_BATCH:
            pass
        ticks += 1
    return {"ticks": ticks, "seconds": round(time.perf_counter() - started, 1)}


def compare(subscriptions: dict[int, tuple[str, str]]) -> dict:
    actual: dict[int, list[datetime]] = defaultdict(list)
    for subscription_id, scheduled_at in Run.objects.values_list("subscription_id", "scheduled_at"):
        actual[subscription_id].append(scheduled_at)
    reference: dict[tuple[str, str], set[datetime]] = {}
    missing, extra, twice = [], [], []
    expected_total = 0
    for subscription_id, combination in subscriptions.items():
        if combination not in reference:
            reference[combination] = expected_fires(*combination, START, END)
        expected = reference[combination]
        got = actual.get(subscription_id, [])
        expected_total += len(expected)
        twice += [(combination, at) for at in set(got) if got.count(at) > 1]
        missing += [(combination, at) for at in sorted(expected - set(got))]
        extra += [(combination, at) for at in sorted(set(got) - expected)]
    return {
        "subscriptions": len(subscriptions),
        "zones": len(ZONES),
        "expected_runs": expected_total,
        "runs": sum(len(v) for v in actual.values()),
        "missing": missing,
        "extra": extra,
        "twice": twice,
    }
