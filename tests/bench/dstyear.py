"""`dstyear`: a year of DST through the dispatcher's claim — 1,000 subscriptions over 20 time
zones and 10 schedules, the clock advanced to every instant something is due (as a minutely
ticker would see it), 1 July 2011 to 1 July 2012 — compared run by run with a reference
computed without the product's schedule code (tests/digests/dst_year.py).

The full size is that year; `small` runs one subscription per schedule and zone (200), `smoke`
3 schedules for a month. ratio = runs as
the reference expects them ÷ runs made (1.0 when every expected run happened exactly once and
none other did).
"""

from __future__ import annotations

import os
from datetime import timedelta

from django.db import connection

from tests.digests import dst_year

SIZES = {
    # schedules, subscriptions per (schedule, zone), days
    "smoke": (dst_year.CRONS_SMALL, 1, 31),
    "small": (dst_year.CRONS_FULL, 1, 366),
    "full": (dst_year.CRONS_FULL, 5, 366),
}


def run(size: str = "full") -> dict:
    crons, copies, days = SIZES[size]
    dst_year.END = dst_year.START + timedelta(days=days)
    subscriptions = dst_year.make_subscriptions(crons, per_combination=copies)
    timing = dst_year.tick_through_the_year()
    report = dst_year.compare(subscriptions)
    good = report["expected_runs"] - len(report["missing"])
    return {
        "name": "dstyear",
        "size": size,
        "database": connection.vendor,
        "cpus": os.cpu_count(),
        "schedules": len(crons),
        "days": days,
        **timing,
        **{k: v for k, v in report.items() if not isinstance(v, list)},
        "missing": len(report["missing"]),
        "extra": len(report["extra"]),
        "twice": len(report["twice"]),
        "examples": [str(x) for x in (report["missing"] + report["extra"])[:5]],
        "ratio": round(good / max(1, report["runs"]), 4),
        "checks": {
            "every expected run happened": not report["missing"],
            "no run the reference does not expect": not report["extra"],
            "no slot run twice": not report["twice"],
        },
    }


def describe(result: dict) -> list[str]:
    return [
        f"dstyear benchmark on {result['database']}: {result['subscriptions']:,} subscriptions, "
        f"{result['zones']} time zones, {result['schedules']} schedules, {result['days']} days "
        "from 1 July 2011",
        f"  {result['ticks']:,} ticks in {result['seconds']} s; {result['runs']:,} runs made, "
        f"{result['expected_runs']:,} expected by the reference",
        f"  missing {result['missing']}, extra {result['extra']}, twice {result['twice']}"
        + (f"; e.g. {result['examples']}" if result["examples"] else ""),
        f"  ratio (expected runs made ÷ runs made): {result['ratio']}",
    ]
