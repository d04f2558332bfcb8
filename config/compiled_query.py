"""Queries on hot paths, compiled by the ORM once per database connection.

Building a queryset and compiling it to SQL costs the ORM more than running it on a small
indexed table, the more so when it joins related models: the token lookup every API request
makes (a token, its user and the user's preferences) took 0.96 ms through the ORM and 0.24 ms
as the same SQL run again (PostgreSQL on loopback, 2026-11-29) — a third of an API answer
served from the cache; a signed-in page makes several such lookups (the session, the user, the
billing account). `CompiledQuery` compiles the queryset once, with placeholder values, and then
runs the same SQL with the real values and builds the model instances (and `select_related`
ones) as the queryset would: the same SQL, converters and objects, only not recompiled.

A `values()` queryset gives dicts, as its queryset does. Placeholders must reach the SQL
unchanged (strings and integers: a field that adapts its value, e.g. a datetime or a `LIKE`
pattern, cannot be a placeholder); one that appears more than once (a user filtered in a
subquery too) is replaced everywhere. Use values no constant of the query can equal
(`placeholder_id()`, a string starting with a NUL character).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable, ValuesIterable, get_related_populators

# An id no row has, in every integer column's range (an out-of-range id is no query at all).
PLACEHOLDER_ID = -2_063_847_119


def placeholder_id(n: int) -> int:
    """The n-th of several id placeholders of one query (0 is PLACEHOLDER_ID)."""
    return PLACEHOLDER_ID - n


@dataclass(frozen=True)
class _Compiled:
    connection: object
    sql: str
    params: tuple
    slots: tuple[tuple[int, ...], ...]  # where each placeholder's value goes in `params`
    rows_to_objects: Callable[[list], list]


class CompiledQuery:
    """`build(*placeholders)` is the queryset; `first(*values)` and `all(*values)` run it with
    `values` in place of the placeholders, in order."""

    def __init__(self, build: Callable[..., QuerySet], *placeholders):
        self._build = build
        self._placeholders = placeholders
        self._compiled = threading.local()  # per thread, as Django's connections are

    def all(self, *values, using: str = DEFAULT_DB_ALIAS) -> list:
        if len(values) != len(self._placeholders):
            raise TypeError(f"expected {len(self._placeholders)} values, got {len(values)}")
        compiled = self._compiled_for(using)
        params = list(compiled.params)
        for slots, value in zip(compiled.slots, values, strict=True):
            for slot in slots:
                params[slot] = value
        with compiled.connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        return compiled.rows_to_objects(rows) if rows else []

    def first(self, *values, using: str = DEFAULT_DB_ALIAS) -> Model | dict | None:
        """The first object, for a queryset cut to one row (`[:1]`)."""
        found = self.all(*values, using=using)
        return found[0] if found else None

    def _compiled_for(self, using: str) -> _Compiled:
        connection = connections[using]
        compiled = getattr(self._compiled, using, None)
        if compiled is None or compiled.connection is not connection:
            compiled = self._compile(connection, using)
            setattr(self._compiled, using, compiled)
        return compiled

    def _compile(self, connection, using: str) -> _Compiled:
        queryset = self._build(*self._placeholders)
        if queryset._iterable_class not in (ModelIterable, ValuesIterable):
            raise ValueError("only model and values() querysets can be compiled")
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        slots = []
        for placeholder in self._placeholders:
            positions = tuple(n for n, param in enumerate(params) if param == placeholder)
            if not positions:
                raise ValueError(
                    f"each placeholder must be a parameter of the query: {placeholder!r} is not "
                    f"one of {params!r}"
                )
            slots.append(positions)
        selected = compiler.select[: compiler.col_count]
        converters = compiler.get_converters([column[0] for column in selected])
        if queryset._iterable_class is ValuesIterable:
            make = _dicts(compiler)
        else:
            make = _objects(compiler, using)

        def rows_to_objects(rows: list) -> list:
            if converters:
                rows = compiler.apply_converters(rows, converters)
            return make(rows)

        return _Compiled(connection, sql, tuple(params), tuple(slots), rows_to_objects)


def _dicts(compiler) -> Callable[[list], list[dict]]:
    """What a `values()` queryset yields (django.db.models.query.ValuesIterable)."""
    query = compiler.query
    if query.selected:
        names = list(query.selected)
    else:  # extra(select=...) columns come first
        names = [*query.extra_select, *query.values_select, *query.annotation_select]
    return lambda rows: [dict(zip(names, row, strict=False)) for row in rows]


def _objects(compiler, using: str) -> Callable[[list], list[Model]]:
    """What a model queryset yields, `select_related` objects included
    (django.db.models.query.ModelIterable)."""
    if compiler.annotation_col_map:
        raise ValueError("annotations on model instances are not supported")
    klass_info, select = compiler.klass_info, compiler.select
    model = klass_info["model"]
    start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
    init_list = [column[0].target.attname for column in select[start:end]]
    populators = get_related_populators(klass_info, select, using)

    def objects(rows: list) -> list[Model]:
        found = []
        for row in rows:
            instance = model.from_db(using, init_list, row[start:end])
            for populator in populators:
                populator.populate(row, instance)
            found.append(instance)
        return found

    return objects
