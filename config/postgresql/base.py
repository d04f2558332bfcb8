"""Django's PostgreSQL backend, with `timestamptz` values parsed by psycopg's C loader.

Django registers its own loader for `timestamptz` (to give each value the connection's time
zone); it subclasses psycopg's pure-Python loader, because psycopg's C one cannot be
subclassed, so with `psycopg[binary]` installed every timestamp is still parsed in Python
(Django ticket #36960, psycopg issue #1273): 3.2 times slower to read, 2-3.5 % of an uncached
Inbox page, which reads about 150 of them (docs/benchmarks.md, 2026-11-30). This loader keeps
Django's behaviour (the value with the connection's time zone, as Django's
`BaseTzLoader.load` does) and only parses with the C loader psycopg itself registers for
`timestamptz`. One loader class per time zone, made once.
"""

from __future__ import annotations

from functools import cache

from django.db.backends.postgresql import base
from psycopg import adapters
from psycopg.adapt import Loader
from psycopg.pq import Format

_TIMESTAMPTZ = adapters.types["timestamptz"].oid
# psycopg's own text loader for timestamptz: its C implementation when psycopg[binary] (or
# psycopg[c]) is installed, its Python one otherwise.
_PARSER = adapters.get_loader(_TIMESTAMPTZ, Format.TEXT)


@cache
def fast_timestamptz_loader(zone) -> type[Loader]:
    class TimestamptzLoader(Loader):
        # Django compares it with the connection's time zone before each cursor
        # (`DatabaseWrapper.create_cursor`) and registers its own loader when they differ.
        timezone = zone

        def __init__(self, oid, context=None):
            super().__init__(oid, context)
            self._parse = _PARSER(oid, context).load

        def load(self, data):
            return self._parse(data).replace(tzinfo=zone)

    return TimestamptzLoader


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self):
        params = super().get_connection_params()
        # The adapters every connection starts from (Django's get_adapters_template).
        if (context := params.get("context")) is not None:
            context.register_loader(_TIMESTAMPTZ, fast_timestamptz_loader(self.timezone))
        return params
