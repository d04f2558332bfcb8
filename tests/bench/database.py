"""A throw-away database for a benchmark: a SQLite file (not :memory:, to be realistic) or a
fresh PostgreSQL database when DATABASE_URL points at PostgreSQL.

`python -m tests.bench all` migrates one template database first (`template_database()`) and
names it in TEMPLATE_ENV; each benchmark's process then copies it (a file copy on SQLite,
`CREATE DATABASE … TEMPLATE` on PostgreSQL) instead of running every migration again — the
same schema, seconds saved per benchmark."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper

TEMPLATE_ENV = "TIDINGS_BENCH_TEMPLATE"


@contextlib.contextmanager
def bench_database():
    template = os.environ.get(TEMPLATE_ENV)
    with tempfile.TemporaryDirectory() as folder:
        if template:
            with _copy_of(template, folder):
                yield
            return
        if connection.vendor == "sqlite":
            connection.settings_dict["TEST"]["NAME"] = str(Path(folder) / "bench.sqlite3")
        else:  # never the test suite's database, which may be in use right now
            name = connection.settings_dict["NAME"]
            connection.settings_dict["TEST"]["NAME"] = f"bench_{name}_{os.getpid()}"
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            yield
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)


@contextlib.contextmanager
def _copy_of(template: str, folder: str) -> Iterator[None]:
    old_name = connection.settings_dict["NAME"]
    connection.close()
    if connection.vendor == "sqlite":
        copy = str(Path(folder) / "bench.sqlite3")
        shutil.copyfile(template, copy)
        connection.settings_dict["NAME"] = copy
        try:
            yield
        finally:
            connection.close()
            connection.settings_dict["NAME"] = old_name
        return
    copy = f"bench_{old_name}_{os.getpid()}"
    with _maintenance_cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{copy}"')
        cursor.execute(f'CREATE DATABASE "{copy}" TEMPLATE "{template}"')
    connection.settings_dict["NAME"] = copy
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict["NAME"] = old_name
        with _maintenance_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{copy}" WITH (FORCE)')


@contextlib.contextmanager
def _maintenance_cursor():
    with connection._nodb_cursor() as cursor:
        yield cursor


@contextlib.contextmanager
def template_database() -> Iterator[str]:
    """A migrated database to copy, for the length of a run of every benchmark: its file path
    (SQLite) or its name (PostgreSQL)."""
    with tempfile.TemporaryDirectory() as folder:
        if connection.vendor == "sqlite":
            connection.settings_dict["TEST"]["NAME"] = str(Path(folder) / "template.sqlite3")
        else:
            name = connection.settings_dict["NAME"]
            connection.settings_dict["TEST"]["NAME"] = f"bench_{name}_{os.getpid()}_template"
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        template = str(connection.settings_dict["NAME"])
        connection.close()  # PostgreSQL copies a template only while nobody is connected
        try:
            yield template
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)


@contextlib.contextmanager
def copy_beside() -> Iterator[BaseDatabaseWrapper]:
    """A copy of the benchmark's database as it is now, open beside it: yields its connection,
    for `using()`. Lets a benchmark compare two sizes in turns (tests/bench/interleave.py):
    grow the copy to the large size, keep the original at the small one, measure both
    alternately. Both connections stay open, so neither pays a reconnect between turns."""
    original = connections[DEFAULT_DB_ALIAS]
    settings = original.settings_dict
    original.close()  # PostgreSQL copies a database only while nobody is connected to it
    with tempfile.TemporaryDirectory() as folder:
        if original.vendor == "sqlite":
            name = str(Path(folder) / "beside.sqlite3")
            # The backup API, not a file copy: it carries what is still in the WAL file.
            with (
                contextlib.closing(sqlite3.connect(settings["NAME"])) as source,
                contextlib.closing(sqlite3.connect(name)) as target,
            ):
                source.backup(target)
        else:
            name = f"{settings['NAME']}_beside"
            with _maintenance_cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
                cursor.execute(f'CREATE DATABASE "{name}" TEMPLATE "{settings["NAME"]}"')
        copy = type(original)({**settings, "NAME": name}, DEFAULT_DB_ALIAS)
        try:
            yield copy
        finally:
            copy.close()
            if original.vendor != "sqlite":
                with _maintenance_cursor() as cursor:
                    cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def using(wrapper: BaseDatabaseWrapper) -> Iterator[None]:
    """Make `wrapper` the default connection for a while: the ORM, `django.db.connection` and
    `transaction.atomic()` all resolve it per call, so the code measured needs no `using=`."""
    saved = connections[DEFAULT_DB_ALIAS]
    connections[DEFAULT_DB_ALIAS] = wrapper
    try:
        yield
    finally:
        connections[DEFAULT_DB_ALIAS] = saved
