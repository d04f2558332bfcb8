"""PostgreSQL drops every connection of the app mid-batch (`pg_terminate_backend`): failure
handlers write on a new connection, runs and refreshes finish, none twice."""

from __future__ import annotations

import pytest

from tests.faults import scenarios
from tests.faults.conftest import assert_nothing_stuck_lost_or_twice

pytestmark = [pytest.mark.slow, pytest.mark.postgres]


def test_runs_and_refreshes_finish_once_after_the_database_drops_every_connection(timing):
    report = scenarios.database_dropped_mid_batch(timing)
    print(scenarios.describe(report))
    assert report["connections_dropped"] >= 2
    assert report["sources_refreshed_before_fault"] < report["sources_sources"]
    assert_nothing_stuck_lost_or_twice(report)
    assert report["max_attempts"] <= 2
    assert report["sources_refreshed"] == report["sources_sources"]
    assert report["sources_failed"] == 0
    assert report["sources_still_due_or_leased"] == 0
    assert report["sources_refreshed_twice"] == 0
    assert report["recovery_seconds"] < 45
