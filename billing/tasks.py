"""django-q2 entry points for billing: thin, idempotent wrappers around the services."""

from __future__ import annotations

from django.utils import timezone

from billing import periods


def reset_periods() -> int:
    """Start the new period of every account whose period has ended (the dispatcher tick
    enqueues it; a second delivery finds nothing left to reset)."""
    return periods.reset_due_accounts(now=timezone.now())
