"""`scheduler`: one dispatcher tick (claim due subscriptions + create their runs; enqueueing
stubbed out) with 1,000 subscriptions due among 100k and among 1M.

Data: one owner per 50 subscriptions; schedules from 6 cron presets x 10 time zones; the other
subscriptions are due within the next week (5 % paused). Two shapes of due batch, each ticked
REPEATS times with the same 1,000 made due again in between:
- "minute": what a one-minute tick sees — all 1,000 fire this minute (daily, weekly or every-30
  minutes schedules at this local time in 10 zones: 30 distinct next-run computations, which the
  claim memoizes);
- "spread": after downtime — due times spread over the last hour, so each of the 1,000 needs
  its own next-run computation (the worst case for the croniter part).
The small table is copied to a second database (tests/bench/database.py `copy_beside`), which
grows to the large size; both stay open, and the ticks go in turns, one size then the other
(tests/bench/interleave.py).

ratio = median over the pairs of ("minute" tick at the large size ÷ the same at the small
size), so load on the machine cancels out (goal <= 1.5; goal tick <= 1 s).

Sizes (tests/bench/sizes.py): full = 1,000 due among 100k, then 1M, 5 ticks of each shape;
small = 1,000 due among 10k, then 100k, 5 ticks; smoke = 100 due among 1k, then 3k, 2 ticks.
Subscriptions are bulk-loaded by tests/bench/generate.py (columns from the model). Check:
every tick created one run per due subscription.
"""

from __future__ import annotations

import statistics
import time
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import connection

from digests.models import Run, Subscription
from digests.schedules.scheduler import tick
from tests.bench.database import copy_beside, using
from tests.bench.generate import CRONS, ZONES, add_subscriptions, analyze
from tests.bench.interleave import interleaved_ratio

SIZES = {"full": (100_000, 1_000_000), "small": (10_000, 100_000), "smoke": (1_000, 3_000)}
DUE = {"full": 1000, "small": 1000, "smoke": 100}
REPEATS = {"full": 5, "small": 5, "smoke": 2}
NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


def _owners(count: int) -> list[int]:
    User.objects.bulk_create(
        (
            User(username=f"owner{n}@example.com", email=f"owner{n}@example.com")
            for n in range(count)
        ),
        batch_size=5000,
    )
    return list(User.objects.order_by("id").values_list("id", flat=True))


