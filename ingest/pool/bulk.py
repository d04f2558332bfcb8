"""Multi-row INSERTs for the pool's hot path: a refresh writes its new items, their sightings,
simhash bands and reading levels with one statement per table, whatever the batch size.

Not `bulk_create()`, whose per-row SQL compilation cost more than the database's own work.
PostgreSQL gets `INSERT ... SELECT * FROM unnest(%b::type[], ...)`: one parameter per column,
sent in binary. SQLite gets `INSERT ... VALUES (...), (...)` in as few statements as its
parameter limit allows.
"""

# SQL here is built from model metadata and %s placeholders only.
# ruff: noqa: S608

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

import psycopg
from django.db import connection, models


def value_kind(field: models.Field) -> str:
    """How a raw multi-row insert adapts a field's values: "datetime" (SQLite needs them as
    text), "json" (encoded by us) or "plain" (the driver's own)."""
    if isinstance(field, models.DateTimeField):
        return "datetime"
    if isinstance(field, models.JSONField):
        return "json"
    return "plain"


def binary_cursor():
    """A cursor for statements with large array parameters. On PostgreSQL one that binds
    parameters on the server, so `%b` sends arrays in binary: Django's default cursor renders
    every element into the SQL text, quoting and escaping each one in Python, which cost more
    than the database's own work for a feed's worth of items. Still a Django cursor wrapper,
    so query logging and execute_wrapper() see it. Elsewhere the usual cursor."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    connection.ensure_connection()
    raw = psycopg.Cursor(connection.connection)
    if connection.queries_logged:
        return connection.make_debug_cursor(raw)
    return connection.make_cursor(raw)


@dataclass
class Rows:
    """Rows for another table, written by the same statement (`insert_rows(also=...)`)."""

    table: str
    columns: Sequence[str]
    pg_array_types: Sequence[str]
    rows: list[tuple]


def _pg_insert(
    table: str,
    columns: Sequence[str],
    pg_array_types: Sequence[str],
    pg_select: tuple[str, Sequence[str]] | None = None,
) -> str:
    arrays = ", ".join(f"%b::{array_type}" for array_type in pg_array_types)
    if pg_select is None:
        return f"INSERT INTO {table} ({', '.join(columns)}) SELECT * FROM unnest({arrays})"
    select, unnested = pg_select
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) SELECT {select} "
        f"FROM unnest({arrays}) AS u({', '.join(unnested)})"
    )


def _pg_arrays(rows: list[tuple]) -> list[list]:
    return [list(column) for column in zip(*rows, strict=True)]


def insert_rows(
    table: str,
    columns: Sequence[str],
    pg_array_types: Sequence[str],
    rows: list[tuple],
    *,
    tail: str = "",
    also: Rows | None = None,
    pg_select: tuple[str, Sequence[str]] | None = None,
) -> list[tuple]:
    """INSERT `rows` (tuples in the order of `columns`) into `table`; `tail` is what follows
    the rows ("ON CONFLICT ... RETURNING ..."). Returns what RETURNING yields. Values must be
    adapted for the backend already (SQLite: datetimes as text, JSON as text).

    `pg_array_types` are the PostgreSQL array types of the columns ("bigint[]",
    "text[]::jsonb[]" for JSON sent as text). `also` are rows of another table, inserted
    as they are (no tail): on PostgreSQL by the same statement (a data-modifying WITH, one
    round trip for both), elsewhere by a statement of their own.

    `pg_select` (PostgreSQL only): (select list, names of the row's values) when the rows are
    not the columns' values as they are — the select list computes `columns` from the values,
    named `u.<name>`; `pg_array_types` are then the values' types."""
    if also is not None and also.rows and not rows:
        insert_rows(also.table, also.columns, also.pg_array_types, also.rows)
    if not rows:
        return []
    with binary_cursor() as cursor:
        if connection.vendor == "postgresql":
            head, parameters = "", []
            if also is not None and also.rows:
                head = (
                    f"WITH also AS ({_pg_insert(also.table, also.columns, also.pg_array_types)}) "
                )
                parameters = _pg_arrays(also.rows)
            cursor.execute(
                f"{head}{_pg_insert(table, columns, pg_array_types, pg_select)} {tail}",
                [*parameters, *_pg_arrays(rows)],
            )
            return cursor.fetchall() if "RETURNING" in tail else []
        if also is not None and also.rows:
            _sqlite_insert(
                cursor, f"INSERT INTO {also.table} ({', '.join(also.columns)})", also.rows, ""
            )
        return _sqlite_insert(cursor, f"INSERT INTO {table} ({', '.join(columns)})", rows, tail)


def _sqlite_insert(cursor, head: str, rows: list[tuple], tail: str) -> list[tuple]:
    """`head VALUES (...), (...) tail` in as few statements as SQLite's parameter limit
    allows. Not executemany(): SQLite sets up the full-text triggers once per statement, and
    row-by-row statements cost a third more."""
    width = len(rows[0])
    try:
        limit = cursor.connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    except AttributeError:  # Python < 3.11
        limit = 999
    per_statement = max(1, limit // width)
    row = "(" + ", ".join(["%s"] * width) + ")"
    returned: list[tuple] = []
    for start in range(0, len(rows), per_statement):
        chunk = rows[start : start + per_statement]
        cursor.execute(
            f"{head} VALUES {', '.join([row] * len(chunk))} {tail}",
            [value for values in chunk for value in values],
        )
        if "RETURNING" in tail:
            returned += cursor.fetchall()
    return returned
