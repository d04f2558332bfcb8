"""Billing accounts: every user has one, opened at sign-up on the free tier with its first
period's credits; the platform has one for the work it pays for (public topic editions)."""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction

from billing import periods
from billing.models import MONTHLY_CREDITS, Account, CreditTransaction, Tier
from config.compiled_query import PLACEHOLDER_ID, CompiledQuery

# On every console page (the header's balance): compiled once (config/compiled_query.py).
_ACCOUNT = CompiledQuery(
    lambda user_id: Account.objects.filter(user_id=user_id).order_by("pk")[:1], PLACEHOLDER_ID
)


def ensure_account(user, *, now: datetime) -> Account:
    """The user's account, opened now if they have none (a user made by `createsuperuser` or
    in the admin): the first period starts today and its credits are granted by the period's
    reset row, so the balance is the ledger's sum from the first day."""
    return account_for(user.pk, now=now)


def account_for(user_id: int, *, now: datetime) -> Account:
    """`ensure_account` for a user known by id."""
    account = _ACCOUNT.first(user_id)
    if account is not None:
        return account
    today = periods.utc_today(now)
    start, end = periods.period_containing(today.day, today)
    quota = MONTHLY_CREDITS[Tier.FREE]
    try:
        with transaction.atomic():
            account = Account.objects.create(
                user_id=user_id,
                tier=Tier.FREE,
                monthly_quota=quota,
                balance=quota,
                period_start=start,
                period_end=end,
                anchor_day=today.day,
            )
            CreditTransaction.objects.create(
                account=account,
                kind=CreditTransaction.Kind.MONTHLY_RESET,
                amount=quota,
                period_start=start,
                balance_after=quota,
                idempotency_key=periods.reset_key(account.pk, start),
                breakdown={"period_start": start.isoformat(), "period_end": end.isoformat()},
                reason="Account opened",
                created_at=now,
            )
    except IntegrityError:  # opened at the same moment by another request
        return Account.objects.get(user_id=user_id)
    return account


def lock_for_user(user_id: int, *, now: datetime) -> Account:
    """The user's account under its row lock with its period current (opened if missing).
    Call inside a transaction."""
    account = Account.objects.select_for_update().filter(user_id=user_id).first()
    if account is None:
        account_for(user_id, now=now)
        account = Account.objects.select_for_update().get(user_id=user_id)
    periods.roll_if_due(account, now=now)
    return account


def platform_account(*, now: datetime) -> Account:
    account = Account.objects.filter(kind=Account.Kind.PLATFORM).first()
    if account is not None:
        return account
    today = periods.utc_today(now)
    try:
        with transaction.atomic():
            return Account.objects.create(
                kind=Account.Kind.PLATFORM,
                tier=Tier.TEAM,
                monthly_quota=0,
                balance=0,
                period_start=today,
                period_end=None,
                anchor_day=today.day,
            )
    except IntegrityError:
        return Account.objects.get(kind=Account.Kind.PLATFORM)
