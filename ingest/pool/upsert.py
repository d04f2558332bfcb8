"""The global content pool: upsert parsed entries once for every user who follows a source.

One refresh is one batch and costs the same number of queries for 2 entries or 2,000: read the
known items, update them, insert the new ones, link all to the source,
store the new items' simhash bands, look up soft and near duplicates, settle their clusters
(ingest/pool/dedup.py), and pick a cluster's winner again when another source carries one of its
filtered copies. Reading levels are not rated here: the worker rates the new items afterwards
(ingest/pool/levels.py), which keeps that work off the ingest path.

New rows are written with one multi-row statement per table (ingest/pool/bulk.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache

from django.db import connection, transaction

from ingest.canonical import url_hash
from ingest.models import ContentItem, ContentItemSource, Source
from ingest.pool import bulk, licenses, neardup, search_index
from ingest.pool.dedup import normalize_title, resolve_clusters, soft_matches
from ingest.pool.entries import ParsedEntry
from ingest.pool.recent import id_set
from ingest.text.scores import score_fields
from ingest.text.sections import clean_tags, section_of

MUTABLE_FIELDS = (
    "title",
    "normalized_title",
    "description",
    "content_html",
    "author",
    "section",
    "tags",
)
CONTENT_OWNERS = (Source.Type.FEED, Source.Type.PAGE)
# A reader's private mail (ingest/newsletters/): its items never join another item's cluster
# (a soft or near duplicate would hand one reader's issue to another's brief, or hide a public
# article behind a private copy), and seeing a public article never makes it private.
PRIVATE_TYPES = (Source.Type.NEWSLETTER,)


@dataclass
class UpsertCounts:
    seen: int = 0
    inserted: int = 0
    updated: int = 0
    deduped: int = 0
    # Distinct entries linked to the source, and how many of them the source saw for the first
    # time (all of them, on a source that had seen items before: a gap in its reads).
    distinct: int = 0
    new_sightings: int = 0
    # Items this upsert inserted, for work done after it (reading levels).
    new_item_ids: list[int] = field(default_factory=list)
    # Items this source had never seen before, baseline sightings left out: its news.
    newly_seen: int = 0


def _section(entry: ParsedEntry, source: Source) -> str:
    """Seed 003 §4: a feed's category or the address; a search result has no stable section
    (NAVER: "先置空"), so it waits for a feed to carry the article."""
    if source.type == Source.Type.SEARCH:
        return ""
    return section_of(categories=entry.categories, url=entry.url)


def _new_item(entry: ParsedEntry, digest: str, source: Source, now: datetime) -> ContentItem:
    return ContentItem(
        canonical_url=entry.url,
        canonical_url_hash=digest,
        title=entry.title,
        normalized_title=normalize_title(entry.title),
        description=entry.description,
        content_html=entry.content_html,
        author=entry.author,
        site_name=(entry.site_name or source.title)[:300],
        published_at=entry.published_at,
        first_seen_at=now,
        last_seen_at=now,
        last_fetched_at=now,
        section=_section(entry, source),
        tags=clean_tags(entry.categories),
        license_tier=source.license_tier,
        **score_fields(
            url=entry.url,
            title=entry.title,
            description=entry.description,
            content_html=entry.content_html,
            source=source,
        ),
    )


@dataclass
class _Column:
    name: str
    attname: str
    pg_array_type: str
    kind: str  # "plain", "datetime" or "json"
    encoder: type[json.JSONEncoder] | None = None


@cache
def _item_columns(vendor: str) -> tuple[_Column, ...]:
    """Every stored column of ContentItem but the id, with how its values are adapted."""
    columns = []
    for model_field in ContentItem._meta.concrete_fields:
        if model_field.primary_key:
            continue
        kind = bulk.value_kind(model_field)
        db_type = model_field.db_type(connection) if vendor == "postgresql" else ""
        array_type = "text[]::jsonb[]" if kind == "json" else f"{db_type}[]"
        encoder = getattr(model_field, "encoder", None)
        columns.append(_Column(model_field.column, model_field.attname, array_type, kind, encoder))
    return tuple(columns)


def _column_values(items: list[ContentItem], column: _Column) -> list:
    values = [getattr(item, column.attname) for item in items]
    if column.kind == "json":
        return [json.dumps(value, cls=column.encoder) for value in values]
    if column.kind == "datetime" and connection.vendor != "postgresql":
        adapt = connection.ops.adapt_datetimefield_value
        return [adapt(value) for value in values]
    return values


def _insert_items(items: list[ContentItem]) -> dict[str, int]:
    """Insert `items`, skipping canonical hashes already stored (a worker racing on the same
    URL); returns hash -> id of the rows inserted here and sets their pk."""
    if not items:
        return {}
    columns = _item_columns(connection.vendor)
    names = [c.name for c in columns]
    array_types = [c.pg_array_type for c in columns]
    values = [_column_values(items, c) for c in columns]
    pg_select = None
    if connection.vendor == "postgresql":
        # The full-text document from the words cut here, not by the server's regexp_replace
        # (None: the row's trigger computes all of it; ingest/pool/search_index.py).
        words = [search_index.pg_document_words(item.title, item.description) for item in items]
        values += [[w and w[0] for w in words], [w and w[1] for w in words]]
        array_types += ["text[]", "text[]"]
        pg_select = (
            ", ".join(f"u.{name}" for name in names) + ", " + search_index.pg_insert_document("u"),
            [*names, "title_words", "description_words"],
        )
        names = [*names, search_index.PG_COLUMN]
    inserted = dict(
        bulk.insert_rows(
            ContentItem._meta.db_table,
            names,
            array_types,
            list(zip(*values, strict=True)),
            tail="ON CONFLICT (canonical_url_hash) DO NOTHING RETURNING canonical_url_hash, id",
            pg_select=pg_select,
        )
    )
    for item in items:
        item.pk = inserted.get(item.canonical_url_hash)
    return inserted


def _insert_sightings(
    rows: list[tuple[int, int, str, datetime, bool]], *, bands: bulk.Rows
) -> set[int]:
    """(item id, source id, entry id, first seen, baseline); pairs already linked are kept.
    Returns the ids of the items this inserted a sighting for. `bands` (simhash bands of the
    batch) are written by the same statement."""
    adapt = connection.ops.adapt_datetimefield_value
    inserted = bulk.insert_rows(
        ContentItemSource._meta.db_table,
        ["item_id", "source_id", "entry_id", "first_seen_at", "baseline"],
        ["bigint[]", "bigint[]", "varchar[]", "timestamptz[]", "boolean[]"],
        [
            (item, source, entry, adapt(when), baseline)
            for item, source, entry, when, baseline in rows
        ],
        tail="ON CONFLICT DO NOTHING RETURNING item_id",
        also=bands,
    )
    return {item_id for (item_id,) in inserted}


def upsert_entries(
    source: Source, entries: list[ParsedEntry], *, now: datetime, baseline: bool = False
) -> UpsertCounts:
    """Insert new entries, refresh mutable fields of known ones, link all of them to `source`,
    and cluster the new ones (and known ones whose text changed) with their soft and near
    duplicates.

    A sighting is new only the first time `source` sees a canonical URL (the unique
    (item, source) key); `baseline` marks the sightings of a first look as not news.

    Feeds and saved pages speak for their items; a watched list, a crawl or a search only saw
    a link with some nearby text, so for known items it fills empty fields and never
    overwrites (a listing's "updated 3 minutes ago" must not replace a feed's summary).

    Hard dedup is the unique canonical hash; two workers racing on one URL both end up
    pointing at the same row (ON CONFLICT DO NOTHING, then re-read).
    """
    counts = UpsertCounts(seen=len(entries))
    speaks_for_items = source.type in CONTENT_OWNERS
    by_hash: dict[str, ParsedEntry] = {}
    for entry in entries:
        by_hash.setdefault(url_hash(entry.url), entry)
    counts.deduped += len(entries) - len(by_hash)
    if not by_hash:
        return counts

    # No savepoint: a refresh calls this inside its own transaction, and any error here
    # ends that transaction too (a savepoint cost two round trips per refresh).
    with transaction.atomic(savepoint=False):
        existing = {
            item.canonical_url_hash: item
            for item in ContentItem.objects.filter(
                canonical_url_hash__in=id_set(list(by_hash), db_type="text")
            ).only(
                "id",
                "canonical_url_hash",
                *MUTABLE_FIELDS,
                "published_at",
                "full_text_at",
                "simhash",
                "cluster_id",
                "status",
            )
        }
        # A filtered item in no cluster is a placeholder an import added for an item it only
        # knew from a brief (inbox/portability/importing.py): a source seeing it for real
        # brings it into the pool like a new item.
        revived = [
            item.pk
            for digest, item in existing.items()
            if item.status == ContentItem.Status.FILTERED and item.cluster_id is None
        ]
        if revived:
            ContentItem.objects.filter(pk__in=revived).update(status=ContentItem.Status.ACTIVE)
        # Known items whose text changed are fingerprinted again, unless full text (a better
        # body) was extracted for them.
        refingerprinted: dict[int, int | None] = {}
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
                "section": _section(entry, source),
                "tags": clean_tags(entry.categories),
            }
            # A section or tags that this reader cannot tell never erase known ones.
            fresh = {k: v for k, v in fresh.items() if v or k not in ("section", "tags")}
            if not speaks_for_items:
                fresh = {k: v for k, v in fresh.items() if v and not getattr(item, k)}
            dirty = False
            if any(getattr(item, name) != value for name, value in fresh.items()):
                body_changed = (item.title, item.description) != (
                    fresh.get("title", item.title),
                    fresh.get("description", item.description),
                )
                for name, value in fresh.items():
                    setattr(item, name, value)
                if body_changed and item.full_text_at is None:
                    value = neardup.fingerprint(neardup.body_text(item.title, item.description))
                    if neardup.to_signed(value) != item.simhash:
                        item.simhash = neardup.to_signed(value)
                        refingerprinted[item.pk] = value
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
                changed,
                [*MUTABLE_FIELDS, "last_seen_at", "last_fetched_at", "published_at", "simhash"],
            )
        if unchanged:
            # Most known items are only seen again: one plain UPDATE, not bulk_update's
            # CASE per field per row (which cost more CPU than the rest of a refresh).
            ContentItem.objects.filter(pk__in=id_set(unchanged)).update(
                last_seen_at=now, last_fetched_at=now
            )

        new_items = [
            _new_item(entry, digest, source, now)
            for digest, entry in by_hash.items()
            if digest not in existing
        ]
        fingerprints: dict[str, int | None] = {}
        for item in new_items:
            value = neardup.fingerprint(neardup.body_text(item.title, item.description))
            item.simhash = neardup.to_signed(value)
            fingerprints[item.canonical_url_hash] = value
        inserted = _insert_items(new_items)
        counts.inserted = len(inserted)
        counts.new_item_ids = list(inserted.values())

        ids = {digest: item.pk for digest, item in existing.items()} | inserted
        if len(ids) < len(by_hash):  # lost a race for some URLs: those rows are another's
            ids |= dict(
                ContentItem.objects.filter(
                    canonical_url_hash__in=id_set(
                        [d for d in by_hash if d not in ids], db_type="text"
                    )
                ).values_list("canonical_url_hash", "id")
            )
        placed = {inserted[d]: fp for d, fp in fingerprints.items() if d in inserted}
        private = source.type in PRIVATE_TYPES
        if refingerprinted and not private:
            neardup.store_bands({}, replace=list(refingerprinted))  # their old bands go
        newly_seen = _insert_sightings(
            [
                (ids[digest], source.pk, entry.entry_id, now, baseline)
                for digest, entry in by_hash.items()
                if digest in ids
            ],
            bands=neardup.band_rows(placed if private else placed | refingerprinted),
        )
        counts.distinct = len(by_hash)
        counts.new_sightings = len(newly_seen)
        # A known item carried by one more source takes that source's tier if stricter.
        if source.type not in PRIVATE_TYPES:
            licenses.raise_to_source(
                source, [item.pk for item in existing.values() if item.pk in newly_seen]
            )

        counts.newly_seen = 0 if baseline else len(newly_seen)

        if private:
            return counts
        # A filtered copy that one more source now carries may have become its cluster's
        # best (the winner is the copy with the highest source priority): pick again.
        seen_again_in_cluster = [
            (item.pk, item.cluster_id)
            for item in existing.values()
            if item.pk in newly_seen and item.cluster_id not in (None, item.pk)
        ]
        links = (
            seen_again_in_cluster
            + neardup.near_matches(placed | refingerprinted)
            + soft_matches(
                {item.pk: item.normalized_title for item in new_items if item.pk is not None},
                now=now,
            )
        )
        resolve_clusters(links)
        counts.deduped += len({item_id for item_id, _other in links if item_id in placed})
    return counts
