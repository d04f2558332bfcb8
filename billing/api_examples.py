"""Examples of the credit operations (the table config/api/examples.py composes; answers
recorded in api_examples_recorded.py)."""

from __future__ import annotations

from config.api.examples import Example

EXAMPLES = [
    Example("GET /api/v1/billing/balance", "balance", "Your credits this period", 200),
    Example(
        "GET /api/v1/billing/transactions",
        "latest",
        "The latest two ledger entries",
        200,
        query="limit=2",
    ),
    Example(
        "GET /api/v1/billing/estimate",
        "daily",
        "What a daily brief of one of your sources costs",
        200,
        query="cron=0+8+*+*+*&timezone=Europe/Berlin",
    ),
    Example(
        "GET /api/v1/admin/billing/stats",
        "november",
        "Credits spent and granted in November",
        200,
        query="since=2026-11-01T00:00:00Z&until=2026-12-01T00:00:00Z",
    ),
]
