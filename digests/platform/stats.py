"""How the platform is doing, for operators (GET /api/v1/admin/stats): users, subscriptions,
runs by status, fetch health and LLM spend. Aggregates only, a fixed number of queries
whatever the size of the tables (the run and fetch counts read their time indexes)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Count, Q, Sum

from digests.models import LLMBudgetDay, LLMCall, Run, Subscription
from ingest.models import FetchLog, Source

RECENT = timedelta(hours=24)
MONTH = timedelta(days=30)


def _counts(queryset, field: str, values, **extra: Q) -> dict:
    """{value: count} for every value (zero included), plus the named extra counts."""
    aggregates = {f"v_{value}": Count("pk", filter=Q(**{field: value})) for value in values}
    aggregates.update({f"x_{name}": Count("pk", filter=q) for name, q in extra.items()})
    row = queryset.aggregate(**aggregates)
    counts = {value: row[f"v_{value}"] for value in values}
    counts.update({name: row[f"x_{name}"] for name in extra})
    return counts


def platform_stats(*, now: datetime) -> dict:
    since_day, since_month = now - RECENT, now - MONTH
    users = get_user_model().objects.aggregate(
        total=Count("pk"),
        active=Count("pk", filter=Q(is_active=True)),
        staff=Count("pk", filter=Q(is_staff=True)),
        joined_7d=Count("pk", filter=Q(date_joined__gte=now - timedelta(days=7))),
        signed_in_30d=Count("pk", filter=Q(last_login__gte=since_month)),
    )
    subscriptions = _counts(
        Subscription.objects.alive(), "status", Subscription.Status.values, total=Q()
    )
    runs_recent = _counts(
        Run.objects.filter(created_at__gte=since_day), "status", Run.Status.values
    )
    runs_all = _counts(Run.objects.all(), "status", Run.Status.values)
    sources = _counts(
        Source.objects.all(),
        "status",
        Source.Status.values,
        failing=Q(consecutive_failures__gt=0),
        total=Q(),
    )
    fetches = _counts(
        FetchLog.objects.filter(started_at__gte=since_day), "outcome", FetchLog.Outcome.values
    )
    calls = LLMCall.objects.filter(created_at__gte=since_month).aggregate(
        calls_30d=Count("pk"),
        failed_30d=Count("pk", filter=~Q(outcome=LLMCall.Outcome.OK)),
        calls_24h=Count("pk", filter=Q(created_at__gte=since_day)),
        input_tokens_30d=Sum("input_tokens", default=0),
        output_tokens_30d=Sum("output_tokens", default=0),
    )
    today = LLMBudgetDay.objects.filter(day=now.date()).values_list("tokens_used", flat=True)
    return {
        "generated_at": now,
        "users": users,
        "subscriptions": subscriptions,
        "runs": {"last_24h": runs_recent, "all_time": runs_all},
        "fetch_health": {"sources": sources, "fetches_24h": fetches},
        "llm": {
            "tokens_today": next(iter(today), 0),
            "daily_token_budget": settings.LLM_DAILY_TOKEN_BUDGET,
            **calls,
        },
    }
