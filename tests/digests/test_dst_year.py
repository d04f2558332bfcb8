"""A year of DST for subscriptions in 20 time zones: every expected run exactly once, none
extra, compared with a reference computed without the product's schedule code
(tests/digests/dst_year.py; the `dstyear` benchmark runs 1,000 subscriptions, every instant)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection

from tests.digests import dst_year


def test_the_reference_knows_the_dst_rules():
    # New York, 13 March 2011... the simulated year: 11 March 2012 02:00 -> 03:00 (EST -> EDT).
    fires = dst_year.expected_fires("30 2 * * *", "America/New_York", *_days(2012, 3, 10, 3))
    assert sorted(fires) == [
        datetime(2012, 3, 10, 7, 30, tzinfo=UTC),  # 02:30 EST
        datetime(2012, 3, 11, 7, 0, tzinfo=UTC),  # 02:30 never happens: at the jump, 03:00 EDT
        datetime(2012, 3, 12, 6, 30, tzinfo=UTC),  # 02:30 EDT
    ]
    # 4 November 2011 01:30 happens twice: a wall-clock schedule fires at the first.
    fires = dst_year.expected_fires("30 1 * * *", "America/New_York", *_days(2011, 11, 6, 1))
    assert sorted(fires) == [datetime(2011, 11, 6, 5, 30, tzinfo=UTC)]
    # An elapsed-time schedule fires on both passes.
    fires = dst_year.expected_fires("30 */1 * * *", "America/New_York", *_days(2011, 11, 6, 1))
    assert datetime(2011, 11, 6, 6, 30, tzinfo=UTC) in fires  # 01:30 EST, the second pass
    # Apia skipped 30 December 2011: its 08:00 fires at the jump, with 31 December's midnight.
    fires = dst_year.expected_fires("0 8 * * *", "Pacific/Apia", *_days(2011, 12, 29, 3))
    assert sorted(fires) == [
        datetime(2011, 12, 28, 18, 0, tzinfo=UTC),  # 28 Dec 08:00 (-10)
        datetime(2011, 12, 29, 18, 0, tzinfo=UTC),  # 29 Dec 08:00 (-10)
        datetime(2011, 12, 30, 10, 0, tzinfo=UTC),  # 30 Dec never was: the jump itself
        datetime(2011, 12, 30, 18, 0, tzinfo=UTC),  # 31 Dec 08:00 (+14)
    ]


def _days(year, month, day, count):
    start = datetime(year, month, day, tzinfo=UTC) - timedelta(hours=12)
    return start, start + timedelta(days=count)


@pytest.mark.slow
@pytest.mark.timeout(900)  # ~8,000 ticks: 40 s on a quiet machine, minutes on a busy one
def test_a_year_of_ticks_runs_every_schedule_exactly_as_the_reference_says(db):
    if connection.vendor != "sqlite":
        # The year is about time zones, not the database (the claim's SQL on PostgreSQL has
        # its own concurrency tests); ~8,000 ticks take a minute there, half that here.
        pytest.skip("the DST year runs on SQLite")
    subscriptions = dst_year.make_subscriptions(dst_year.CRONS_SMALL, per_combination=1)
    # Batches of 50 minutes are exact here: none of these schedules fires twice within them
    # (the closest are Havana's "0 */12": its midnight repeated by fall-back, an hour apart).
    # The `dstyear` benchmark ticks at every due instant.
    timing = dst_year.tick_through_the_year(batch=timedelta(minutes=50))
    report = dst_year.compare(subscriptions)
    print(timing, {k: v for k, v in report.items() if not isinstance(v, list)})
    assert report["missing"] == []
    assert report["extra"] == []
    assert report["twice"] == []
    assert report["runs"] == report["expected_runs"] > 60 * 300
