"""Dedup layers (SPEC §4.4, seed 003 §6): hard (same canonical hash, the unique key in pool.py),
soft (same normalized title within 48 h) here, and near-duplicate (simhash of the body,
ingest/pool/neardup.py). Soft and near-duplicate matches both end up here as links between items,
and `resolve_clusters()` turns links into clusters:

- every member of a cluster carries `cluster_id` = the id of the cluster's winner, the winner
  included; items in no cluster have none;
- the winner is the member whose best source has the highest `Source.priority`, then the one
  first seen earliest (then the lower id); it stays `active`, the others are `filtered` — kept
  in the pool, never candidates of a run;
- a link between two clusters merges them, and the winner is picked again among all members,
  so a better item joining takes over and the old winner is filtered.
"""

# SQL here is built from model metadata and %s placeholders only.
# ruff: noqa: S608, S611

from __future__ import annotations

import json
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import connection
from django.db.models import BigIntegerField, Case, CharField, Max, Value, When
from django.db.models.expressions import RawSQL

from ingest.models import ContentItem
from ingest.pool.recent import id_set
from ingest.text import scores

SOFT_DEDUP_WINDOW = timedelta(hours=48)
_BRACKETED = re.compile(r"\s*[\[\(【「『〔（][^\]\)】」』〕）]{0,40}[\]\)】」』〕）]\s*$")
_SITE_SUFFIX = re.compile(r"\s+[-|–—:]\s+[^-|–—:]{2,40}$")
_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)
ACTIVE, FILTERED = ContentItem.Status.ACTIVE, ContentItem.Status.FILTERED
# Sources have priority 0 unless somebody set one; an item seen by no source counts as that.
DEFAULT_PRIORITY = 0


def normalize_title(title: str) -> str:
    """Fold width and case, drop a trailing bracketed tag or " - Site" suffix, squeeze spaces.

    Titles that normalize to fewer than three words' worth are not used for soft dedup.
    """
    text = unicodedata.normalize("NFKC", title or "").casefold().strip()
    for _ in range(2):
        text = _BRACKETED.sub("", text)
    text = _SITE_SUFFIX.sub("", text)
    text = _NON_WORD.sub(" ", text).strip()
    return text[:500]


def usable_for_soft_dedup(normalized: str) -> bool:
    # Short titles ("Update", "Weekly links") collide by accident.
    return len(normalized) >= 12


def soft_matches(titles: dict[int, str], *, now: datetime) -> list[tuple[int, int]]:
    """Links (item id, id of the earliest item with the same normalized title first seen in
    the last 48 h) for the items of `titles` (id -> normalized title, rows already stored), so
    items of the same batch find each other too. Filtered items count: a title seen inside a
    cluster joins that cluster. One query."""
    usable = {item_id: title for item_id, title in titles.items() if usable_for_soft_dedup(title)}
    if not usable:
        return []
    # No ORDER BY in SQL: with one the planner may walk the first-seen index over every recent
    # item instead of looking the titles up; the earliest match is picked here.
    rows = ContentItem.objects.filter(
        normalized_title__in=id_set(sorted(set(usable.values())), db_type="text"),
        first_seen_at__gte=now - SOFT_DEDUP_WINDOW,
    ).values_list("normalized_title", "first_seen_at", "id")
    earliest: dict[str, tuple] = {}
    for title, first_seen, item_id in rows:
        if title not in earliest or (first_seen, item_id) < earliest[title]:
            earliest[title] = (first_seen, item_id)
    links = []
    for item_id, title in usable.items():
        if title in earliest and earliest[title][1] != item_id:
            links.append((item_id, earliest[title][1]))
    return links


