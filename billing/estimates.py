"""What a subscription is expected to cost, shown before it is created (console and API).

Per run: the upper bound the budget check reserves (billing/prices.py). Per month: that times
the runs its schedule makes in the next 30 days in its time zone. Both are upper bounds: a
run costs less when it has fewer candidates to read in full, and a run that delivers nothing
is refunded.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext as _

from billing import intervals, limits, prices
from billing.accounts import ensure_account
from billing.models import Tier
from config.api.errors import ServiceRefusal
from digests.schedules.next_run import validate_timezone
from ingest.models import UserSource

MONTH_DAYS = 30


class EstimateSourceError(ServiceRefusal):
    """Source ids that are not in the reader's library: an estimate never says anything about
    another reader's sources (not even whether one is a search)."""


@dataclass(frozen=True)
class Estimate:
    per_run_max: int
    runs_per_month: int
    per_month_max: int
    monthly_credits: int
    balance: int
    tier: str  # the plan's key, as /billing/balance gives it ("free")
    tier_label: str  # and its name in the reader's language ("Free")
    fits_plan: bool
    plan_refusal: str  # the tier limit the schedule breaks, in words; empty when it fits


def runs_per_month(cron: str, timezone: str, *, now: datetime) -> int:
    """Runs in the next 30 days: a one-off (no cron) runs once."""
    if not cron:
        return 1
    today = now.astimezone(validate_timezone(timezone)).date()
    per_day, days = intervals.runs_per_day_and_days(cron, today, MONTH_DAYS)
    return per_day * days


def estimate(user, *, cron: str, timezone: str, source_ids, now: datetime) -> Estimate:
    """Raises digests.schedules.next_run.ScheduleError for a bad cron or time zone, and
    EstimateSourceError for source ids outside the reader's library."""
    source_ids = {int(i) for i in source_ids}
    owned = set(
        UserSource.objects.filter(user=user, source_id__in=source_ids).values_list(
            "source_id", flat=True
        )
    )
    if source_ids - owned:
        raise EstimateSourceError(
            {
                "source_ids": _("Not in your source library: %(ids)s.")
                % {"ids": ", ".join(map(str, sorted(source_ids - owned)))}
            },
            code="not_found",
        )
    account = ensure_account(user, now=now)
    per_run = prices.upper_bound_for_sources(source_ids)
    runs = runs_per_month(cron, timezone, now=now)
    refusal = ""
    if cron:
        try:
            limits.check_schedule(account, cron, timezone, now=now)
        except limits.TierLimitError as exc:
            refusal = exc.message
    return Estimate(
        per_run_max=per_run,
        runs_per_month=runs,
        per_month_max=per_run * runs,
        monthly_credits=account.monthly_quota,
        balance=account.balance,
        tier=account.tier,
        tier_label=str(Tier(account.tier).label),
        fits_plan=not refusal,
        plan_refusal=refusal,
    )
