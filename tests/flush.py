"""A quicker clean slate after each transactional test (a pytest plugin; tests/conftest.py loads
it).

After a test that commits for real (`transaction=True`, `live_server`), Django empties the
database with `flush`: one TRUNCATE of every table, then the post_migrate signal, which puts the
content types and permissions back. On PostgreSQL that TRUNCATE gives each of the 60-odd tables
and their indexes new files: about 3 s a test on this machine (2026-11-29), minutes of the
suite. Such a test writes a few rows to a few tables, so here one query finds the tables that
have rows and one transaction DELETEs from just those (about 0.1 s), leaving the content types
and permissions as post_migrate left them; post_migrate is then sent as Django's flush sends it
(it finds those rows in place; ingest repairs the SQLite full-text index a migration test may
have left without triggers). The end state is Django's: every other table empty, no sequence
reset (Django's teardown resets none either).

Django's own flush still runs when the quick one could differ from it: the first time on each
database (it also takes the measure of the content-type and permission tables), when those
tables are no longer as the last full flush left them (a test added or removed a row there),
for tests with `available_apps` or `serialized_rollback`, and when a DELETE fails (a foreign
key that is not deferred to the commit).
"""

from __future__ import annotations

# ruff: noqa: S608 — the table names are Django's own (introspection), quoted
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.core.management.sql import emit_post_migrate_signal
from django.db import DatabaseError, connections, transaction
from django.test import TransactionTestCase

# What post_migrate fills: left alone by the quick flush while they match the full flush's.
POST_MIGRATE_TABLES = (ContentType._meta.db_table, Permission._meta.db_table)
# (alias, database name) -> the post_migrate tables' signature after the last full flush.
_after_full_flush: dict[tuple[str, str], tuple] = {}

_django_fixture_teardown = TransactionTestCase._fixture_teardown


def pytest_configure(config):
    TransactionTestCase._fixture_teardown = _fixture_teardown


def pytest_unconfigure(config):
    TransactionTestCase._fixture_teardown = _django_fixture_teardown


def _fixture_teardown(self):
    if self.available_apps is not None or self.serialized_rollback:
        _django_fixture_teardown(self)
        return
    for alias in self._databases_names(include_mirrors=False):
        connection = connections[alias]
        key = (alias, str(connection.settings_dict["NAME"]))
        if _after_full_flush.get(key) == _signature(connection) and quick_flush(connection):
            emit_post_migrate_signal(0, False, alias)  # what Django's flush does after its SQL
            continue
        # What Django's TransactionTestCase._fixture_teardown runs for this database.
        call_command(
            "flush",
            verbosity=0,
            interactive=False,
            database=alias,
            reset_sequences=False,
            allow_cascade=False,
            inhibit_post_migrate=False,
        )
        _after_full_flush[key] = _signature(connection)


def _signature(connection) -> tuple:
    """Row count and highest id of each post_migrate table: changes when a row comes or goes."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            " UNION ALL ".join(
                f"SELECT {index}, COUNT(*), MAX(id) FROM {quote(table)}"
                for index, table in enumerate(POST_MIGRATE_TABLES)
            )
        )
        return tuple(sorted(cursor.fetchall()))


def tables_with_rows(connection) -> list[str]:
    """Django's tables, but the post_migrate ones, that hold at least one row (one query)."""
    quote = connection.ops.quote_name
    tables = [
        table
        for table in connection.introspection.django_table_names(
            only_existing=True, include_views=False
        )
        if table not in POST_MIGRATE_TABLES
    ]
    if not tables:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            " UNION ALL ".join(
                f"SELECT {index} WHERE EXISTS (SELECT 1 FROM {quote(table)})"
                for index, table in enumerate(tables)
            )
        )
        return [tables[index] for (index,) in cursor.fetchall()]


def quick_flush(connection) -> bool:
    """Empty every table with rows but the post_migrate ones in one transaction; False (and
    nothing changed) when a DELETE fails."""
    quote = connection.ops.quote_name
    try:
        with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
            for table in tables_with_rows(connection):
                cursor.execute(f"DELETE FROM {quote(table)}")
    except DatabaseError:
        return False
    return True
