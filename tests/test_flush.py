"""The quick flush after transactional tests (tests/flush.py) leaves what Django's flush leaves."""

# ruff: noqa: S608 — table names come from Django's introspection, quoted

import pytest
from django.contrib.auth.models import Permission, User
from django.contrib.contenttypes.models import ContentType
from django.db import connection

from tests.conftest import api_client_for, make_user
from tests.flush import POST_MIGRATE_TABLES, quick_flush, tables_with_rows


def _row_counts() -> dict[str, int]:
    quote = connection.ops.quote_name
    counts = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.django_table_names(only_existing=True):
            cursor.execute(f"SELECT COUNT(*) FROM {quote(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


@pytest.mark.django_db(transaction=True)
def test_it_empties_every_table_but_the_content_types_and_permissions():
    api_client_for(make_user("alice@example.com"))  # rows in several tables, tied by keys
    content_types, permissions = ContentType.objects.count(), Permission.objects.count()
    assert content_types and permissions
    assert {"auth_user"} < set(tables_with_rows(connection))

    assert quick_flush(connection)

    counts = _row_counts()
    assert {table: n for table, n in counts.items() if n and table not in POST_MIGRATE_TABLES} == {}
    assert (ContentType.objects.count(), Permission.objects.count()) == (content_types, permissions)
    assert tables_with_rows(connection) == []


@pytest.mark.django_db(transaction=True)
def test_the_next_transactional_test_starts_empty():
    make_user("bob@example.com")
    assert User.objects.count() == 1  # alice's user, from the test before, is gone
