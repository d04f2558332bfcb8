"""django-q2 entry points for ingest: thin callers of the refresh pipeline and the pool."""

from __future__ import annotations

from django.utils import timezone
from django_q.tasks import async_task

from ingest.models import Source
from ingest.pool import levels
from ingest.refresh.pipeline import refresh_many
from ingest.refresh.pipeline import refresh_source as refresh_source_now


def _rate_later(item_ids: list[int]) -> None:
    """Reading levels are rated after ingest, off the refresh's path (ingest/pool/levels.py)."""
    if item_ids:
        async_task("ingest.tasks.rate_reading_levels", item_ids, group="levels")


def refresh_source(source_id: int) -> str:
    source = Source.objects.filter(pk=source_id).first()
    if source is None:
        return "missing"
    outcome = refresh_source_now(source, now=timezone.now())
    _rate_later(outcome.counts.new_item_ids)
    return "ok" if outcome.ok else f"error: {outcome.error}"


def refresh_sources(source_ids: list[int]) -> dict:
    """One scheduler batch: fetched concurrently, stored one source at a time."""
    outcomes = refresh_many(source_ids, now=timezone.now())
    _rate_later([item_id for o in outcomes for item_id in o.counts.new_item_ids])
    return {
        "refreshed": sum(o.ok and not o.skipped for o in outcomes),
        "failed": sum(not o.ok for o in outcomes),
        "skipped": sum(o.skipped for o in outcomes),
    }


def rate_reading_levels(item_ids: list[int]) -> int:
    """Safe to run twice: rated items are skipped."""
    return levels.rate_items(item_ids)


def rate_recent_unrated() -> int:
    return levels.rate_recent_unrated(now=timezone.now())


def extract_full_text(item_ids: list[int]) -> dict:
    """Full text for pool items in the background (ingest.pool.full_text.ensure_full_text).
    Safe to run twice: extracted items are skipped."""
    from ingest.pool.full_text import ensure_full_text

    counts = ensure_full_text(item_ids, now=timezone.now())
    return {
        "extracted": counts.extracted,
        "unchanged": counts.unchanged,
        "skipped": counts.skipped,
        "failed": counts.failed,
        "too_large": counts.too_large,
    }


def read_inbound_message(message_id: int) -> str:
    """A newsletter message the SMTP listener or the webhook took (ingest/newsletters/).
    Safe to run twice: only a pending message is read."""
    from ingest.newsletters.receiving import read_message

    row = read_message(message_id, now=timezone.now())
    if row is None:
        return "gone"
    if row.item_id:
        _rate_later([row.item_id])
    return row.status
