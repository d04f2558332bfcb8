"""Posting to the ledger: the only code that writes `CreditTransaction` rows or moves a balance.

Every posting takes the account's row lock, starts a new period first if the old one has
ended, appends the row with its idempotency key and moves the balance — all in one
transaction, so the balance is always the sum of the current period's rows
(`check_balance()`), and two postings for one account never interleave. A key that was
posted before returns the existing row and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Sum
from django.utils.translation import gettext as _

from billing import periods
from billing.models import Account, CreditTransaction

Kind = CreditTransaction.Kind


class InsufficientCredits(Exception):
    """A debit the balance cannot cover; nothing was written."""

    def __init__(self, *, needed: int, available: int):
        super().__init__(f"needs {needed} credits, {available} available")
        self.needed = needed
        self.available = available


class LedgerInputError(Exception):
    """A grant or adjustment that breaks a rule; `errors` maps each field to its message."""

    def __init__(self, errors: dict[str, str]):
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors


@dataclass(frozen=True)
class Posted:
    row: CreditTransaction
    created: bool


def lock(account_id: int, *, now: datetime) -> Account:
    """The account under its row lock, its period current. Call inside a transaction."""
    account = Account.objects.select_for_update().get(pk=account_id)
    periods.roll_if_due(account, now=now)
    return account


def post_locked(
    account: Account,
    *,
    kind: str,
    amount: int,
    key: str,
    now: datetime,
    run_id: int | None = None,
    breakdown: dict | None = None,
    reason: str = "",
    actor=None,
    allow_negative: bool = False,
) -> Posted:
    """Append one row to an account the caller has locked (see `lock`). A user account's
    balance never goes below zero: such a debit raises InsufficientCredits unless
    `allow_negative` (never used for users; the platform account has no floor)."""
    existing = CreditTransaction.objects.filter(idempotency_key=key).first()
    if existing is not None:
        return Posted(existing, created=False)
    balance = account.balance + amount
    if balance < 0 and amount < 0 and account.kind == Account.Kind.USER and not allow_negative:
        raise InsufficientCredits(needed=-amount, available=account.balance)
    row = CreditTransaction.objects.create(
        account=account,
        kind=kind,
        amount=amount,
        run_id=run_id,
        period_start=account.period_start,
        balance_after=balance,
        idempotency_key=key,
        breakdown=breakdown or {},
        reason=reason[:300],
        actor=actor,
        created_at=now,
    )
    if amount:
        Account.objects.filter(pk=account.pk).update(balance=balance)
        account.balance = balance
    return Posted(row, created=True)


def post(account_id: int, **kwargs) -> Posted:
    """`post_locked` in a transaction of its own (or the caller's), taking the lock."""
    with transaction.atomic():
        account = lock(account_id, now=kwargs["now"])
        return post_locked(account, **kwargs)


def grant_or_adjust(
    account_id: int, *, kind: str, amount: int, reason: str, actor, now: datetime, key: str
) -> Posted:
    """A staff member's grant (credits added) or adjustment (either sign), with the reason
    written to the ledger. `key` makes a double-submitted form post once."""
    errors: dict[str, str] = {}
    if kind not in (Kind.GRANT, Kind.ADJUSTMENT):
        errors["kind"] = _("Choose a grant or an adjustment.")
    if not (reason or "").strip():
        errors["reason"] = _("Say why: the reason is written to the ledger.")
    if not isinstance(amount, int) or amount == 0:
        errors["amount"] = _("Give a whole number of credits other than zero.")
    elif kind == Kind.GRANT and amount < 0:
        errors["amount"] = _("A grant adds credits; use an adjustment to take credits away.")
    if errors:
        raise LedgerInputError(errors)
    try:
        return post(
            account_id,
            kind=kind,
            amount=amount,
            key=key,
            now=now,
            reason=reason.strip(),
            actor=actor,
        )
    except InsufficientCredits as exc:
        raise LedgerInputError(
            {
                "amount": _("The balance is %(balance)d; an adjustment cannot take it below zero.")
                % {"balance": exc.available}
            }
        ) from None


def period_sum(account: Account) -> int:
    """The sum of the account's rows in its current period: what `balance` must equal."""
    total = CreditTransaction.objects.filter(
        account=account, period_start=account.period_start
    ).aggregate(total=Sum("amount"))["total"]
    return total or 0


def check_balance(account: Account) -> bool:
    account.refresh_from_db(fields=["balance", "period_start"])
    return account.balance == period_sum(account)
