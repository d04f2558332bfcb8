"""Charging runs (SPEC §6 steps 1 and 8, §10): the budget check before a run and the one
charge after it.

- `reserve()` is the budget check. Before a run does any work it reserves the most the run can
  cost (billing/prices.py `upper_bound`) as a `CreditHold`, under the account's row lock; if
  the balance less the other runs' holds cannot cover it, the run is refused and costs
  nothing. Holds make concurrent runs of one user safe: together they never reserve more
  than the balance.
- `settle()` is the charge, called inside the run's delivery transaction, so the items, the
  run's success and its charge commit together or not at all. One `charge` row per run
  (key `charge:run:<id>`: a retried or redelivered run finds it and charges nothing more);
  a run that delivered nothing to the Inbox gets a `refund` row for the same amount at once
  (key `refund:run:<id>`). A degraded run (fewer items, fallback summaries) delivered
  something and is not refunded. The hold is released in the same transaction.
- `release()` drops the hold of a run that failed. A failed run delivered nothing and is not
  charged; its retry is charged once when it succeeds, for the retry's own operations.
- Public topic editions are paid by the platform account (`charge_edition`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import IntegerField, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from billing import ledger, prices
from billing.accounts import lock_for_user, platform_account
from billing.models import Account, CreditHold, CreditTransaction

Kind = CreditTransaction.Kind

# Longer than a run may take (the task timeout, 5 min): a hold whose worker died stops counting
# after this, so a user is never blocked for long by a run that is gone (a run taken over after
# its lease ran out renews its own hold).
HOLD_TTL = timedelta(minutes=30)

INSUFFICIENT_CREDITS = "insufficient_credits"


@dataclass(frozen=True)
class Reservation:
    ok: bool
    needed: int  # the run's upper-bound cost
    available: int  # the balance less other runs' holds, when it was checked
    held: int = 0


def charge_key(run_id: int) -> str:
    return f"charge:run:{run_id}"


def refund_key(run_id: int) -> str:
    return f"refund:run:{run_id}"


def _held_by_others(account: Account, run_id: int, now: datetime) -> int:
    total = (
        CreditHold.objects.filter(account=account, expires_at__gt=now)
        .exclude(run_id=run_id)
        .aggregate(total=Sum("amount"))["total"]
    )
    return total or 0


def reserve(run, subscription, *, now: datetime) -> Reservation:
    """The budget check: hold the run's upper-bound cost, or refuse it. A run that can cost
    nothing (no on-run sources, no full text) needs no hold and is never refused."""
    needed = prices.upper_bound(subscription)
    if needed == 0:
        return Reservation(ok=True, needed=0, available=0)
    # Nothing here raises on purpose (a refusal is a return value): no savepoint is needed.
    with transaction.atomic(savepoint=False):
        account = lock_for_user(subscription.owner_id, now=now)
        available = account.balance - _held_by_others(account, run.pk, now)
        if available < needed:
            CreditHold.objects.filter(run_id=run.pk).delete()
            return Reservation(ok=False, needed=needed, available=max(available, 0))
        # One hold per run: a run taken over after its worker died renews its own hold.
        CreditHold.objects.bulk_create(
            [
                CreditHold(
                    account=account,
                    run_id=run.pk,
                    amount=needed,
                    created_at=now,
                    expires_at=now + HOLD_TTL,
                )
            ],
            update_conflicts=True,
            unique_fields=["run"],
            update_fields=["account", "amount", "created_at", "expires_at"],
        )
    return Reservation(ok=True, needed=needed, available=available, held=needed)


def settle(run, *, breakdown: dict, delivered: int, now: datetime) -> int:
    """Charge a finished run once (inside the run's delivery transaction) and refund it if it
    delivered nothing; release its hold. Returns the credits charged net of the refund."""
    credits = prices.price(breakdown)
    if credits == 0:
        CreditHold.objects.filter(run_id=run.pk).delete()
        return 0
    # Part of the caller's delivery transaction: no savepoint, a failure undoes the delivery.
    with transaction.atomic(savepoint=False):
        account = lock_for_user(run.user_id, now=now)
        detail = prices.priced(breakdown)
        charge = min(credits, account.balance)
        if charge < credits:
            # Only when a hold expired while the run was still working and other runs spent
            # the balance meanwhile: the platform absorbs the rest, the user never goes below 0.
            detail["capped_from"] = credits
        posted = ledger.post_locked(
            account,
            kind=Kind.CHARGE,
            amount=-charge,
            key=charge_key(run.pk),
            now=now,
            run_id=run.pk,
            breakdown=detail,
        )
        net = -posted.row.amount
        if delivered == 0 and net:
            refund = ledger.post_locked(
                account,
                kind=Kind.REFUND,
                amount=net,
                key=refund_key(run.pk),
                now=now,
                run_id=run.pk,
                breakdown={"reason": "nothing_delivered", "credits": net},
                reason="Nothing was delivered to the Inbox",
            )
            net -= refund.row.amount
        CreditHold.objects.filter(run_id=run.pk).delete()
    return net


def release(run_id: int) -> None:
    CreditHold.objects.filter(run_id=run_id).delete()


def charge_edition(edition_id: int, *, breakdown: dict, now: datetime) -> CreditTransaction:
    """A public topic edition is paid by the platform (seed 000 §17.1): one row per edition on
    the platform account, whatever it cost, so the admin shows what editions cost."""
    account = platform_account(now=now)
    return ledger.post(
        account.pk,
        kind=Kind.CHARGE,
        amount=-prices.price(breakdown),
        key=f"charge:edition:{edition_id}",
        now=now,
        breakdown={**prices.priced(breakdown), "edition_id": edition_id},
        reason="Public topic edition",
    ).row


def with_credits(runs):
    """Annotate a Run queryset with `credits_charged` and `credits_refunded` from the ledger
    (two correlated subqueries: one query for the page, however many runs it shows)."""

    def total(kind: str, sign: int):
        rows = (
            CreditTransaction.objects.filter(run=OuterRef("pk"), kind=kind)
            .order_by()
            .values("run")
            .annotate(total=Sum("amount"))
            .values("total")
        )
        return Coalesce(Subquery(rows, output_field=IntegerField()), Value(0)) * sign

    return runs.annotate(
        credits_charged=total(Kind.CHARGE, -1), credits_refunded=total(Kind.REFUND, 1)
    )


def spent_filter() -> Q:
    return Q(kind__in=[Kind.CHARGE, Kind.REFUND])