def resolve_clusters(links: Iterable[tuple[int, int]]) -> dict[int, tuple[int, str]]:
    """Merge the clusters of linked items and pick each merged cluster's winner again.

    Returns {item id: (cluster_id, status)} for the items whose cluster or status changed.
    Four queries when anything changes (read the members with their best source priority, one
    UPDATE, and the two of sync_duplicate_penalty), one when nothing does, none
    without links."""
    links = [(a, b) for a, b in links if a != b]
    if not links:
        return {}
    linked = sorted({item_id for pair in links for item_id in pair})
    members = list(
        ContentItem.objects.filter(id__in=_cluster_members(linked))
        .values("id", "cluster_id", "status", "first_seen_at")
        .annotate(priority=Max("sightings__source__priority"))
        .order_by()
    )
    parent: dict[int, int] = {}

    def root(node: int) -> int:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def join(a: int, b: int) -> None:
        parent[root(a)] = root(b)

    for row in members:
        root(row["id"])
        if row["cluster_id"] is not None:
            join(row["id"], row["cluster_id"])
    for a, b in links:
        join(a, b)
    components: dict[int, list[dict]] = defaultdict(list)
    for row in members:
        components[root(row["id"])].append(row)

    changes: dict[int, tuple[int, str]] = {}
    for rows in components.values():
        if len(rows) < 2 and rows[0]["cluster_id"] is None:
            continue
        winner = min(rows, key=_winner_order)["id"]
        for row in rows:
            wanted = (winner, ACTIVE if row["id"] == winner else FILTERED)
            if (row["cluster_id"], row["status"]) != wanted:
                changes[row["id"]] = wanted
    if changes:
        _write_changes(changes)
        # A filtered copy loses quality points (and a winner gets them back): same transaction.
        sync_duplicate_penalty(changes)
    return changes


def _cluster_members(item_ids: list[int]) -> RawSQL:
    """Ids of `item_ids` and of every member of their clusters, as a subquery: the clusters'
    ids (winners' ids) are the items' own ids and their cluster_ids; members are the rows with
    one of those ids or cluster_ids. Each step is an index lookup per value: a plain OR of the
    conditions made PostgreSQL scan the table, and JOINs made SQLite build a Bloom filter over
    the whole table."""
    table = ContentItem._meta.db_table
    if connection.vendor == "postgresql":
        linked, param = "SELECT unnest(%s::bigint[])", list(item_ids)
    else:
        linked, param = "SELECT value FROM json_each(%s)", json.dumps(item_ids)
    return RawSQL(
        f"WITH linked(id) AS ({linked}), "
        f"keys(id) AS (SELECT id FROM linked UNION SELECT cluster_id FROM {table} "
        "WHERE id IN (SELECT id FROM linked) AND cluster_id IS NOT NULL) "
        f"SELECT id FROM {table} WHERE id IN (SELECT id FROM keys) "
        f"UNION SELECT id FROM {table} WHERE cluster_id IN (SELECT id FROM keys)",
        [param],
    )


def _write_changes(changes: dict[int, tuple[int, str]]) -> None:
    """One UPDATE for every changed member of every cluster."""
    by_winner: dict[int, list[int]] = defaultdict(list)
    for item_id, (cluster_id, _status) in changes.items():
        by_winner[cluster_id].append(item_id)
    winners = [item_id for item_id, (_cluster, status) in changes.items() if status == ACTIVE]
    ContentItem.objects.filter(id__in=id_set(sorted(changes))).update(
        cluster_id=Case(
            *[When(id__in=ids, then=Value(winner)) for winner, ids in by_winner.items()],
            output_field=BigIntegerField(),
        ),
        status=Case(
            *([When(id__in=winners, then=Value(ACTIVE))] if winners else []),
            default=Value(FILTERED),
            output_field=CharField(),
        ),
    )


def _winner_order(row: dict) -> tuple:
    priority = DEFAULT_PRIORITY if row["priority"] is None else row["priority"]
    return (-priority, row["first_seen_at"], row["id"])


def sync_duplicate_penalty(item_ids) -> int:
    """Add or drop the near-duplicate penalty of items whose status dedup has just settled;
    the other parts are kept as stored. Two queries for any number of items; returns how many
    changed."""
    changed = []
    rows = ContentItem.objects.filter(pk__in=list(item_ids)).only(
        "id", "status", "score_quality", "score_reasons"
    )
    for item in rows:
        reasons = item.score_reasons or {}
        settled = scores.with_duplicate_penalty(
            reasons, filtered=item.status == ContentItem.Status.FILTERED
        )
        if settled is None:
            continue  # scored before reasons were kept: nothing to adjust
        quality, updated = settled
        if updated != reasons or quality != item.score_quality:
            item.score_quality, item.score_reasons = quality, updated
            changed.append(item)
    ContentItem.objects.bulk_update(changed, ["score_quality", "score_reasons"])
    return len(changed)
