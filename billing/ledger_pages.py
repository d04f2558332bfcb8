"""The credits page's data: the account, what its plan allows and uses, and a page of the
ledger newest first with a keyset cursor (`?before=<id>`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Sum

from billing.accounts import ensure_account
from billing.limits import TierLimits, limits_of
from billing.models import Account, CreditHold, CreditTransaction
from digests.models import Run, Subscription

PAGE_SIZE = 50


@dataclass
class CreditsPage:
    account: Account
    limits: TierLimits
    recurring: int
    manual_runs_last_hour: int
    held: int
    rows: list[CreditTransaction] = field(default_factory=list)
    next_before: int | None = None


def credits_page(user, *, now: datetime, before: int | None = None) -> CreditsPage:
    """Six queries whatever the page size."""
    account = ensure_account(user, now=now)
    rows_query = (
        CreditTransaction.objects.filter(account=account)
        .select_related("run__subscription")
        .order_by("-id")
    )
    if before is not None:
        rows_query = rows_query.filter(pk__lt=before)
    rows = list(rows_query[: PAGE_SIZE + 1])
    has_more = len(rows) > PAGE_SIZE
    rows = rows[:PAGE_SIZE]
    held = CreditHold.objects.filter(account=account, expires_at__gt=now).aggregate(
        total=Sum("amount")
    )["total"]
    return CreditsPage(
        account=account,
        limits=limits_of(account),
        recurring=Subscription.objects.alive().filter(owner=user).exclude(cron="").count(),
        manual_runs_last_hour=Run.objects.filter(
            user=user,
            trigger=Run.Trigger.MANUAL,
            scheduled_at__gt=now - timedelta(hours=1),
            scheduled_at__lte=now,
        ).count(),
        held=held or 0,
        rows=rows,
        next_before=rows[-1].pk if has_more else None,
    )
