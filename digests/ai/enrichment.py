"""Content-level enrichment (SPEC §7, seed 000 §4.4.1): a 1–3 line summary, tags, a content
type and key entities per item, cached in ingest.ContentEnrichment per (item, locale, prompt
version). Computed once, reused by every user and every later run; a run asks the model only
for the items nobody has summarized yet in its language, several items per call.

Without a model, or when it fails, an item gets its extractive lead summary instead (labelled
"extractive"); those are not cached, so the item is summarized properly once the model is
back. Nothing here ever fails a run.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from datetime import datetime
from string import Template

from django.conf import settings
from django.db.models.functions import Substr

from digests.ai import llm, prompts
from digests.models import LLMCall
from digests.narrative.summaries import (
    EXTRACTIVE,
    LANGUAGE_NAMES,
    clean_text,
    lead_summary,
    normalize_locale,
)
from ingest.models import ContentEnrichment, ContentItem

logger = logging.getLogger(__name__)

BATCH_SIZE = 8
TEXT_CHARS = 1500  # of each item's text sent to the model
SHORT_DESCRIPTION = 400  # below this, the stored full text (if any) is sent instead
OUTPUT_TOKENS_PER_ITEM = 220
CONTENT_TYPES = ["news", "release", "tutorial", "opinion", "paper", "other"]
SUMMARY_MAX_CHARS = 600

TOOL_NAME = "record_summaries"
TOOL_DESCRIPTION = "Record the summary, tags, content type and key entities of every item."


def _schema(batch_size: int) -> dict:
    return {
        "type": "object",
        "required": ["items"],
        "properties": {
            "items": {
                "type": "array",
                "minItems": 1,
                "maxItems": batch_size,
                "items": {
                    "type": "object",
                    "required": ["ref", "summary", "tags", "content_type", "entities"],
                    "properties": {
                        "ref": {"type": "integer", "minimum": 1, "maximum": batch_size},
                        "summary": {
                            "type": "string",
                            "minLength": 1,
                            "maxLength": SUMMARY_MAX_CHARS,
                        },
                        "tags": {
                            "type": "array",
                            "maxItems": 8,
                            "items": {"type": "string", "maxLength": 60},
                        },
                        "content_type": {"type": "string", "enum": CONTENT_TYPES},
                        "entities": {
                            "type": "array",
                            "maxItems": 10,
                            "items": {"type": "string", "maxLength": 120},
                        },
                    },
                },
            }
        },
    }


@dataclass(frozen=True)
class SummaryInput:
    item_id: int
    title: str
    text: str  # the item's plain-text description
    source: str = ""


@dataclass(frozen=True)
class ItemSummary:
    summary: str
    generator: str  # "extractive" or the model that wrote it
    tags: list[str] = field(default_factory=list)
    content_type: str = ""
    entities: list[str] = field(default_factory=list)


def extractive(item: SummaryInput) -> ItemSummary:
    return ItemSummary(summary=lead_summary(item.text, title=item.title), generator=EXTRACTIVE)


def summarize(
    items: list[SummaryInput],
    *,
    locale: str,
    now: datetime,
    run_id: int | None = None,
    deadline: float | None = None,
) -> dict[int, ItemSummary]:
    """A summary for every item, by item id: cached, freshly written by the model, or
    extractive."""
    if not items:
        return {}
    if not llm.is_configured():
        return {item.item_id: extractive(item) for item in items}
    locale = normalize_locale(locale)
    prompt = prompts.load("item_summary")
    result = cached(items, locale=locale, prompt_version=prompt.version)
    missing = [item for item in items if item.item_id not in result]
    if missing:
        written = _write(
            missing, locale=locale, prompt=prompt, now=now, run_id=run_id, deadline=deadline
        )
        result.update(written)
    for item in items:
        result.setdefault(item.item_id, extractive(item))
    return result


def cached(
    items: list[SummaryInput], *, locale: str, prompt_version: str
) -> dict[int, ItemSummary]:
    rows = ContentEnrichment.objects.filter(
        item_id__in=[item.item_id for item in items],
        locale=locale,
        prompt_version=prompt_version,
    ).exclude(summary="")
    return {
        row.item_id: ItemSummary(
            summary=row.summary,
            generator=row.generator,
            tags=row.tags,
            content_type=row.content_type,
            entities=row.entities,
        )
        for row in rows
    }


def _texts_for(items: list[SummaryInput]) -> dict[int, str]:
    """What the model reads per item: the description, or the start of the stored full text
    when the description is only a teaser."""
    short = [item.item_id for item in items if len(item.text) < SHORT_DESCRIPTION]
    heads = {}
    if short:
        heads = dict(
            ContentItem.objects.filter(id__in=short)
            .exclude(full_text="")
            .annotate(head=Substr("full_text", 1, TEXT_CHARS))
            .values_list("id", "head")
        )
    texts = {}
    for item in items:
        text = clean_text(item.text, title=item.title)
        head = clean_text(heads.get(item.item_id, ""))
        texts[item.item_id] = (head if len(head) > len(text) else text)[:TEXT_CHARS]
    return texts


def _clean_summary(text: str) -> str:
    text = re.sub(r"https?://\S+", "", text)
    text = re.sub(r"[*_`#>]+", "", text)
    return " ".join(text.split())


def _checker(batch_size: int):
    def check(data: dict) -> dict:
        seen = set()
        for entry in data["items"]:
            if entry["ref"] in seen:
                raise ValueError(f"ref {entry['ref']} appears twice")
            seen.add(entry["ref"])
            entry["summary"] = _clean_summary(entry["summary"])
            if not entry["summary"]:
                raise ValueError(f"the summary of ref {entry['ref']} is empty")
        if len(seen) * 2 < batch_size:
            raise ValueError(f"only {len(seen)} of {batch_size} items were summarized")
        return data

    return check


def _write(items, *, locale, prompt, now, run_id, deadline) -> dict[int, ItemSummary]:
    system = Template(prompt.text).safe_substitute(language=LANGUAGE_NAMES.get(locale, locale))
    texts = _texts_for(items)
    written: dict[int, ItemSummary] = {}
    rows = []
    for start in range(0, len(items), BATCH_SIZE):
        batch = items[start : start + BATCH_SIZE]
        payload = {
            "items": [
                {
                    "ref": ref,
                    "title": item.title,
                    "source": item.source,
                    "text": texts[item.item_id],
                }
                for ref, item in enumerate(batch, start=1)
            ]
        }
        request = llm.ToolRequest(
            purpose=LLMCall.Purpose.SUMMARY,
            model=settings.LLM_MODEL_SUMMARY,
            prompt_version=prompt.version,
            system=system,
            user=json.dumps(payload, ensure_ascii=False),
            tool_name=TOOL_NAME,
            tool_description=TOOL_DESCRIPTION,
            input_schema=_schema(len(batch)),
            max_tokens=100 + OUTPUT_TOKENS_PER_ITEM * len(batch),
        )
        try:
            result = llm.call_tool(
                request, now=now, run_id=run_id, validate=_checker(len(batch)), deadline=deadline
            )
        except llm.MalformedOutput as exc:
            logger.warning("item summaries: %s; extractive for %d items", exc, len(batch))
            continue
        except llm.LLMError as exc:
            # A spent budget or an unreachable model will not be better for the next batch.
            logger.warning("item summaries: %s; extractive for the rest of this run", exc)
            break
        generator = result.model[:32]
        for entry in result.data["items"]:
            item = batch[entry["ref"] - 1]
            summary = ItemSummary(
                summary=entry["summary"],
                generator=generator,
                tags=[tag.strip() for tag in entry["tags"] if tag.strip()][:5],
                content_type=entry["content_type"],
                entities=[name.strip() for name in entry["entities"] if name.strip()][:6],
            )
            written[item.item_id] = summary
            rows.append(
                ContentEnrichment(
                    item_id=item.item_id,
                    locale=locale,
                    prompt_version=prompt.version,
                    summary=summary.summary,
                    tags=summary.tags,
                    content_type=summary.content_type,
                    entities=summary.entities,
                    generator=generator,
                )
            )
    # Two runs may summarize one item at once; the unique key keeps the first, both are fine.
    ContentEnrichment.objects.bulk_create(rows, ignore_conflicts=True)
    return written
