"""Billing accounts: every user has one, made at sign-up on the free tier."""

from __future__ import annotations

from datetime import date

from billing.models import MONTHLY_CREDITS, Account, Tier


def ensure_account(user, *, today: date) -> Account:
    account, _ = Account.objects.get_or_create(
        user=user,
        defaults={
            "tier": Tier.FREE,
            "monthly_quota": MONTHLY_CREDITS[Tier.FREE],
            "period_start": today.replace(day=1),
        },
    )
    return account
