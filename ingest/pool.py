"""The global content pool: upsert parsed entries once for every user who follows a source."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from ingest.canonical import url_hash
from ingest.dedup import SOFT_DEDUP_WINDOW, normalize_title, usable_for_soft_dedup
from ingest.feeds import ParsedEntry
from ingest.models import ContentItem, ContentItemSource, Source
from ingest.scores import quality_score, static_impact_score

MUTABLE_FIELDS = ("title", "normalized_title", "description", "content_html", "author")


@dataclass
class UpsertCounts:
    seen: int = 0
    inserted: int = 0
    updated: int = 0
    deduped: int = 0


def _new_item(entry: ParsedEntry, digest: str, source: Source, now: datetime) -> ContentItem:
    return ContentItem(
        canonical_url=entry.url,
        canonical_url_hash=digest,
        title=entry.title,
        normalized_title=normalize_title(entry.title),
        description=entry.description,
        content_html=entry.content_html,
        author=entry.author,
        site_name=source.title[:300],
        published_at=entry.published_at,
        first_seen_at=now,
        last_seen_at=now,
        last_fetched_at=now,
        score_quality=quality_score(
            title=entry.title, description=entry.description, content_html=entry.content_html
        ),
        score_impact=static_impact_score(source_priority=source.priority),
    )


def _soft_duplicates(candidates: list[ContentItem], now: datetime) -> dict[str, int]:
    """Map normalized title -> id of an earlier active item with that title within 48 h."""
    titles = {c.normalized_title for c in candidates if usable_for_soft_dedup(c.normalized_title)}
    if not titles:
        return {}
    # No ORDER BY in SQL: with one the planner may walk the first-seen index over every recent
    # item instead of looking the titles up; the earliest match is picked here.
    earlier = ContentItem.objects.filter(
        normalized_title__in=titles,
        status=ContentItem.Status.ACTIVE,
        first_seen_at__gte=now - SOFT_DEDUP_WINDOW,
    ).values_list("normalized_title", "first_seen_at", "id")
    winners: dict[str, tuple] = {}
    for title, first_seen, item_id in earlier:
        if title not in winners or (first_seen, item_id) < winners[title]:
            winners[title] = (first_seen, item_id)
    return {title: item_id for title, (_first_seen, item_id) in winners.items()}


def upsert_entries(
    source: Source, entries: list[ParsedEntry], *, now: datetime, baseline: bool = False
) -> UpsertCounts:
    """Insert new entries, refresh mutable fields of known ones, link all of them to `source`.

    A sighting is new only the first time `source` sees a canonical URL (the unique
    (item, source) key); `baseline` marks the sightings of a first look as not news.

    Hard dedup is the unique canonical hash; two workers racing on one URL both end up
    pointing at the same row (ignore_conflicts, then re-read).
    """
    counts = UpsertCounts(seen=len(entries))
    by_hash: dict[str, ParsedEntry] = {}
    for entry in entries:
        by_hash.setdefault(url_hash(entry.url), entry)
    counts.deduped += len(entries) - len(by_hash)
    if not by_hash:
        return counts

    with transaction.atomic():
        existing = {
            item.canonical_url_hash: item
            for item in ContentItem.objects.filter(canonical_url_hash__in=list(by_hash))
        }
        changed: list[ContentItem] = []
        unchanged: list[int] = []
        for digest, item in existing.items():
            entry = by_hash[digest]
            fresh = {
                "title": entry.title,
                "normalized_title": normalize_title(entry.title),
                "description": entry.description,
                "content_html": entry.content_html,
                "author": entry.author,
            }
            dirty = False
            if any(getattr(item, name) != value for name, value in fresh.items()):
                for name, value in fresh.items():
                    setattr(item, name, value)
                counts.updated += 1
                dirty = True
            if item.published_at is None and entry.published_at is not None:
                item.published_at = entry.published_at
                dirty = True
            item.last_seen_at = now
            item.last_fetched_at = now
            if dirty:
                changed.append(item)
            else:
                unchanged.append(item.pk)
        if changed:
            ContentItem.objects.bulk_update(
                changed, [*MUTABLE_FIELDS, "last_seen_at", "last_fetched_at", "published_at"]
            )
        if unchanged:
            # Most known items are only seen again: one plain UPDATE, not bulk_update's
            # CASE per field per row (which cost more CPU than the rest of a refresh).
            ContentItem.objects.filter(pk__in=unchanged).update(
                last_seen_at=now, last_fetched_at=now
            )

        new_items = [
            _new_item(entry, digest, source, now)
            for digest, entry in by_hash.items()
            if digest not in existing
        ]
        winners = _soft_duplicates(new_items, now)
        seen_titles: dict[str, bool] = {}
        for item in new_items:
            title = item.normalized_title
            if not usable_for_soft_dedup(title):
                continue
            if title in winners or title in seen_titles:
                item.status = ContentItem.Status.FILTERED
                item.cluster_id = winners.get(title)
                counts.deduped += 1
            seen_titles[title] = True
        ContentItem.objects.bulk_create(new_items, ignore_conflicts=True, batch_size=500)
        counts.inserted = len(new_items)

        ids = dict(
            ContentItem.objects.filter(canonical_url_hash__in=list(by_hash)).values_list(
                "canonical_url_hash", "id"
            )
        )
        ContentItemSource.objects.bulk_create(
            [
                ContentItemSource(
                    item_id=ids[digest],
                    source=source,
                    entry_id=entry.entry_id,
                    first_seen_at=now,
                    baseline=baseline,
                )
                for digest, entry in by_hash.items()
                if digest in ids
            ],
            ignore_conflicts=True,
            batch_size=500,
        )
    return counts
