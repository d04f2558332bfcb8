"""Account periods: a month from the day the account was opened, in UTC dates.

A period is [period_start, period_end). At each period start the account's balance is reset
to its monthly credits by one `monthly_reset` row; credits do not roll over, so the balance is
always the sum of the current period's rows. The reset is posted with the key
`reset:<account>:<period start>`, so running it twice (two workers, a redelivered task, a lazy
reset racing the job) grants once. An idle account jumps straight to the period containing
today: one reset, not one per missed month.
"""

from __future__ import annotations

import calendar
from datetime import UTC, date, datetime

from django.db import connection, transaction

from billing.models import Account, CreditTransaction

RESET_BATCH = 500


def _anchored(year: int, month: int, anchor_day: int) -> date:
    return date(year, month, min(anchor_day, calendar.monthrange(year, month)[1]))


def _month_after(year: int, month: int) -> tuple[int, int]:
    return (year + 1, 1) if month == 12 else (year, month + 1)


def _month_before(year: int, month: int) -> tuple[int, int]:
    return (year - 1, 12) if month == 1 else (year, month - 1)


def period_containing(anchor_day: int, today: date) -> tuple[date, date]:
    """(start, end) of the period that contains `today` for accounts anchored on that day of
    the month; a 31st anchor starts on the last day of shorter months."""
    start = _anchored(today.year, today.month, anchor_day)
    if start > today:
        start = _anchored(*_month_before(today.year, today.month), anchor_day)
    end = _anchored(*_month_after(start.year, start.month), anchor_day)
    return start, end


def utc_today(now: datetime) -> date:
    return now.astimezone(UTC).date()


def reset_key(account_id: int, period_start: date) -> str:
    return f"reset:{account_id}:{period_start.isoformat()}"


def roll_if_due(account: Account, *, now: datetime) -> bool:
    """Start the period containing `now` if the account's period has ended. The caller holds
    the account's row lock (select_for_update inside a transaction); `account` is updated in
    place. Returns whether a new period started."""
    today = utc_today(now)
    if account.kind != Account.Kind.USER or (account.period_end and account.period_end > today):
        return False
    start, end = period_containing(account.anchor_day, today)
    key = reset_key(account.pk, start)
    if not CreditTransaction.objects.filter(idempotency_key=key).exists():
        CreditTransaction.objects.create(
            account=account,
            kind=CreditTransaction.Kind.MONTHLY_RESET,
            amount=account.monthly_quota,
            period_start=start,
            balance_after=account.monthly_quota,
            idempotency_key=key,
            breakdown={"period_start": start.isoformat(), "period_end": end.isoformat()},
            created_at=now,
        )
    account.period_start, account.period_end = start, end
    account.balance = account.monthly_quota
    Account.objects.filter(pk=account.pk).update(
        period_start=start, period_end=end, balance=account.balance
    )
    return True


def resets_due(*, now: datetime) -> bool:
    """Whether any account's period has ended (one indexed query, for the dispatcher tick)."""
    return Account.objects.filter(kind=Account.Kind.USER, period_end__lte=utc_today(now)).exists()


def reset_due_accounts(*, now: datetime, batch: int = RESET_BATCH) -> int:
    """Start the new period of every account whose period has ended; returns how many were
    reset. Safe to run on several workers at once: each account is reset under its row lock
    (PostgreSQL skips rows another worker holds) and the reset row's key is unique."""
    today = utc_today(now)
    skip_locked = connection.features.has_select_for_update_skip_locked
    done = 0
    while True:
        with transaction.atomic():
            due = list(
                Account.objects.filter(kind=Account.Kind.USER, period_end__lte=today)
                .order_by("period_end", "pk")
                .select_for_update(skip_locked=skip_locked)[:batch]
            )
            for account in due:
                done += roll_if_due(account, now=now)
        if len(due) < batch:
            return done
