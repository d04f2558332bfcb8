"""The newest pool items of a set of sources: the first cut for source-based runs; and
`id_set()`, a list of ids as one SQL parameter.

Each source's sightings are read newest first from the (source, first_seen_at) index and cut at
`limit`, so a run reads at most `limit` index entries per source however large the pool grows;
the union is cut at `limit` again. Sighting time is when that source delivered the item, which
for a feed is its publication time give or take a refresh interval; the caller still applies its
window to the item's own publication time.
"""

# SQL here is built from constant identifiers and %s placeholders only.
# ruff: noqa: S608

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from django.db import connections
from django.db.models.expressions import RawSQL

from ingest.models import ContentItemSource

# Above this many sources one index walk per source costs more than one range scan (an
# intersection of the sources' recent sightings, sorted).
MAX_WALKS = 64


def recent_item_ids(
    source_ids: Sequence[int], *, since: datetime, limit: int, using: str = "default"
) -> list[int]:
    """Ids of items that any of `source_ids` saw at or after `since`, newest sighting first.
    Baseline sightings (a watch's first look) are not news and are left out."""
    source_ids = sorted(set(source_ids))
    if not source_ids or limit <= 0:
        return []
    connection = connections[using]
    table = ContentItemSource._meta.db_table
    since_param = connection.ops.adapt_datetimefield_value(since)
    if len(source_ids) <= MAX_WALKS:
        walk = (
            f"SELECT item_id, first_seen_at FROM (SELECT item_id, first_seen_at FROM {table} "
            "WHERE source_id = %s AND first_seen_at >= %s AND NOT baseline "
            "ORDER BY first_seen_at DESC LIMIT %s) AS walk{n}"
        )
        union = " UNION ALL ".join(walk.format(n=n) for n in range(len(source_ids)))
        params = [value for sid in source_ids for value in (sid, since_param, limit)]
    else:
        placeholders = ", ".join(["%s"] * len(source_ids))
        union = (
            f"SELECT item_id, first_seen_at FROM {table} "
            f"WHERE source_id IN ({placeholders}) AND first_seen_at >= %s AND NOT baseline"
        )
        params = [*source_ids, since_param]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT item_id FROM ({union}) AS seen "
            "GROUP BY item_id ORDER BY max(first_seen_at) DESC, item_id DESC LIMIT %s",
            [*params, limit],
        )
        return [row[0] for row in cursor.fetchall()]


def id_set(values: Sequence, using: str = "default", *, db_type: str = "bigint") -> RawSQL:
    """`values` as a subquery with one parameter, for `filter(id__in=id_set(ids))`: with a
    thousand `%s` placeholders the PostgreSQL driver spends milliseconds parsing each query.
    `db_type` is the PostgreSQL array element type ("bigint", "text")."""
    if connections[using].vendor == "postgresql":
        if db_type not in ("bigint", "text"):
            raise ValueError(f"unsupported array type {db_type!r}")
        return RawSQL(f"SELECT unnest(%s::{db_type}[])", (list(values),))  # noqa: S611
    return RawSQL("SELECT value FROM json_each(%s)", (json.dumps(list(values)),))
