"""A throw-away database for a benchmark: a SQLite file (not :memory:, to be realistic) or a
fresh PostgreSQL database when DATABASE_URL points at PostgreSQL."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from django.db import connection


@contextlib.contextmanager
def bench_database():
    with tempfile.TemporaryDirectory() as folder:
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
