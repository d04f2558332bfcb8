"""Fault tests: real qcluster processes, PostgreSQL and a Redis of their own. Slow (seconds
each, not minutes: leases of 3 s), so marked `slow`; they run in CI on PostgreSQL."""

from __future__ import annotations

import shutil

import pytest
from django.db import connection

from tests.faults.scenarios import Timing


@pytest.fixture
def timing(transactional_db, settings) -> Timing:
    if connection.vendor != "postgresql":
        pytest.skip("fault tests run on PostgreSQL (real processes share the test database)")
    if shutil.which("redis-server") is None:
        pytest.skip("fault tests start a redis-server of their own")
    timing = Timing()
    # Work this process makes (runs asked for by hand) is leased like the children's.
    settings.WORK_LEASE_SECONDS = timing.lease
    settings.WORK_HEARTBEAT_SECONDS = timing.heartbeat
    return timing


def assert_nothing_stuck_lost_or_twice(report: dict) -> None:
    assert report["unfinished"] == 0, report
    assert report["runs"] == report["subscriptions"] == report["succeeded"], report
    assert report["subscriptions_run_twice"] == 0, report
    assert report["items_delivered"] == 2 * report["subscriptions"], report
    assert report["delivered_count_mismatch"] == 0, report
    assert report["items_delivered_twice"] == 0, report
