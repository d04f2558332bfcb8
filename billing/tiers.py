"""Changing an account's tier (the admin; a payment integration later).

An upgrade takes effect at once: the new tier's limits, and the credits that bring this
period's grants up to the new tier's monthly credits. A period is granted at most the monthly
credits of the highest tier it was on, however often the tier changes: the grant is computed
from what the period was already granted (its reset plus earlier upgrade grants) and posted
with the idempotency key `tier:<account>:<period start>:<tier>`, so five free→pro flips in one
period grant pro's credits once, and a retried change grants nothing twice.

A downgrade takes nothing back: credits already granted stay usable until the period ends (they
were granted; clawing back could push a balance with running holds below zero), the smaller
monthly credits start at the next reset, and subscriptions beyond the new limits are paused
with a reason (billing/limits.py `enforce`), never deleted. Upgrading again in the same period
grants only what the period was not granted yet (nothing, back to a tier it already had).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import Q, Sum

from billing import ledger, limits
from billing.models import MONTHLY_CREDITS, Account, CreditTransaction, Tier


@dataclass
class TierChange:
    account: Account
    previous: str
    granted: int = 0
    paused: list[int] = field(default_factory=list)


def tier_grant_key(account: Account, tier: str) -> str:
    period = account.period_start.isoformat() if account.period_start else "none"
    return f"tier:{account.pk}:{period}:{tier}"


def _granted_this_period(account: Account) -> int:
    """What the current period was granted so far: its reset and its upgrade grants (staff
    grants and adjustments are gifts and corrections, not the plan's credits)."""
    kinds = [CreditTransaction.Kind.MONTHLY_RESET, CreditTransaction.Kind.GRANT]
    granted = CreditTransaction.objects.filter(
        account=account, period_start=account.period_start, kind__in=kinds
    ).filter(Q(idempotency_key__startswith="reset:") | Q(idempotency_key__startswith="tier:"))
    return granted.aggregate(total=Sum("amount"))["total"] or 0


def change_tier(account_id: int, tier: str, *, now: datetime, actor=None) -> TierChange:
    tier = Tier(tier)
    with transaction.atomic():
        account = ledger.lock(account_id, now=now)
        previous = account.tier
        change = TierChange(account=account, previous=previous)
        if previous == tier:
            return change
        old_quota, new_quota = account.monthly_quota, MONTHLY_CREDITS[tier]
        account.tier = tier
        Account.objects.filter(pk=account.pk).update(tier=tier)
        if new_quota > old_quota:
            account.monthly_quota = new_quota
            Account.objects.filter(pk=account.pk).update(monthly_quota=new_quota)
            owed = new_quota - _granted_this_period(account)
            if owed > 0:
                posted = ledger.post_locked(
                    account,
                    kind=CreditTransaction.Kind.GRANT,
                    amount=owed,
                    key=tier_grant_key(account, tier),
                    now=now,
                    reason=f"Upgrade from {Tier(previous).label} to {tier.label}",
                    actor=actor,
                    breakdown={"tier_from": previous, "tier_to": tier},
                )
                change.granted = owed if posted.created else 0
        else:
            # The current period keeps the credits it was granted; the next reset grants less.
            account.monthly_quota = new_quota
            Account.objects.filter(pk=account.pk).update(monthly_quota=new_quota)
        if account.user_id is not None:
            change.paused = limits.enforce(account, now=now)
    return change
