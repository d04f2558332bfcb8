"""A kept PostgreSQL connection is pinged before a request only after a pause
(config/connection_checks.py): a web worker answering request after request saves a round trip
each, and a connection the server dropped while it sat idle is still replaced before use."""

import psycopg
import pytest
from django.core.signals import request_finished, request_started
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.utils import OperationalError

from config import connection_checks


@pytest.fixture
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no server connection to check")


@pytest.fixture
def clock(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(connection_checks, "clock", lambda: now[0])
    connection_checks.ping_only_after_a_pause()
    yield now
    request_finished.disconnect(dispatch_uid="connection_checks.finish")
    request_started.disconnect(dispatch_uid="connection_checks.start")


@pytest.fixture
def pings(monkeypatch):
    counted = []
    wrapper = type(connections[DEFAULT_DB_ALIAS])
    is_usable = wrapper.is_usable

    def counting(self):
        counted.append(1)
        return is_usable(self)

    monkeypatch.setattr(wrapper, "is_usable", counting)
    return counted


def _request(query: str = "SELECT 1") -> None:
    """What the WSGI handler does around a view: the request signals and a query between."""
    request_started.send(sender=None)
    try:
        with connection.cursor() as cursor:
            cursor.execute(query)
    finally:
        request_finished.send(sender=None)


def _terminate_this_connection() -> None:
    pid = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def _is_kept_with_health_checks():
    assert connection.settings_dict["CONN_HEALTH_CHECKS"]
    assert connection.settings_dict["CONN_MAX_AGE"]


@pytest.mark.django_db(transaction=True)
def test_requests_in_a_row_ping_once(postgresql_only, clock, pings):
    _is_kept_with_health_checks()
    _request()
    pings.clear()
    for _ in range(5):
        clock[0] += 0.5
        _request()
    assert pings == []


@pytest.mark.django_db(transaction=True)
def test_a_request_after_a_pause_is_pinged(postgresql_only, clock, pings):
    _request()
    pings.clear()
    clock[0] += connection_checks.FRESH_SECONDS + 0.1
    _request()
    assert pings == [1]


@pytest.mark.django_db(transaction=True)
def test_a_connection_dropped_during_a_pause_is_replaced_before_use(postgresql_only, clock):
    _request()
    dropped = connection.connection.info.backend_pid
    _terminate_this_connection()
    clock[0] += connection_checks.FRESH_SECONDS + 0.1
    _request()  # no error: the ping found it closed and a new connection answered
    assert connection.connection.info.backend_pid != dropped


@pytest.mark.django_db(transaction=True)
def test_a_connection_dropped_within_the_moment_fails_one_request_then_is_replaced(
    postgresql_only, clock
):
    _request()
    dropped = connection.connection.info.backend_pid
    _terminate_this_connection()
    clock[0] += 0.5
    with pytest.raises(OperationalError):
        _request()
    assert connection.connection is None  # Django's end-of-request check closed it
    _request()
    assert connection.connection.info.backend_pid != dropped


@pytest.mark.django_db(transaction=True)
def test_without_this_every_request_is_pinged(postgresql_only, pings):
    # The baseline the module changes: Django's own behaviour with health checks on (and
    # without the module's receivers, should anything in this process have imported
    # config.wsgi).
    request_finished.disconnect(dispatch_uid="connection_checks.finish")
    request_started.disconnect(dispatch_uid="connection_checks.start")
    _request()
    pings.clear()
    for _ in range(3):
        _request()
    assert pings == [1, 1, 1]
