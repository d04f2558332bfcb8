"""What a user's runs cost this month, for the console's cost meter.

Every fetch operation a run causes costs one credit (SPEC §10, every unit cost is 1), and each
run records its operations in `Run.billing_breakdown` (digests/meter.py). Until per-run
charging lands in the ledger, the meter adds those up; it never charges anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from billing.models import Account
from digests.models import Run


@dataclass(frozen=True)
class Usage:
    used: int
    quota: int | None
    tier: str
    since: datetime

    @property
    def left(self) -> int | None:
        return None if self.quota is None else max(self.quota - self.used, 0)


def run_cost(run: Run) -> int:
    return int((run.billing_breakdown or {}).get("total") or 0)


def usage_this_month(user, *, now: datetime) -> Usage:
    since = now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    breakdowns = Run.objects.filter(user=user, scheduled_at__gte=since).values_list(
        "billing_breakdown", flat=True
    )
    used = sum(int((b or {}).get("total") or 0) for b in breakdowns)
    account = Account.objects.filter(user=user).only("tier", "monthly_quota").first()
    return Usage(
        used=used,
        quota=account.monthly_quota if account else None,
        tier=account.get_tier_display() if account else "",
        since=since,
    )
