"""Stored reading levels of pool items (ContentEnrichment rows with PROMPT_VERSION "reading-1").

The rating itself is ingest/text/reading.py. New items of a refresh are rated in bulk
(`store_reading_levels`); an item is rated again from its full text when that arrives
(`save_reading_level`); runs filter candidates with `reading_level_in`.
"""

from __future__ import annotations

import json
import logging

from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from ingest.models import ContentEnrichment, ContentItem
from ingest.pool import bulk
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


def store_reading_levels(items) -> int:
    """Rate saved `items` in one multi-row INSERT; items already rated are left as they are.
    The pool calls it for the new items of a refresh."""
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
