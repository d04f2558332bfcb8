"""Two worker groups and two tickers at once, as on two machines: every run, refresh and
edition exactly once."""

from __future__ import annotations

import pytest

from tests.faults import scenarios
from tests.faults.conftest import assert_nothing_stuck_lost_or_twice

pytestmark = [pytest.mark.slow, pytest.mark.postgres]


def test_two_clusters_and_two_tickers_do_everything_exactly_once(timing, settings):
    # No fault here, so no lease may lapse: a 3 s lease lapsed once when CI's other lane starved
    # a worker of its heartbeat (a retry, nothing done twice). Lapses are the other scenarios'.
    timing.lease, timing.heartbeat = 10, 2
    settings.WORK_LEASE_SECONDS, settings.WORK_HEARTBEAT_SECONDS = timing.lease, timing.heartbeat
    report = scenarios.two_clusters_two_tickers(timing)
    print(scenarios.describe(report))
    assert_nothing_stuck_lost_or_twice(report)
    assert report["retried"] == 0
    assert report["sources_refreshed"] == report["sources_sources"]
    assert report["sources_refreshed_twice"] == 0
    assert report["feed_requests_max_per_source"] == 1
    assert (report["edition_editions"], report["edition_status"]) == (1, "succeeded")
    assert report["edition_attempts"] == 1
