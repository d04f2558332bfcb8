"""Item bodies on PostgreSQL are compressed with lz4 (migration ingest.0011): a long body is
stored compressed and reads back unchanged; migrating back returns new values to pglz."""

from __future__ import annotations

import importlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ingest.models import ContentItem
from tests.factories import add_item

LZ4_MIGRATION = importlib.import_module("ingest.migrations.0011_item_bodies_compressed_with_lz4")
BEFORE_LZ4 = ("ingest", "0010_user_source_set_hash")
# Repetitive enough to compress, long enough (well over 2 kB) to be compressed at all.
LONG_BODY = "".join(f"<p>Paragraph {n} of a long article about harbours.</p>" for n in range(400))

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="TOAST compression is PostgreSQL's"
)


def _item_with_long_body(title: str, now) -> ContentItem:
    item = add_item(title, now=now)
    ContentItem.objects.filter(pk=item.pk).update(content_html=LONG_BODY)
    return item


def _compression_of(item_id: int) -> str | None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_column_compression(content_html) FROM ingest_contentitem WHERE id = %s",
            [item_id],
        )
        return cursor.fetchone()[0]


def _server_has_lz4() -> bool:
    return LZ4_MIGRATION.postgresql_with_lz4(connection)


def test_a_long_body_is_stored_with_lz4_and_reads_back_unchanged(db, now):
    if not _server_has_lz4():
        pytest.skip("this PostgreSQL was built without lz4: bodies stay pglz")
    item = _item_with_long_body("Harbours", now)
    assert _compression_of(item.pk) == "lz4"
    assert ContentItem.objects.get(pk=item.pk).content_html == LONG_BODY


@pytest.mark.django_db(transaction=True)
def test_migrating_back_stores_new_bodies_with_the_server_default_again(now):
    if not _server_has_lz4():
        pytest.skip("this PostgreSQL was built without lz4: nothing to migrate back")
    kept = _item_with_long_body("Stored with lz4", now)
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE_LZ4])
    try:
        after = _item_with_long_body("Stored after migrating back", now)
        assert _compression_of(after.pk) == "pglz"
        # Values already stored stay as they were, and readable.
        assert _compression_of(kept.pk) == "lz4"
        assert ContentItem.objects.get(pk=kept.pk).content_html == LONG_BODY
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert _compression_of(_item_with_long_body("Again", now).pk) == "lz4"
