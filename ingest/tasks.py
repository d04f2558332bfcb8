"""django-q2 entry points for ingest (thin callers of ingest.refresh.pipeline)."""

from __future__ import annotations

from django.utils import timezone

from ingest.models import Source
from ingest.refresh.pipeline import refresh_many
from ingest.refresh.pipeline import refresh_source as refresh_source_now


def refresh_source(source_id: int) -> str:
    source = Source.objects.filter(pk=source_id).first()
    if source is None:
        return "missing"
    outcome = refresh_source_now(source, now=timezone.now())
    return "ok" if outcome.ok else f"error: {outcome.error}"


def refresh_sources(source_ids: list[int]) -> dict:
    """One scheduler batch: fetched concurrently, stored one source at a time."""
    outcomes = refresh_many(source_ids, now=timezone.now())
    return {
        "refreshed": sum(o.ok and not o.skipped for o in outcomes),
        "failed": sum(not o.ok for o in outcomes),
        "skipped": sum(o.skipped for o in outcomes),
    }


def extract_full_text(item_ids: list[int]) -> dict:
    """Full text for pool items in the background (ingest.text.extract.ensure_full_text). Safe to
    run twice: extracted items are skipped."""
    from ingest.pool.full_text import ensure_full_text

    counts = ensure_full_text(item_ids, now=timezone.now())
    return {
        "extracted": counts.extracted,
        "unchanged": counts.unchanged,
        "skipped": counts.skipped,
        "failed": counts.failed,
        "too_large": counts.too_large,
    }
