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
The table grows in place between the two sizes.

ratio = "minute" tick at the large size / at the small size (goal <= 1.5; goal tick <= 1 s).

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
from tests.bench.generate import CRONS, ZONES, add_subscriptions, analyze

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


def _ticks(due_ids, *, spread: bool, repeats: int) -> dict:
    seconds, created = [], set()
    for _ in range(repeats):
        _make_due(due_ids, spread)
        started = time.perf_counter()
        result = tick(now=NOW, run_source=lambda _id: None, run_run=lambda _id: None)
        seconds.append(time.perf_counter() - started)
        created.add(len(result.runs))
    return {
        "ms": round(statistics.median(seconds) * 1000, 1),
        "min_ms": round(min(seconds) * 1000, 1),
        "max_ms": round(max(seconds) * 1000, 1),
        "runs_created": sorted(created),
    }


def _measure(due_ids, repeats: int) -> dict:
    return {
        "minute": _ticks(due_ids, spread=False, repeats=repeats),
        "spread": _ticks(due_ids, spread=True, repeats=repeats),
    }


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
    phases[str(small)] |= _measure(due_ids, repeats)

    started = time.perf_counter()
    add_subscriptions(large - small, owner_ids=owner_ids, now=NOW, schedule=_later, seed=2)
    analyze()
    phases[str(large)] = {
        "subscriptions": large,
        "generate_seconds": round(time.perf_counter() - started, 1),
    }
    phases[str(large)] |= _measure(due_ids, repeats)
    low, high = phases[str(small)], phases[str(large)]
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
        "ratio": round(high["minute"]["ms"] / low["minute"]["ms"], 2),
        "ratio_spread": round(high["spread"]["ms"] / low["spread"]["ms"], 2),
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
        f"  ratio (tick large ÷ tick small): {result['ratio']} (goal <= 1.5; spread: "
        f"{result['ratio_spread']}); tick <= 1 s: {result['goal_tick_le_1s']}"
    )
    return lines
