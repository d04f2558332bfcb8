"""On PostgreSQL, the pool's long text columns are compressed with lz4 instead of pglz.

Storing an item's body was a fifth of the server's time in an ingest, most of it pglz
compressing `content_html` (a feed's full-article HTML runs to tens of kilobytes). lz4
compresses about as well for HTML and several times faster. Only new values are compressed
with it (no table rewrite, no lock beyond the brief ALTER); old values stay readable as they
are. Servers built without lz4 keep pglz. SQLite: nothing to do.
"""

from django.db import migrations

COLUMNS = ("description", "content_html", "full_text")
TABLE = "ingest_contentitem"


def postgresql_with_lz4(connection) -> bool:
    """Whether `connection` is to a PostgreSQL built with lz4 (14 and later can be)."""
    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        row = cursor.fetchone()
    return bool(row and row[0])


def _set_compression(schema_editor, method: str) -> None:
    if not postgresql_with_lz4(schema_editor.connection):
        return
    for column in COLUMNS:
        schema_editor.execute(f"ALTER TABLE {TABLE} ALTER COLUMN {column} SET COMPRESSION {method}")


def use_lz4(apps, schema_editor):
    _set_compression(schema_editor, "lz4")


def use_server_default(apps, schema_editor):
    _set_compression(schema_editor, "default")


class Migration(migrations.Migration):
    dependencies = [
        ("ingest", "0010_user_source_set_hash"),
    ]

    operations = [
        migrations.RunPython(use_lz4, use_server_default, elidable=False),
    ]
