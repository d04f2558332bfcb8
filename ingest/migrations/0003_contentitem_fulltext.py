"""Full-text index over the pool's titles and descriptions (see ingest/pool/search_index.py).

PostgreSQL: a stored generated `tsvector` column and its GIN index. SQLite: an external-content
FTS5 table kept in sync by triggers, plus a trigram table for non-ASCII rows where SQLite has the
trigram tokenizer. Existing rows are indexed here; nothing in the pool table changes, and the
reverse removes only the index.
"""

from django.db import migrations

from ingest.pool import search_index as fulltext


def install(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        fulltext.install_postgresql(schema_editor)
    elif vendor == "sqlite":
        fulltext.install_sqlite(schema_editor)


def uninstall(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        fulltext.uninstall_postgresql(schema_editor)
    elif vendor == "sqlite":
        fulltext.uninstall_sqlite(schema_editor)


class Migration(migrations.Migration):
    dependencies = [("ingest", "0002_soft_dedup_index")]

    operations = [migrations.RunPython(install, uninstall, elidable=False)]
