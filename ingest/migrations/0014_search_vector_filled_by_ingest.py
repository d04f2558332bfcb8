"""PostgreSQL: `search_vector` stops being a stored generated column and is filled by the
ingest path, which cuts the words in Python and has the server run only its tokenizer
(ingest/pool/search_index.py `pg_words()`); a trigger computes the former expression for every
other writer, for rows the Python side leaves to the server, and when a column it is made of
changes.

No table rewrite: DROP EXPRESSION keeps the stored values (they are what the trigger would
compute), and the GIN index stays. Reversing adds the generated column back, which rewrites the
table and rebuilds the index. Nothing changes on SQLite.
"""

from django.db import migrations

from ingest.pool import search_index as fulltext


def fill_by_ingest(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        fulltext.install_postgresql_filled(schema_editor)


def generated_again(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        fulltext.uninstall_postgresql_filled(schema_editor)


class Migration(migrations.Migration):
    dependencies = [("ingest", "0013_folders")]

    operations = [migrations.RunPython(fill_by_ingest, generated_again, elidable=False)]
