"""`kill -9` of a worker group mid-run and mid-edition: the other machine's workers take the
work over once its lease runs out, and nothing is done twice."""

from __future__ import annotations

import pytest

from tests.faults import scenarios
from tests.faults.conftest import assert_nothing_stuck_lost_or_twice

pytestmark = [pytest.mark.slow, pytest.mark.postgres]


def test_runs_of_a_killed_worker_group_finish_once_within_seconds(timing):
    report = scenarios.worker_killed_mid_run(timing)
    print(scenarios.describe(report))
    assert report["running_at_fault"] >= 1
    assert_nothing_stuck_lost_or_twice(report)
    assert report["retried"] >= 1, "the runs in flight were taken over by a second attempt"
    assert report["max_attempts"] <= 2
    # Lease (3 s) + tick (1 s) + the run itself (two 1 s model calls), on a busy machine.
    assert report["recovery_seconds"] < 45


def test_an_edition_of_a_killed_worker_group_is_taken_over_once(timing):
    report = scenarios.worker_killed_mid_edition(timing)
    print(scenarios.describe(report))
    assert report["running_at_fault"] == 1
    assert report["editions"] == 1
    assert (report["status"], report["attempts"]) == ("succeeded", 2)
    assert report["items"] == report["item_count"] == 3
    assert report["recovery_seconds"] < 45


def test_briefs_a_killed_worker_group_was_sending_are_sent_once(timing):
    report = scenarios.worker_killed_mid_delivery(timing)
    print(scenarios.describe(report))
    assert report["running_at_fault"] >= 1, "the kill caught a brief on its way"
    assert_nothing_stuck_lost_or_twice(report)
    assert report["deliveries"] == report["sent"] == report["subscriptions"], report
    assert report["deliveries_taken_over"] >= 1, "the briefs in flight were sent by attempt 2"
    assert report["delivery_max_attempts"] <= 2, report
    # Caught before the message was handed over: each brief arrived exactly once.
    assert report["messages_received"] == report["subscriptions"], report
    assert report["messages_received_twice"] == 0, report
    assert report["recovery_seconds"] < 60


def test_a_text_watch_check_of_a_killed_worker_group_tells_the_change_once(timing):
    report = scenarios.worker_killed_mid_watch_check(timing)
    print(scenarios.describe(report))
    # One fetch in flight at the kill: the heartbeat kept its claim past the lease.
    assert report["checking_at_fault"] == report["page_requests_at_fault"] == 1, report
    # Checked again after the claim's lease (not an interval later), and told once.
    assert report["page_requests"] == 2, report
    assert (report["changes"], report["changes_told"]) == (1, 1), report
    assert (report["inbox_items"], report["runs"]) == (1, 1), report
    assert report["status"] == "active"
    assert report["next_check_minutes_ahead"] >= 55, "then an interval on, as before the fault"
    # Lease (3 s) + tick (1 s) + starting cluster B, on a busy machine.
    assert report["recovery_seconds"] < 45
