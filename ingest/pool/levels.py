"""Stored reading levels of pool items (ContentEnrichment rows with PROMPT_VERSION "reading-1").

The rating itself is ingest/text/reading.py. Rating is not on the ingest path: a refresh stores
its new items and the worker rates them in bulk afterwards (`rate_items`, queued by the refresh
tasks; `rate_recent_unrated` sweeps up whatever a lost task or a console refresh left). A run
that filters by level rates its own unrated candidates first (`rate_unrated`), so a brief never
misses an item that arrived a moment before it. An item is rated again from its full text when
that arrives (`save_reading_level`); runs filter candidates with `reading_level_in`.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from ingest.models import ContentEnrichment, ContentItem
from ingest.pool import bulk
from ingest.pool.recent import id_set
from ingest.text.reading import GENERATOR, PROMPT_VERSION, ItemText

logger = logging.getLogger(__name__)

_INSERTED_COLUMNS = (
    "item_id",
    "locale",
    "prompt_version",
    "generator",
    "reading_level",
    "reading_score",
    "reading_reasons",
    "summary",
    "tags",
    "content_type",
    "entities",
    "created_at",
)
_PG_ARRAY_TYPES = (
    "bigint[]",
    "varchar[]",
    "varchar[]",
    "varchar[]",
    "varchar[]",
    "smallint[]",
    "text[]::jsonb[]",
    "text[]",
    "text[]::jsonb[]",
    "varchar[]",
    "text[]::jsonb[]",
    "timestamptz[]",
)


# What rating reads of an item (ItemText.of).
_RATED_FIELDS = ("id", "canonical_url", "title", "description", "content_html", "full_text",
                 "language")  # fmt: skip
# The sweep looks this far back for items left unrated.
SWEEP_WINDOW = timedelta(days=2)
SWEEP_BATCH = 2000


def store_reading_levels(items) -> int:
    """Rate saved `items` in one multi-row INSERT; items already rated are left as they are."""
    created = connection.ops.adapt_datetimefield_value(timezone.now())
    rows = []
    for item in items:
        text = ItemText.of(item)
        try:
            result = text.rate()
        except Exception:  # a rating bug must not cost a refresh its items
            logger.exception("could not rate the reading level of item %s", text.item_id)
            continue
        reasons = json.dumps(result.reasons, ensure_ascii=False)
        rows.append(
            (text.item_id, text.locale, PROMPT_VERSION, GENERATOR, result.level, result.score,
             reasons, "", "[]", "", "[]", created)
        )  # fmt: skip
    bulk.insert_rows(
        ContentEnrichment._meta.db_table,
        _INSERTED_COLUMNS,
        _PG_ARRAY_TYPES,
        rows,
        tail="ON CONFLICT DO NOTHING",
    )
    return len(rows)


def save_reading_level(item: ContentItem, *, text: str) -> ContentEnrichment:
    """Rate one item again from `text` (its full text) and store the result, replacing the
    item's earlier rating, also one stored under another locale (extraction may have learnt
    the item's language since): an item keeps one reading level."""
    item_text = ItemText.of(item)
    result = item_text.rate(text)
    with transaction.atomic():
        ContentEnrichment.objects.filter(item=item, prompt_version=PROMPT_VERSION).exclude(
            locale=item_text.locale
        ).delete()
        row, _created = ContentEnrichment.objects.update_or_create(
            item=item,
            locale=item_text.locale,
            prompt_version=PROMPT_VERSION,
            defaults={
                "generator": GENERATOR,
                "reading_level": result.level,
                "reading_score": result.score,
                "reading_reasons": result.reasons,
            },
        )
    return row


def reading_level_in(levels) -> Exists:
    """A filter for ContentItem querysets: rated at one of `levels`. Unrated items fail it."""
    return Exists(
        ContentEnrichment.objects.filter(
            item_id=OuterRef("pk"), prompt_version=PROMPT_VERSION, reading_level__in=list(levels)
        )
    )


def _rated():
    return ContentEnrichment.objects.filter(item_id=OuterRef("pk"), prompt_version=PROMPT_VERSION)


def rate_items(item_ids) -> int:
    """Rate the given items that have no reading level yet; two queries for any number of
    them. Safe to repeat: rated items are skipped, and the insert ignores a racing twin."""
    items = (
        ContentItem.objects.filter(pk__in=id_set(list(item_ids)))
        .exclude(Exists(_rated()))
        .only(*_RATED_FIELDS)
    )
    return store_reading_levels(list(items))


def rate_unrated(item_ids) -> int:
    """For a run about to filter `item_ids` by level: rate those not rated yet."""
    return rate_items(item_ids)


def rate_recent_unrated(*, now: datetime, limit: int = SWEEP_BATCH) -> int:
    """Rate items first seen within SWEEP_WINDOW that have no level: what a lost task, a
    console refresh or an `ingest` command left behind. Reads the first_seen_at index."""
    ids = list(
        ContentItem.objects.filter(first_seen_at__gte=now - SWEEP_WINDOW)
        .exclude(Exists(_rated()))
        .order_by("-first_seen_at")
        .values_list("id", flat=True)[:limit]
    )
    return rate_items(ids) if ids else 0
