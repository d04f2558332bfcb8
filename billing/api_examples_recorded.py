"""Answers of `billing.api_examples`, recorded from the app by
tests/config/test_api_examples.py (RECORD_API_EXAMPLES=1); do not edit."""

RESPONSES = {
    "GET /api/v1/billing/balance #balance": {
        "tier": "pro",
        "balance": 20000,
        "monthly_credits": 20000,
        "period_start": "2026-11-20",
        "period_end": "2026-12-20",
        "limits": {
            "subscriptions": 100,
            "min_interval_seconds": 60,
            "manual_runs_per_hour": 60,
            "public_topics": None,
            "public_publishes_per_day": None,
            "private_topics": True,
        },
    },
    "GET /api/v1/billing/transactions #latest": {
        "next": None,
        "previous": None,
        "results": [
            {
                "id": 2,
                "kind": "grant",
                "amount": 19900,
                "run_id": None,
                "created_at": "2026-11-20T09:00:00Z",
                "breakdown": {"tier_from": "free", "tier_to": "pro"},
                "balance_after": 20000,
                "period_start": "2026-11-20",
                "reason": "Upgrade from Free to Pro",
            },
            {
                "id": 1,
                "kind": "monthly_reset",
                "amount": 100,
                "run_id": None,
                "created_at": "2026-11-20T09:00:00Z",
                "breakdown": {"period_start": "2026-11-20", "period_end": "2026-12-20"},
                "balance_after": 100,
                "period_start": "2026-11-20",
                "reason": "Account opened",
            },
        ],
    },
    "GET /api/v1/billing/estimate #daily": {
        "per_run_max": 0,
        "runs_per_month": 30,
        "per_month_max": 0,
        "monthly_credits": 20000,
        "balance": 20000,
        "tier": "pro",
        "tier_label": "Pro",
        "fits_plan": True,
        "plan_refusal": "",
    },
    "GET /api/v1/admin/billing/stats #november": {
        "since": "2026-11-01T00:00:00+00:00",
        "until": "2026-12-01T00:00:00+00:00",
        "spent": 0,
        "by_kind": {
            "charge": {"count": 1, "credits": 0},
            "grant": {"count": 1, "credits": 19900},
            "monthly_reset": {"count": 1, "credits": 100},
        },
        "by_operation": {
            "search": {"count": 0, "cache_hits": 0, "credits": 0},
            "page_fetch": {"count": 0, "cache_hits": 0, "credits": 0},
            "crawl": {"count": 0, "cache_hits": 0, "credits": 0},
            "extract": {"count": 0, "cache_hits": 0, "credits": 0},
        },
        "by_tier": {"pro": 0},
        "top_users": [],
        "platform": {"editions": 1, "credits": 0},
        "accounts_by_tier": {"free": 0, "basic": 0, "pro": 1, "team": 0},
    },
}
