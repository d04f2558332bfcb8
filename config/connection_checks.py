"""Kept database connections pinged after a pause, not before every request.

With CONN_HEALTH_CHECKS (config/env.py) Django pings a kept connection (`SELECT 1`) before the
first query of every request: a round trip more per request, as much time as the query that
reads an API token. The ping is there for a connection that sat idle (the server restarted, a
proxy or firewall dropped it); one that finished a request less than FRESH_SECONDS ago is as
alive as a ping would show. So a web process skips the ping for such a connection. If the
database did go away inside that moment, that one request fails and Django's end-of-request
check (which runs after any error) closes the connection; the next request opens a new one.

Connected by the WSGI entry point (config/wsgi.py: gunicorn and runserver); workers and
commands answer no requests and keep Django's behaviour.
"""

from __future__ import annotations

import time

from django.core.signals import request_finished, request_started
from django.db import connections

FRESH_SECONDS = 2.0
_FINISHED_AT = "_tidings_request_finished_at"

clock = time.monotonic  # tests replace it


def _remember_finish(**kwargs) -> None:
    now = clock()
    for connection in connections.all(initialized_only=True):
        if connection.connection is not None:
            setattr(connection, _FINISHED_AT, now)


def _skip_ping_when_fresh(**kwargs) -> None:
    # Runs after Django's own `close_old_connections`, which asked for a ping (receivers run in
    # the order they were connected, and Django's is connected when django.db is imported).
    now = clock()
    for connection in connections.all(initialized_only=True):
        finished_at = getattr(connection, _FINISHED_AT, None)
        if (
            connection.connection is not None
            and finished_at is not None
            and now - finished_at < FRESH_SECONDS
        ):
            connection.health_check_done = True


def ping_only_after_a_pause() -> None:
    request_finished.connect(_remember_finish, dispatch_uid="connection_checks.finish")
    request_started.connect(_skip_ping_when_fresh, dispatch_uid="connection_checks.start")