def _firing_now(index, rng):
    """A schedule whose fire time is NOW in its zone: daily, weekly, or every 30 minutes."""
    zone = ZONES[index % len(ZONES)]
    local = NOW.astimezone(ZoneInfo(zone))
    shape = (index // len(ZONES)) % 3
    cron = (
        f"{local.minute} {local.hour} * * *",
        f"{local.minute} {local.hour} * * {local.isoweekday() % 7}",
        "*/30 * * * *",
    )[shape]
    return cron, zone, NOW


def _later(index, rng):
    if rng.random() < 0.05:
        return rng.choice(CRONS), rng.choice(ZONES), None  # paused
    return rng.choice(CRONS), rng.choice(ZONES), NOW + timedelta(seconds=rng.randint(60, 7 * 86400))


def _make_due(due_ids: list[int], spread: bool) -> None:
    Run.objects.filter(subscription_id__in=due_ids).delete()
    if not spread:
        Subscription.objects.filter(pk__in=due_ids).update(next_run_at=NOW)
        return
    for n, subscription_id in enumerate(due_ids):
        at = NOW - timedelta(seconds=1 + (n * 3599) // len(due_ids))
        Subscription.objects.filter(pk=subscription_id).update(next_run_at=at)


def _one_tick(due_ids, spread: bool, side: dict) -> float:
    """Make the batch due again, tick once; returns the tick's seconds."""
    _make_due(due_ids, spread)
    started = time.perf_counter()
    result = tick(now=NOW, run_source=lambda _id: None, run_run=lambda _id: None)
    elapsed = time.perf_counter() - started
    side["created"].add(len(result.runs))
    return elapsed


def _figures(seconds: list[float], side: dict) -> dict:
    return {
        "ms": round(statistics.median(seconds) * 1000, 1),
        "min_ms": round(min(seconds) * 1000, 1),
        "max_ms": round(max(seconds) * 1000, 1),
        "runs_created": sorted(side["created"]),
    }


def _measure(due_ids, large_db, repeats: int) -> tuple[dict, dict, dict]:
    """Each shape ticked at both sizes in turns (tests/bench/interleave.py); returns the small
    size's figures, the large size's and the ratio of each shape."""
    low, high, ratios = {}, {}, {}
    for shape, spread in (("minute", False), ("spread", True)):
        at_small, at_large = {"created": set()}, {"created": set()}

        def large_tick(_i, spread=spread, side=at_large):
            with using(large_db):
                return _one_tick(due_ids, spread, side)

        def small_tick(_i, spread=spread, side=at_small):
            return _one_tick(due_ids, spread, side)

        timed = interleaved_ratio(large_tick, small_tick, repeats)
        low[shape], high[shape] = _figures(timed.b, at_small), _figures(timed.a, at_large)
        ratios[shape] = round(timed.ratio, 2)
    return low, high, ratios


def run(size: str = "full") -> dict:
    (small, large), due, repeats = SIZES[size], DUE[size], REPEATS[size]
    owner_ids = _owners(large // 50)
    started = time.perf_counter()
    add_subscriptions(due, owner_ids=owner_ids, now=NOW, schedule=_firing_now)
    add_subscriptions(small - due, owner_ids=owner_ids, now=NOW, schedule=_later, seed=1)
    analyze()
    due_ids = list(Subscription.objects.filter(next_run_at__lte=NOW).values_list("id", flat=True))
    assert len(due_ids) == due, len(due_ids)
    phases = {str(small): {"subscriptions": small}}
    phases[str(small)]["generate_seconds"] = round(time.perf_counter() - started, 1)

    with copy_beside() as large_db:
        with using(large_db):
            started = time.perf_counter()
            add_subscriptions(large - small, owner_ids=owner_ids, now=NOW, schedule=_later, seed=2)
            analyze()
        phases[str(large)] = {
            "subscriptions": large,
            "generate_seconds": round(time.perf_counter() - started, 1),
        }
        low, high, ratios = _measure(due_ids, large_db, repeats)
    phases[str(small)] |= low
    phases[str(large)] |= high
    return {
        "name": "scheduler",
        "database": connection.vendor,
        "size": size,
        "due": due,
        "owners": len(owner_ids),
        "repeats": repeats,
        "claim_path": (
            "batch: FOR UPDATE SKIP LOCKED + one conditional UPDATE + bulk INSERT"
            if connection.features.has_select_for_update_skip_locked
            else "batch: conditional UPDATE … FROM VALUES … RETURNING + bulk INSERT"
        ),
        "phases": phases,
        "tick_small_ms": low["minute"]["ms"],
        "tick_large_ms": high["minute"]["ms"],
        "goal_tick_le_1s": high["minute"]["ms"] <= 1000,
        "ratio": ratios["minute"],
        "ratio_spread": ratios["spread"],
        "checks": {
            "every tick created a run per due subscription": all(
                ticks["runs_created"] == [due]
                for phase in phases.values()
                for ticks in (phase["minute"], phase["spread"])
            )
        },
    }


def describe(result: dict) -> list[str]:
    lines = [
        f"scheduler benchmark on {result['database']} ({result['size']} sizes) — "
        f"{result['due']} due subscriptions, {result['owners']} owners, claim path: "
        f"{result['claim_path']}; median of {result['repeats']} ticks (enqueue stubbed)",
    ]
    for phase in result["phases"].values():
        minute, spread = phase["minute"], phase["spread"]
        lines.append(
            f"  {phase['subscriptions']:>9,} subscriptions (made in {phase['generate_seconds']} s):"
            f" tick {minute['ms']} ms (min {minute['min_ms']}, max {minute['max_ms']}) when all "
            f"fire this minute; {spread['ms']} ms (min {spread['min_ms']}, max "
            f"{spread['max_ms']}) when spread over the last hour; runs per tick "
            f"{sorted(set(minute['runs_created'] + spread['runs_created']))}"
        )
    lines.append(
        f"  ratio (median of per-pair tick large ÷ tick small): {result['ratio']} (goal <= 1.5; "
        f"spread: {result['ratio_spread']}); tick <= 1 s: {result['goal_tick_le_1s']}"
    )
    return lines
