"""Redis — broker and cache — crashes and stays away: the web keeps serving and accepting
work, and everything finishes once Redis is back, though its queue was lost."""

from __future__ import annotations

import pytest

from tests.faults import scenarios
from tests.faults.conftest import assert_nothing_stuck_lost_or_twice

pytestmark = [pytest.mark.slow, pytest.mark.postgres]


def test_the_web_serves_through_a_redis_outage_and_work_resumes_after_it(timing):
    report = scenarios.redis_down(timing, outage_seconds=10)
    print(scenarios.describe(report))
    # Serving at all is the point: a page costs ~0.3 s on a quiet machine and ~1.5 s when the
    # other CI lane is busy, so two rounds of three pages is the bound, not a throughput figure.
    assert report["pages_during_outage"] >= 6
    assert report["page_errors_during_outage"] == 0, report["page_statuses"]
    assert report["run_now_status_during_outage"] == 202
    assert_nothing_stuck_lost_or_twice(report)
    assert report["recovery_seconds"] < 45
