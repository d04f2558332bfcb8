"""Changing an account's tier (the admin; a payment integration later).

An upgrade takes effect at once: the new tier's limits, and the difference in monthly credits
granted for the rest of the current period. A downgrade takes nothing back: the smaller
monthly credits start at the next period, and subscriptions beyond the new limits are paused
with a reason (billing/limits.py `enforce`), never deleted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction

from billing import ledger, limits
from billing.models import MONTHLY_CREDITS, Account, CreditTransaction, Tier


@dataclass
class TierChange:
    account: Account
    previous: str
    granted: int = 0
    paused: list[int] = field(default_factory=list)


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
            change.granted = new_quota - old_quota
            ledger.post_locked(
                account,
                kind=CreditTransaction.Kind.GRANT,
                amount=change.granted,
                key=f"tier:{account.pk}:{now.isoformat()}:{tier}",
                now=now,
                reason=f"Upgrade from {Tier(previous).label} to {tier.label}",
                actor=actor,
                breakdown={"tier_from": previous, "tier_to": tier},
            )
        else:
            # The current period keeps the credits it was granted; the next reset grants less.
            account.monthly_quota = new_quota
            Account.objects.filter(pk=account.pk).update(monthly_quota=new_quota)
        if account.user_id is not None:
            change.paused = limits.enforce(account, now=now)
    return change
