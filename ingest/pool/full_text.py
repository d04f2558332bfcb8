"""Full text for pool items (seed 000 §7.2): fetch an item's page, extract its article
(ingest/text/extract.py), store the normalized text (inline or in storage, ingest/pool/bodies.py)
with its sha256 `content_hash`, then place the item among its near-duplicates and score its
quality and reading level again from the body.

`ensure_full_text(item_ids, now=…)` is the service. A failure is recorded on the item
(`extraction_error`) and never raised. Runs call it for their top FULLTEXT_TOP_K candidates only
(`ensure_full_text_of_top`), which is the cost control.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from ingest.fetching import fetch
from ingest.models import ContentItem
from ingest.pool import bodies, levels, neardup
from ingest.text import scores
from ingest.text.extract import Extracted, ExtractionError, extract_main_content

logger = logging.getLogger(__name__)

PAGE_ACCEPT = "text/html, application/xhtml+xml;q=0.9, */*;q=0.1"
HTML_CONTENT_TYPES = ("text/html", "application/xhtml+xml", "text/plain", "")
# A failed extraction is tried again after this long (a page that was down may be back).
RETRY_FAILED_AFTER = timedelta(days=1)
NETWORK_THREADS = 4
ERROR_MAX_CHARS = 300


@dataclass
class FullTextCounts:
    requested: int = 0
    extracted: int = 0  # new or changed text stored
    unchanged: int = 0  # fetched again, same text
    skipped: int = 0  # already extracted, or failed recently
    failed: int = 0
    too_large: int = 0
    errors: dict[int, str] = field(default_factory=dict)


@dataclass
class _Attempt:
    """The network half of one item: what the fetch and the extraction produced."""

    item: ContentItem
    extracted: Extracted | None = None
    error: str = ""
    too_large: bool = False
    answered: bool = False  # the server sent a response (a billable fetch)
    parsed: bool = False  # its bytes went through the extractor (a billable extraction)


def _needs_text(item: ContentItem, now: datetime) -> bool:
    if item.content_too_large:
        return False
    if item.full_text_at is None:
        return True
    return bool(item.extraction_error) and now - item.full_text_at >= RETRY_FAILED_AFTER


def _has_text(item: ContentItem) -> bool:
    """Extracted before and kept: never due again."""
    return (
        item.full_text_at is not None and not item.extraction_error and not item.content_too_large
    )


def _fetch_page(url: str) -> fetch.FetchResult:
    result = fetch.fetch(url, max_bytes=fetch.PAGE_MAX_BYTES, accept=PAGE_ACCEPT)
    if result.content_type not in HTML_CONTENT_TYPES:
        raise ExtractionError(
            _("This address is not a web page (it serves %(type)s).")
            % {"type": result.content_type}
        )
    return result


def _extract_result(result: fetch.FetchResult) -> Extracted:
    return extract_main_content(
        result.content, url=result.url, content_type=result.headers.get("content-type", "")
    )


def fetch_and_extract(url: str) -> Extracted:
    """Fetch one page through the safe client and extract it. Raises fetch.FetchError (incl.
    ResponseTooLarge over 10 MB) or ExtractionError."""
    return _extract_result(_fetch_page(url))


def _attempt(item: ContentItem) -> _Attempt:
    attempt = _Attempt(item)
    try:
        result = _fetch_page(item.canonical_url)
        attempt.answered = attempt.parsed = True
        attempt.extracted = _extract_result(result)
    except fetch.ResponseTooLarge:
        attempt.too_large = attempt.answered = True
    except fetch.HTTPStatusError as exc:
        attempt.error, attempt.answered = exc.message, True
    except (fetch.FetchError, ExtractionError) as exc:
        attempt.error = exc.message
    except Exception as exc:  # a parser bug on one page must not cost the others
        logger.exception("extracting item %s failed", item.pk)
        attempt.error = _("The page could not be read: %(error)s") % {"error": exc}
    return attempt


def store_text(item: ContentItem, extracted: Extracted, *, now: datetime) -> bool:
    """Store extracted text on `item` (already a saved row). Returns False when the text is
    the one already stored (only `full_text_at` moves). The body goes to storage first, then
    the row; then the item is placed among near-duplicates and its quality rescored."""
    digest = extracted.content_hash
    if digest == item.content_hash and (item.full_text or item.full_text_key):
        item.full_text_at, item.extraction_error = now, ""
        item.save(update_fields=["full_text_at", "extraction_error"])
        return False
    try:
        body_fields = bodies.store_body(item, extracted.text)
    except bodies.BodyTooLarge:
        mark_too_large(item, now=now)
        return False
    item.content_hash = digest
    item.full_text_at = now
    item.extraction_error = ""
    item.content_too_large = False
    changed = [
        *body_fields,
        "content_hash",
        "full_text_at",
        "extraction_error",
        "content_too_large",
    ]
    if extracted.language and not item.language:
        item.language = extracted.language
        changed.append("language")
    with transaction.atomic():
        item.save(update_fields=changed)
        neardup.place(item, extracted.text)
        rescore_with_full_text(item, extracted.text)
    return True


def rescore_with_full_text(item: ContentItem, full_text: str) -> None:
    """Quality counts body length and structure, and the reading level reads the body:
    recompute both now that it is known. Two writes: one UPDATE of the item, one upsert of
    its reading level."""
    item.score_quality, item.score_reasons = scores.with_full_text(item, full_text)
    ContentItem.objects.filter(pk=item.pk).update(
        score_quality=item.score_quality, score_reasons=item.score_reasons
    )
    levels.save_reading_level(item, text=full_text)


def mark_too_large(item: ContentItem, *, now: datetime) -> None:
    """Over the 10 MB cap: keep nothing, and say so."""
    changed = bodies.clear_body(item)
    item.content_too_large = True
    item.content_hash = ""
    item.full_text_at = now
    item.extraction_error = ""
    item.save(
        update_fields=[
            *changed,
            "content_too_large",
            "content_hash",
            "full_text_at",
            "extraction_error",
        ]
    )


def _mark_failed(items: list[ContentItem], *, now: datetime) -> None:
    """One UPDATE for all failures. full_text_at records the attempt, so a failing page is
    tried again a day later, not on every run; text from an earlier success is kept."""
    for item in items:
        item.full_text_at = now
    ContentItem.objects.bulk_update(items, ["extraction_error", "full_text_at"])


def ensure_full_text(item_ids, *, now: datetime, meter=None) -> FullTextCounts:
    """Extract the full text of the given pool items that lack it. Pages are fetched and
    extracted on a few threads, outside any transaction; results are stored by the calling
    thread. Never raises for a page's problem: it is recorded on the item. `meter` (a run's
    digests.runs.meter.RunMeter) counts each page a server answered and each extraction, and a
    text the pool already had as a cache hit of both.

    Queries: one to read the items, one for all failures, and a few per stored text."""
    ids = list(dict.fromkeys(item_ids))
    counts = FullTextCounts(requested=len(ids))
    items = list(ContentItem.objects.filter(pk__in=ids).order_by("pk"))
    due = [item for item in items if _needs_text(item, now)]
    counts.skipped = len(ids) - len(due)
    if meter is not None:
        # A text the pool already has answers the fetch and the extraction from a cache:
        # metered all the same (SPEC §10: cache hits count), as cache hits.
        cached = sum(1 for item in items if _has_text(item))
        meter.record("page_fetch", count=cached, cache_hit=True)
        meter.record("extract", count=cached, cache_hit=True)
    if not due:
        return counts
    with ThreadPoolExecutor(max_workers=min(NETWORK_THREADS, len(due))) as pool:
        attempts = list(pool.map(_attempt, due))
    failed: list[ContentItem] = []
    for attempt in attempts:
        item = attempt.item
        if meter is not None:
            meter.record("page_fetch", count=int(attempt.answered))
            meter.record("extract", count=int(attempt.parsed))
        if attempt.error:
            item.extraction_error = attempt.error[:ERROR_MAX_CHARS]
            failed.append(item)
            counts.errors[item.pk] = attempt.error
            continue
        try:
            if attempt.too_large:
                mark_too_large(item, now=now)
                counts.too_large += 1
            elif store_text(item, attempt.extracted, now=now):
                counts.extracted += 1
            elif item.content_too_large:
                counts.too_large += 1
            else:
                counts.unchanged += 1
        except Exception as exc:  # storage down, a database hiccup: this item only
            logger.exception("storing the full text of item %s failed", item.pk)
            item.extraction_error = _("The text could not be stored: %(error)s") % {"error": exc}
            item.extraction_error = item.extraction_error[:ERROR_MAX_CHARS]
            failed.append(item)
            counts.errors[item.pk] = item.extraction_error
    if failed:
        _mark_failed(failed, now=now)
    counts.failed = len(failed)
    return counts


def ensure_full_text_of_top(item_ids, *, now: datetime, meter=None) -> FullTextCounts | None:
    """A run's cost control: full text for its FULLTEXT_TOP_K best candidates only (the rest
    keep title and description). Never raises: a run must not fail for want of full text."""
    top = list(item_ids)[: settings.FULLTEXT_TOP_K]
    if not top:
        return None
    try:
        return ensure_full_text(top, now=now, meter=meter)
    except Exception:
        logger.exception("full-text extraction for a run failed")
        return None
