"""Where credits go, for staff: the admin's spend page and GET /api/v1/admin/billing/stats.

Spend is what charges took less what refunds gave back, over a time range (default: this
calendar month, UTC). By operation kind it is the gross charge split by the operations each
charge's breakdown recorded, at the prices it was charged at.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.db.models import Count, IntegerField, Q, Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce

from billing.models import Account, CreditTransaction, Tier
from billing.prices import PRICES

Kind = CreditTransaction.Kind
TOP_USERS = 20


def month_start(now: datetime) -> datetime:
    return now.astimezone(UTC).replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def _int(path: str):
    return Coalesce(Cast(KT(path), IntegerField()), 0)


def spend_stats(*, since: datetime, until: datetime) -> dict:
    rows = CreditTransaction.objects.filter(created_at__gte=since, created_at__lt=until)
    users = rows.filter(account__kind=Account.Kind.USER)
    by_kind = {
        row["kind"]: {"count": row["count"], "credits": row["credits"] or 0}
        for row in rows.values("kind").annotate(count=Count("id"), credits=Sum("amount"))
    }
    charged = users.filter(kind=Kind.CHARGE)
    operations = charged.aggregate(
        **{kind: Sum(_int(f"breakdown__operations__{kind}")) for kind in PRICES}
    )
    cache_hits = charged.aggregate(
        **{kind: Sum(_int(f"breakdown__cache_hits__{kind}")) for kind in PRICES}
    )
    spend = Sum("amount", filter=Q(kind__in=[Kind.CHARGE, Kind.REFUND]))
    top = (
        users.values("account__user__email", "account__tier")
        .annotate(spent=-Coalesce(spend, 0), runs=Count("run", distinct=True))
        .filter(spent__gt=0)
        .order_by("-spent", "account__user__email")[:TOP_USERS]
    )
    by_tier = (
        users.values("account__tier").annotate(spent=-Coalesce(spend, 0)).order_by("account__tier")
    )
    platform = rows.filter(account__kind=Account.Kind.PLATFORM, kind=Kind.CHARGE).aggregate(
        credits=Sum("amount"), editions=Count("id")
    )
    accounts = Account.objects.filter(kind=Account.Kind.USER).values("tier").annotate(n=Count("id"))
    return {
        "since": since.isoformat(),
        "until": until.isoformat(),
        "spent": -(users.aggregate(total=spend)["total"] or 0),
        "by_kind": by_kind,
        "by_operation": {
            kind: {
                "count": operations[kind] or 0,
                "cache_hits": cache_hits[kind] or 0,
                "credits": (operations[kind] or 0) * unit,
            }
            for kind, unit in PRICES.items()
        },
        "by_tier": {row["account__tier"]: row["spent"] for row in by_tier},
        "top_users": [
            {
                "email": row["account__user__email"],
                "tier": row["account__tier"],
                "spent": row["spent"],
                "runs": row["runs"],
            }
            for row in top
        ],
        "platform": {
            "editions": platform["editions"] or 0,
            "credits": -(platform["credits"] or 0),
        },
        "accounts_by_tier": {tier: 0 for tier in Tier.values}
        | {row["tier"]: row["n"] for row in accounts},
    }
