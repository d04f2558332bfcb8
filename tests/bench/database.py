"""A throw-away database for a benchmark: a SQLite file (not :memory:, to be realistic) or a
fresh PostgreSQL database when DATABASE_URL points at PostgreSQL.

`python -m tests.bench all` migrates one template database first (`template_database()`) and
names it in TEMPLATE_ENV; each benchmark's process then copies it (a file copy on SQLite,
`CREATE DATABASE … TEMPLATE` on PostgreSQL) instead of running every migration again — the
same schema, seconds saved per benchmark."""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import sqlite3
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper

TEMPLATE_ENV = "TIDINGS_BENCH_TEMPLATE"
# Set by `all` on PostgreSQL: a file where a benchmark's process names the databases it is done
# with, for `all` to drop while the next benchmark runs (`Dropper`). DROP DATABASE forces a
# checkpoint of the whole cluster: 5 s and more each on this shared machine (2026-11-29), once
# per benchmark and once per `copy_beside`, about two minutes of waiting in a run of them all.
DROP_LATER_ENV = "TIDINGS_BENCH_DROP_LATER"


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
        _drop(copy)


def _drop(name: str) -> None:
    """Drop PostgreSQL database `name` now, or leave it to `all` when it asks (DROP_LATER_ENV)."""
    if later := os.environ.get(DROP_LATER_ENV):
        with open(later, "a") as names:
            names.write(name + "\n")
        return
    with _maintenance_cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Dropper:
    """Drops the databases that benchmarks named in `path` (DROP_LATER_ENV), one after the other
    in a thread of its own, while the next benchmark runs: the checkpoint each drop waits for
    is disk work, beside the benchmark's processor work. `drop_named()` after each benchmark;
    `finish()` waits for every drop."""

    def __init__(self, path: str):
        self.path = Path(path)
        self.path.touch()
        self._seen = 0
        self._pending: queue.Queue[str | None] = queue.Queue()
        self._thread = threading.Thread(target=self._drop_each, name="bench-dropper")
        self._thread.start()

    def drop_named(self) -> None:
        names = self.path.read_text().split()
        for name in names[self._seen :]:
            self._pending.put(name)
        self._seen = len(names)

    def finish(self) -> None:
        self.drop_named()
        self._pending.put(None)
        self._thread.join()

    def _drop_each(self) -> None:
        try:
            while (name := self._pending.get()) is not None:
                try:
                    with _maintenance_cursor() as cursor:
                        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                except Exception as error:  # the next one may still go; say which stayed
                    print(f"could not drop benchmark database {name}: {error}", file=sys.stderr)
        finally:
            connection.close()  # this thread's own connection


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
                _drop(name)


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
