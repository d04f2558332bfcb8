"""Timestamps read from PostgreSQL by psycopg's C parser (config/postgresql/base.py): the same
values, with the same time zone, as Django's own loader gives."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from django.db import connection
from django.db.backends.postgresql.psycopg_any import register_tzloader
from psycopg.pq import Format

TIMESTAMPTZ = psycopg.adapters.types["timestamptz"].oid
# Written as a user's zone would send them, and at the edges of the type's range in Python.
LITERALS = [
    "2026-03-29 01:30:00+00",
    "2026-03-29 03:30:00.123456+02",
    "2026-11-01 01:59:59.999999-07",
    "2026-06-30 23:59:59+05:30",
    "1969-12-31 23:59:59.5+00",
    "0001-01-01 00:00:00+00",
    "9999-12-31 23:59:59.999999+00",
]


@pytest.fixture
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("SQLite stores timestamps as text Django parses itself")


def _read(cursor) -> list[datetime]:
    columns = ", ".join(f"%s::timestamptz AS t{n}" for n in range(len(LITERALS)))
    cursor.execute(f"SELECT {columns}", LITERALS)
    return list(cursor.fetchone())


@pytest.mark.django_db
def test_timestamps_are_parsed_by_psycopgs_own_loader(postgresql_only):
    with connection.cursor() as cursor:
        loader = cursor.cursor.adapters.get_loader(TIMESTAMPTZ, Format.TEXT)
    assert loader.__module__ == "config.postgresql.base"
    assert loader.timezone == connection.timezone  # or Django would replace it per cursor
    # psycopg[binary] is installed: the parser is its C loader, not the Python one Django's
    # loader subclasses.
    parser = psycopg.adapters.get_loader(TIMESTAMPTZ, Format.TEXT)
    assert parser.__module__.startswith(("psycopg_binary", "psycopg_c"))


@pytest.mark.django_db
def test_timestamps_read_as_djangos_loader_reads_them(postgresql_only):
    with connection.cursor() as cursor:
        ours = _read(cursor)
    with connection.cursor() as cursor:
        register_tzloader(connection.timezone, cursor.cursor)
        djangos = _read(cursor)
    assert ours == djangos
    assert all(value.tzinfo is connection.timezone for value in ours)
    assert ours[1] == datetime(2026, 3, 29, 1, 30, 0, 123456, tzinfo=UTC)
    assert ours[3] == datetime(2026, 6, 30, 18, 29, 59, tzinfo=UTC)
    assert ours[4] == datetime(1970, 1, 1, tzinfo=UTC) - timedelta(microseconds=500_000)
