"""digests.schedules.next_run: cron parsing, time zones, DST and the next-run rules of SPEC §5.

Pure unit tests: no database, `after`/`now` are always passed in, real IANA zones. The 2026 DST
transitions used throughout (checked by the first test, so a tzdata change fails loudly here):

- America/New_York: 8 Mar 02:00 EST → 03:00 EDT (07:00Z); 1 Nov 02:00 EDT → 01:00 EST (06:00Z).
- Europe/Berlin: 29 Mar 02:00 CET → 03:00 CEST (01:00Z); 25 Oct 03:00 CEST → 02:00 CET (01:00Z).
- Australia/Lord_Howe (30-minute shift): 5 Apr 02:00 LHDT → 01:30 LHST (4 Apr 15:00Z);
  4 Oct 02:00 LHST → 02:30 LHDT (3 Oct 15:30Z).
"""

from __future__ import annotations

import time
from datetime import UTC, date, datetime, timedelta
from datetime import time as dt_time
from itertools import pairwise
from zoneinfo import ZoneInfo, available_timezones

import pytest

from digests.schedules.next_run import (
    MACROS,
    ScheduleError,
    next_due_after_run,
    next_run_after,
    next_runs,
    normalize_cron,
    validate_timezone,
)

NEW_YORK = "America/New_York"
BERLIN = "Europe/Berlin"
LORD_HOWE = "Australia/Lord_Howe"

# zone -> (spring-forward instant, fall-back instant), both UTC.
TRANSITIONS = {
    NEW_YORK: (datetime(2026, 3, 8, 7, tzinfo=UTC), datetime(2026, 11, 1, 6, tzinfo=UTC)),
    BERLIN: (datetime(2026, 3, 29, 1, tzinfo=UTC), datetime(2026, 10, 25, 1, tzinfo=UTC)),
    LORD_HOWE: (
        datetime(2026, 10, 3, 15, 30, tzinfo=UTC),
        datetime(2026, 4, 4, 15, tzinfo=UTC),
    ),
}
ALL_TRANSITIONS = [
    pytest.param(zone, instant, id=f"{zone}-{kind}")
    for zone, pair in TRANSITIONS.items()
    for kind, instant in zip(("spring", "fall"), pair, strict=True)
]


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def at(zone: str, *args: int, fold: int = 0) -> datetime:
    """A local wall time in `zone` as an aware UTC instant (fold=1: the repeated one)."""
    return datetime(*args, tzinfo=ZoneInfo(zone), fold=fold).astimezone(UTC)


def wall(instant: datetime, zone: str) -> datetime:
    return instant.astimezone(ZoneInfo(zone)).replace(tzinfo=None)


def offset(instant: datetime, zone: str) -> timedelta:
    return instant.astimezone(ZoneInfo(zone)).utcoffset()


def refusal(call, *args) -> ScheduleError:
    with pytest.raises(ScheduleError) as caught:
        call(*args)
    return caught.value


def test_the_dst_dates_used_here_are_real_transitions():
    shifts = {NEW_YORK: timedelta(hours=1), BERLIN: timedelta(hours=1)}
    for zone, (spring, fall) in TRANSITIONS.items():
        shift = shifts.get(zone, timedelta(minutes=30))
        second = timedelta(seconds=1)
        assert offset(spring, zone) - offset(spring - second, zone) == shift
        assert offset(fall - second, zone) - offset(fall, zone) == shift


# --- Cron syntax ------------------------------------------------------------------------------


def test_a_five_field_expression_is_minute_hour_day_month_weekday():
    assert next_runs("30 8 * * *", "UTC", utc(2026, 1, 1, 9), 2) == [
        utc(2026, 1, 2, 8, 30),
        utc(2026, 1, 3, 8, 30),
    ]


def test_a_six_field_expression_puts_seconds_first():
    assert next_run_after("15 30 8 * * *", "UTC", utc(2026, 1, 1, 9)) == utc(2026, 1, 2, 8, 30, 15)
    assert next_runs("*/20 * * * * *", "UTC", utc(2026, 1, 1, 9), 4) == [
        utc(2026, 1, 1, 9, 0, 20),
        utc(2026, 1, 1, 9, 0, 40),
        utc(2026, 1, 1, 9, 1, 0),
        utc(2026, 1, 1, 9, 1, 20),
    ]


def test_six_fields_never_mean_seconds_last():
    # Read seconds-last, "0 8 * * * 30" would be valid; seconds-first, 30 is not a weekday.
    assert refusal(normalize_cron, "0 8 * * * 30").field == "cron"


@pytest.mark.parametrize(
    ("macro", "after", "expected"),
    [
        ("@hourly", utc(2026, 1, 15, 12, 10), utc(2026, 1, 15, 13)),
        ("@daily", utc(2026, 1, 15, 12), utc(2026, 1, 16)),
        ("@midnight", utc(2026, 1, 15, 12), utc(2026, 1, 16)),
        ("@weekly", utc(2026, 1, 15, 12), utc(2026, 1, 18)),  # the next Sunday
        ("@monthly", utc(2026, 1, 15, 12), utc(2026, 2, 1)),
        ("@yearly", utc(2026, 1, 15, 12), utc(2027, 1, 1)),
        ("@annually", utc(2026, 1, 15, 12), utc(2027, 1, 1)),
    ],
)
def test_macros_fire_when_their_names_say(macro, after, expected):
    assert next_run_after(macro, "UTC", after) == expected


def test_macros_expand_to_five_fields_and_ignore_case_and_spaces():
    assert normalize_cron("@daily") == "0 0 * * *"
    assert normalize_cron("  @Weekly ") == "0 0 * * 0"
    assert normalize_cron("@YEARLY") == MACROS["@yearly"] == "0 0 1 1 *"


def test_daily_macro_runs_at_local_midnight():
    assert next_run_after("@daily", BERLIN, utc(2026, 1, 15, 12)) == at(BERLIN, 2026, 1, 16)


def test_normalizing_collapses_whitespace_and_keeps_the_expression():
    assert normalize_cron("  0   8 *\t* 1-5 ") == "0 8 * * 1-5"


def test_L_is_the_last_day_of_each_month():
    assert next_runs("0 0 L * *", "UTC", utc(2026, 1, 15), 4) == [
        utc(2026, 1, 31),
        utc(2026, 2, 28),
        utc(2026, 3, 31),
        utc(2026, 4, 30),
    ]
    assert next_run_after("0 0 L 2 *", "UTC", utc(2027, 3, 1)) == utc(2028, 2, 29)  # leap year


def test_hash_picks_the_nth_weekday_of_the_month():
    second_fridays = [utc(2026, 2, 13, 9), utc(2026, 3, 13, 9), utc(2026, 4, 10, 9)]
    assert next_runs("0 9 * * 5#2", "UTC", utc(2026, 1, 15), 3) == second_fridays
    assert next_runs("0 9 * * fri#2", "UTC", utc(2026, 1, 15), 3) == second_fridays


def test_L_before_a_weekday_is_the_last_such_weekday_of_the_month():
    assert next_runs("0 9 * * L5", "UTC", utc(2026, 1, 15), 3) == [
        utc(2026, 1, 30, 9),
        utc(2026, 2, 27, 9),
        utc(2026, 3, 27, 9),
    ]


def test_ranges_steps_and_lists_combine():
    # 09:00, 13:00 and 17:00 on weekdays; Friday 16 Jan 2026 then Monday 19 Jan.
    assert next_runs("0 9-17/4 * * 1-5", "UTC", utc(2026, 1, 16, 10), 4) == [
        utc(2026, 1, 16, 13),
        utc(2026, 1, 16, 17),
        utc(2026, 1, 19, 9),
        utc(2026, 1, 19, 13),
    ]
    assert next_runs("0 8 1,15 * *", "UTC", utc(2026, 1, 2), 3) == [
        utc(2026, 1, 15, 8),
        utc(2026, 2, 1, 8),
        utc(2026, 2, 15, 8),
    ]
    assert next_runs("1-5/2 * * * *", "UTC", utc(2026, 1, 1, 8), 3) == [
        utc(2026, 1, 1, 8, 1),
        utc(2026, 1, 1, 8, 3),
        utc(2026, 1, 1, 8, 5),
    ]


def test_weekday_and_month_names_mean_their_numbers_in_any_case():
    start = utc(2026, 1, 15)
    assert next_runs("0 9 * * mon-fri", "UTC", start, 10) == next_runs(
        "0 9 * * 1-5", "UTC", start, 10
    )
    assert next_runs("0 9 * JAN,jul MON", "UTC", start, 3) == [
        utc(2026, 1, 19, 9),
        utc(2026, 1, 26, 9),
        utc(2026, 7, 6, 9),
    ]


def test_sunday_is_both_0_and_7():
    start = utc(2026, 1, 1)
    assert next_runs("0 9 * * 7", "UTC", start, 5) == next_runs("0 9 * * 0", "UTC", start, 5)


def test_a_day_of_month_and_a_weekday_together_mean_either():
    # Classic cron: "the 1st, or any Monday".
    assert next_runs("0 8 1 * 1", "UTC", utc(2026, 1, 15), 3) == [
        utc(2026, 1, 19, 8),
        utc(2026, 1, 26, 8),
        utc(2026, 2, 1, 8),
    ]


# --- Refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "why"),
    [
        ("", "required"),
        ("   ", "required"),
        (None, "required"),
        ("* * * *", "has 4"),
        ("0 8 * *", "has 4"),
        ("* * * * * * *", "has 7"),
        ("0 0 8 * * * 2026", "has 7"),
        ("61 * * * *", "the minute field cannot be 61. It takes 0 to 59"),
        ("60 * * * *", "the minute field cannot be 60"),
        ("0 24 * * *", "the hour field cannot be 24. It takes 0 to 23"),
        ("0 0 * 13 *", "the month field cannot be 13. It takes 1 to 12"),
        ("0 0 32 * *", "the day of the month field cannot be 32. It takes 1 to 31"),
        ("0 0 0 * *", "the day of the month field cannot be 0"),
        ("0 0 * * 8", "the day of the week field cannot be 8. It takes 0 to 7"),
        ("60 0 8 * * *", "the seconds field cannot be 60"),  # seconds
        ("hello world foo bar baz", "the minute field cannot be hello"),
        ("every day at 8 am", "the minute field cannot be every"),
        ("0 8 * * someday", "the day of the week field cannot be someday"),
        ("*/0 * * * *", "the minute field cannot be */0"),
        ("0 9 * * 5L", "the day of the week field cannot be 5L"),
        ("@reboot", "Unknown macro"),
        ("@fortnightly", "Unknown macro"),
        ("@", "Unknown macro"),
        ("0 0 30 2 *", "never fires"),
        ("0 0 31 4,6,9,11 *", "never fires"),
        (8, "must be text"),
        (["0", "8", "*", "*", "*"], "must be text"),
    ],
)
def test_a_bad_cron_expression_is_refused_saying_why(expression, why):
    error = refusal(normalize_cron, expression)
    assert error.field == "cron"
    assert why in error.message
    assert str(error) == error.message
    # The same refusal (not a croniter error, not a crash) from the functions that compute runs.
    assert refusal(next_run_after, expression, "UTC", utc(2026, 1, 1)).field == "cron"


def test_an_unknown_macro_refusal_lists_the_macros_there_are():
    message = refusal(normalize_cron, "@reboot").message
    assert all(macro in message for macro in MACROS)


def test_an_out_of_range_refusal_names_the_expression():
    assert "'0 24 * * *'" in refusal(normalize_cron, "0 24 * * *").message


def test_a_refusal_is_in_our_words_not_the_cron_librarys():
    for expression in ("0 24 * * *", "*/0 * * * *", "0 9 * * fri#6", "0 9 * * 5L"):
        message = refusal(normalize_cron, expression).message
        assert "acceptable" not in message and "Invalid" not in message  # croniter's wording
        assert "field cannot be" in message


def test_february_29_is_not_refused_since_leap_years_have_it():
    assert next_run_after("0 0 29 2 *", "UTC", utc(2026, 3, 1)) == utc(2028, 2, 29)


@pytest.mark.parametrize(
    "name",
    [
        "Mars/Olympus",
        "GMT+25",
        "UTC+2",
        "CEST",
        "",
        None,
        "utc",
        "utc ",
        "europe/berlin",
        "Europe/Berlinn",
        "localtime",  # the host's own zone, not an IANA name
        "../etc/passwd",
        "Europe/../Europe/Berlin",
        "/usr/share/zoneinfo/UTC",
        2,
        ["UTC"],
    ],
)
def test_a_name_that_is_not_an_iana_time_zone_is_refused(name):
    error = refusal(validate_timezone, name)
    assert error.field == "timezone"
    assert "is not an IANA time zone name" in error.message
    assert refusal(next_run_after, "0 8 * * *", name, utc(2026, 1, 1)).field == "timezone"


def test_an_empty_time_zone_is_called_empty():
    assert "(empty)" in refusal(validate_timezone, "").message


@pytest.mark.parametrize("name", ["UTC ", " Europe/Berlin", "America/New_York\n"])
def test_a_time_zone_with_spaces_around_it_is_refused_with_the_name_it_meant(name):
    # Callers store the string they validated; "UTC " must not slip through as "UTC".
    error = refusal(validate_timezone, name)
    assert error.field == "timezone"
    assert "spaces" in error.message
    assert repr(name.strip()) in error.message


@pytest.mark.parametrize(
    "name",
    ["UTC", "Etc/UTC", "Europe/Berlin", LORD_HOWE, "Asia/Kolkata", "Etc/GMT+5", "US/Eastern"],
)
def test_iana_names_are_accepted(name):
    assert validate_timezone(name).key == name


def test_legacy_iana_names_that_zoneinfo_knows_are_accepted():
    # EST5EDT is an IANA name (a "backward" link); it is a real zone, not a guess.
    assert "EST5EDT" in available_timezones()
    assert validate_timezone("EST5EDT").key == "EST5EDT"


# --- next_run_after's contract ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "fire", "following"),
    [
        ("0 8 * * *", utc(2026, 1, 1, 8), utc(2026, 1, 2, 8)),  # wall-clock
        ("*/15 * * * *", utc(2026, 1, 1, 8, 15), utc(2026, 1, 1, 8, 30)),  # elapsed time
        ("30 0 8 * * *", utc(2026, 1, 1, 8, 0, 30), utc(2026, 1, 2, 8, 0, 30)),
        ("*/10 * * * * *", utc(2026, 1, 1, 8, 0, 10), utc(2026, 1, 1, 8, 0, 20)),
    ],
)
def test_the_next_run_is_strictly_after_the_given_instant(expression, fire, following):
    tick = timedelta(microseconds=1)
    assert next_run_after(expression, "UTC", fire - tick) == fire
    assert next_run_after(expression, "UTC", fire) == following
    assert next_run_after(expression, "UTC", fire + tick) == following


@pytest.mark.parametrize("expression", ["0 8 * * *", "*/15 * * * *", "30 0 8 * * *"])
def test_the_next_run_is_aware_utc(expression):
    run = next_run_after(expression, LORD_HOWE, utc(2026, 6, 1))
    assert run.tzinfo is UTC


def test_the_instant_may_be_given_in_any_zone():
    in_tokyo = datetime(2026, 1, 1, 15, 59, tzinfo=ZoneInfo("Asia/Tokyo"))  # 06:59Z
    assert next_run_after("0 8 * * *", BERLIN, in_tokyo) == utc(2026, 1, 1, 7)
    assert next_run_after("*/15 * * * *", BERLIN, in_tokyo) == utc(2026, 1, 1, 7)


@pytest.mark.parametrize("expression", ["0 8 * * *", "*/15 * * * *"])
def test_a_naive_instant_is_refused(expression):
    with pytest.raises(ValueError, match="timezone-aware"):
        next_run_after(expression, "UTC", datetime(2026, 1, 1, 8))


def test_a_daily_run_fires_at_the_local_time_of_its_zone():
    after = utc(2026, 1, 15, 12)
    assert next_run_after("0 8 * * *", NEW_YORK, after) == utc(2026, 1, 15, 13)  # 07:00 EST now
    assert next_run_after("0 8 * * *", BERLIN, after) == utc(2026, 1, 16, 7)
    assert next_run_after("0 8 * * *", LORD_HOWE, after) == utc(2026, 1, 15, 21)  # +11 (DST)
    assert next_run_after("0 8 * * *", "Asia/Kolkata", after) == utc(2026, 1, 16, 2, 30)


def test_next_runs_lists_consecutive_runs_each_after_the_last():
    assert next_runs("0 8 * * 1", "UTC", utc(2026, 1, 1), 3) == [
        utc(2026, 1, 5, 8),
        utc(2026, 1, 12, 8),
        utc(2026, 1, 19, 8),
    ]
    assert next_runs("0 8 * * 1", "UTC", utc(2026, 1, 1), 0) == []


# --- DST: wall-clock schedules ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("zone", "expression", "day_before", "jump", "day_after"),
    [
        # New York 02:30 does not exist on 8 Mar: it runs at 03:00 EDT, when the clocks jump.
        (
            NEW_YORK,
            "30 2 * * *",
            utc(2026, 3, 7, 7, 30),
            utc(2026, 3, 8, 7),
            utc(2026, 3, 9, 6, 30),
        ),
        (
            BERLIN,
            "30 2 * * *",
            utc(2026, 3, 28, 1, 30),
            utc(2026, 3, 29, 1),
            utc(2026, 3, 30, 0, 30),
        ),
        # Lord Howe skips 02:00-02:29 only: 02:15 runs at 02:30 LHDT.
        (
            LORD_HOWE,
            "15 2 * * *",
            utc(2026, 10, 2, 15, 45),
            utc(2026, 10, 3, 15, 30),
            utc(2026, 10, 4, 15, 15),
        ),
        # The same rule for a weekly run on a Sunday.
        (
            NEW_YORK,
            "30 2 * * 0",
            utc(2026, 3, 1, 7, 30),
            utc(2026, 3, 8, 7),
            utc(2026, 3, 15, 6, 30),
        ),
    ],
)
def test_a_time_skipped_by_spring_forward_fires_at_the_first_valid_instant_after_it(
    zone, expression, day_before, jump, day_after
):
    assert next_runs(expression, zone, day_before - timedelta(hours=1), 3) == [
        day_before,
        jump,
        day_after,
    ]
    assert jump == TRANSITIONS[zone][0]


@pytest.mark.parametrize(
    ("zone", "expression"),
    [
        (NEW_YORK, "*/15 2 * * *"),  # four skipped slots
        (NEW_YORK, "0 2,3 * * *"),  # skipped 02:00 lands on the real 03:00
        (BERLIN, "*/10 2 * * *"),
        (LORD_HOWE, "0,15 2 * * *"),
    ],
)
def test_several_skipped_times_fire_once_at_the_jump(zone, expression):
    jump = TRANSITIONS[zone][0]
    runs = next_runs(expression, zone, jump - timedelta(hours=3), 3)
    assert runs[0] == jump
    assert runs[1] - runs[0] >= timedelta(hours=1)


@pytest.mark.parametrize(
    ("zone", "expression", "first", "second"),
    [
        # New York repeats 01:00-01:59 on 1 Nov: 01:30 EDT (05:30Z), then 01:30 EST (06:30Z).
        (NEW_YORK, "30 1 * * *", utc(2026, 11, 1, 5, 30), utc(2026, 11, 1, 6, 30)),
        (BERLIN, "30 2 * * *", utc(2026, 10, 25, 0, 30), utc(2026, 10, 25, 1, 30)),
        # Lord Howe repeats only 01:30-01:59.
        (LORD_HOWE, "45 1 * * *", utc(2026, 4, 4, 14, 45), utc(2026, 4, 4, 15, 15)),
    ],
)
def test_it_fires_once_on_fall_back_night_at_the_first_occurrence(zone, expression, first, second):
    assert wall(first, zone) == wall(second, zone)  # the same wall time, twice
    runs = next_runs(expression, zone, first - timedelta(days=1, minutes=1), 3)
    assert runs[1] == first
    assert second not in runs
    assert runs[2] - runs[1] == timedelta(days=1) + (offset(first, zone) - offset(second, zone))
    # Asked between the two occurrences, it waits for the next day.
    assert next_run_after(expression, zone, first + timedelta(minutes=1)) == runs[2]
    assert next_run_after(expression, zone, second) == runs[2]


def test_a_fixed_hour_with_a_minute_step_runs_through_the_repeated_hour_once():
    runs = next_runs("*/15 1 * * *", NEW_YORK, utc(2026, 11, 1, 4), 5)
    assert [wall(run, NEW_YORK).time().isoformat() for run in runs[:4]] == [
        "01:00:00",
        "01:15:00",
        "01:30:00",
        "01:45:00",
    ]
    assert runs[:4] == [utc(2026, 11, 1, 5, m) for m in (0, 15, 30, 45)]  # EDT, first pass
    assert runs[4] == utc(2026, 11, 2, 6)  # next day, EST


@pytest.mark.parametrize(
    ("zone", "before", "after"),
    [
        (NEW_YORK, utc(2026, 3, 6, 13), utc(2026, 3, 9, 12)),
        (NEW_YORK, utc(2026, 10, 30, 12), utc(2026, 11, 2, 13)),
        (BERLIN, utc(2026, 3, 27, 7), utc(2026, 3, 30, 6)),
        (BERLIN, utc(2026, 10, 23, 6), utc(2026, 10, 26, 7)),
        (LORD_HOWE, utc(2026, 10, 1, 21, 30), utc(2026, 10, 4, 21)),  # +10:30 -> +11
        (LORD_HOWE, utc(2026, 4, 2, 21), utc(2026, 4, 5, 21, 30)),  # +11 -> +10:30
    ],
)
def test_a_daily_run_keeps_its_local_wall_time_across_the_change(zone, before, after):
    runs = next_runs("0 8 * * *", zone, before - timedelta(minutes=1), 4)
    assert runs[0] == before
    assert runs[3] == after
    assert all(wall(run, zone).time().isoformat() == "08:00:00" for run in runs)
    assert [wall(run, zone).date() for run in runs] == [
        wall(before, zone).date() + timedelta(days=i) for i in range(4)
    ]
    # The UTC instant moves by exactly the size of the shift.
    assert (after - before) - timedelta(days=3) == offset(before, zone) - offset(after, zone)


@pytest.mark.parametrize("zone", [NEW_YORK, BERLIN, LORD_HOWE])
@pytest.mark.parametrize("hhmm", ["00:30", "01:30", "01:45", "02:00", "02:15", "02:30", "03:00"])
def test_a_daily_run_fires_exactly_once_on_every_local_date_of_a_year(zone, hhmm):
    hour, minute = map(int, hhmm.split(":"))
    start = at(zone, 2026, 1, 1)
    runs = next_runs(f"{minute} {hour} * * *", zone, start, 365)
    dates = [wall(run, zone).date() for run in runs]
    assert dates == [date(2026, 1, 1) + timedelta(days=i) for i in range(365)]
    assert runs == sorted(set(runs))
    nominal = dt_time(hour, minute)
    for run in runs:
        shown = wall(run, zone).time()
        if shown != nominal:  # only on spring-forward day, when the time is skipped: at the jump
            assert run == TRANSITIONS[zone][0]
            assert shown > nominal


# --- DST: interval-style schedules follow real elapsed time -----------------------------------


@pytest.mark.parametrize(("zone", "transition"), ALL_TRANSITIONS)
def test_every_15_minutes_is_every_15_real_minutes_through_the_change(zone, transition):
    runs = next_runs("*/15 * * * *", zone, transition - timedelta(hours=3), 6 * 4)
    assert runs[0] == transition - timedelta(hours=3) + timedelta(minutes=15)
    assert {b - a for a, b in pairwise(runs)} == {timedelta(minutes=15)}
    assert transition in runs


@pytest.mark.parametrize("zone", [NEW_YORK, BERLIN, LORD_HOWE])
def test_every_15_minutes_fires_in_both_passes_of_the_repeated_hour(zone):
    fall = TRANSITIONS[zone][1]
    runs = next_runs("*/15 * * * *", zone, fall - timedelta(hours=2), 16)
    walls = [wall(run, zone) for run in runs]
    repeated = [w for w in walls if walls.count(w) == 2]
    shift = offset(fall - timedelta(seconds=1), zone) - offset(fall, zone)
    assert len(repeated) == 2 * (shift // timedelta(minutes=15))  # every slot of it, twice


@pytest.mark.parametrize(("zone", "transition"), ALL_TRANSITIONS)
def test_every_15_minutes_from_any_instant_is_the_next_real_quarter_hour(zone, transition):
    """Brute force against a minute-by-minute oracle, from every minute and second around the
    change (this is where the first pass of a repeated hour and the jump hide their bugs)."""
    minutes = [transition + timedelta(minutes=m) for m in range(-150, 180)]
    quarter_hours = [m for m in minutes if wall(m, zone).minute % 15 == 0]
    for instant in minutes[:-20]:
        for given in (instant, instant + timedelta(seconds=59, microseconds=1)):
            expected = next(q for q in quarter_hours if q > given)
            assert next_run_after("*/15 * * * *", zone, given) == expected, given


@pytest.mark.parametrize(
    ("zone", "expected"),
    [
        # New York repeats 01:00, an odd hour: 00:00 EDT, then 02:00 EST three real hours on.
        (NEW_YORK, [utc(2026, 11, 1, 4), utc(2026, 11, 1, 7), utc(2026, 11, 1, 9)]),
        # Berlin repeats 02:00, an even hour: it fires in both passes, one real hour apart.
        (
            BERLIN,
            [
                utc(2026, 10, 24, 22),
                utc(2026, 10, 25, 0),
                utc(2026, 10, 25, 1),
                utc(2026, 10, 25, 3),
            ],
        ),
        # 00:00 LHDT (+11), then 02:00 LHST (+10:30), 2.5 real hours on.
        (LORD_HOWE, [utc(2026, 4, 4, 13), utc(2026, 4, 4, 15, 30), utc(2026, 4, 4, 17, 30)]),
    ],
)
def test_every_two_hours_on_fall_back_night_fires_at_each_real_even_hour(zone, expected):
    runs = next_runs("0 */2 * * *", zone, expected[0] - timedelta(minutes=1), len(expected))
    assert runs == expected
    assert all(wall(run, zone).hour % 2 == 0 and wall(run, zone).minute == 0 for run in runs)


@pytest.mark.parametrize(
    ("zone", "expected"),
    [
        # The skipped 02:00 runs two real hours after 00:00, i.e. at 03:00 EDT; then 04:00.
        (NEW_YORK, [utc(2026, 3, 8, 5), utc(2026, 3, 8, 7), utc(2026, 3, 8, 8)]),
        (BERLIN, [utc(2026, 3, 28, 23), utc(2026, 3, 29, 1), utc(2026, 3, 29, 2)]),
        # 00:00 LHST (13:30Z); 02:00 skipped -> two real hours later, 02:30 LHDT; then 04:00.
        (LORD_HOWE, [utc(2026, 10, 3, 13, 30), utc(2026, 10, 3, 15, 30), utc(2026, 10, 3, 17)]),
    ],
)
def test_every_two_hours_fires_a_skipped_even_hour_two_real_hours_after_the_last(zone, expected):
    assert next_runs("0 */2 * * *", zone, expected[0] - timedelta(minutes=1), 3) == expected


def test_hourly_on_lord_howe_loses_no_run_to_the_half_hour_jump():
    # 01:00 LHST = 14:30Z. The clocks jump 02:00 -> 02:30 at 15:30Z: the 02:00 run happens one
    # real hour after the last (at the jump), not 90 minutes later at 03:00 LHDT.
    assert next_runs("@hourly", LORD_HOWE, utc(2026, 10, 3, 14), 4) == [
        utc(2026, 10, 3, 14, 30),
        utc(2026, 10, 3, 15, 30),
        utc(2026, 10, 3, 16),
        utc(2026, 10, 3, 17),
    ]
    assert next_runs("15 * * * *", LORD_HOWE, utc(2026, 10, 3, 14), 3) == [
        utc(2026, 10, 3, 14, 45),
        utc(2026, 10, 3, 15, 45),  # 02:15 LHST never shows; one real hour after 01:15
        utc(2026, 10, 3, 16, 15),
    ]


@pytest.mark.parametrize("zone", [NEW_YORK, BERLIN, LORD_HOWE])
@pytest.mark.parametrize("minutes", [(0,), (10, 30), tuple(range(0, 60, 7))], ids=str)
def test_skipped_slots_fire_when_the_clock_would_have_shown_them_without_the_jump(zone, minutes):
    """Brute force from every minute around spring-forward: a slot fires whenever the new clock
    shows it, and, for the slots the jump skipped, when the old clock would have shown them."""
    jump = TRANSITIONS[zone][0]
    old_offset = offset(jump - timedelta(seconds=1), zone)
    shift = offset(jump, zone) - old_offset
    expression = f"{','.join(map(str, minutes))} * * * *"
    instants = [jump + timedelta(minutes=m) for m in range(-120, 150)]
    due = [
        t
        for t in instants
        if wall(t, zone).minute in minutes
        or (jump <= t < jump + shift and (t + old_offset).minute in minutes)
    ]
    for given in instants[:-70]:
        assert next_run_after(expression, zone, given) == next(d for d in due if d > given), given


def test_half_past_every_hour_on_lord_howe_fires_in_both_passes_of_01_30():
    assert next_runs("30 * * * *", LORD_HOWE, utc(2026, 4, 4, 14), 3) == [
        utc(2026, 4, 4, 14, 30),  # 01:30 LHDT
        utc(2026, 4, 4, 15),  # 01:30 LHST
        utc(2026, 4, 4, 16),  # 02:30 LHST
    ]


def test_every_second_through_the_repeated_hour_is_every_real_second_and_fast():
    fall = TRANSITIONS[NEW_YORK][1]
    started = time.perf_counter()
    runs = next_runs("* * * * * *", NEW_YORK, fall - timedelta(seconds=2), 4)
    assert time.perf_counter() - started < 2
    assert runs == [fall + timedelta(seconds=s) for s in (-1, 0, 1, 2)]


# --- next_due_after_run -----------------------------------------------------------------------


def test_a_late_run_still_gets_the_next_slot_of_its_schedule():
    scheduled = utc(2026, 1, 1, 8)
    ran_late = utc(2026, 1, 1, 23, 50)
    assert next_due_after_run("0 8 * * *", "UTC", scheduled, ran_late) == utc(2026, 1, 2, 8)
    assert next_due_after_run("*/15 * * * *", "UTC", scheduled, utc(2026, 1, 1, 8, 14)) == utc(
        2026, 1, 1, 8, 15
    )


def test_the_next_run_is_computed_from_the_scheduled_time_not_from_now():
    # A ticker whose clock is a little behind claims the 08:00 run at 07:59:30: counted from
    # now, the next run would be 08:00 again (a double run); counted from the slot it is 08:15.
    scheduled = utc(2026, 1, 1, 8)
    early = utc(2026, 1, 1, 7, 59, 30)
    assert next_due_after_run("*/15 * * * *", "UTC", scheduled, early) == utc(2026, 1, 1, 8, 15)
    assert next_due_after_run("0 8 * * *", BERLIN, utc(2026, 1, 1, 7), utc(2026, 1, 1, 6, 59)) == (
        utc(2026, 1, 2, 7)
    )


def test_after_downtime_a_missed_schedule_runs_once_not_once_per_slot():
    scheduled = utc(2026, 1, 1, 8)
    back_up = utc(2026, 1, 1, 11, 7)  # 12 quarter-hour slots missed
    assert next_due_after_run("*/15 * * * *", "UTC", scheduled, back_up) == utc(2026, 1, 1, 11, 15)
    assert next_due_after_run(
        "0 8 * * *", NEW_YORK, at(NEW_YORK, 2026, 1, 1, 8), utc(2026, 1, 5)
    ) == (at(NEW_YORK, 2026, 1, 5, 8))


def test_a_slot_due_at_the_very_moment_of_the_run_is_folded_into_it():
    # The run made at 08:15 for the 08:00 slot also stands for the 08:15 slot.
    scheduled = utc(2026, 1, 1, 8)
    assert next_due_after_run("*/15 * * * *", "UTC", scheduled, utc(2026, 1, 1, 8, 15)) == utc(
        2026, 1, 1, 8, 30
    )


def test_the_next_due_run_is_always_after_both_the_slot_and_now():
    scheduled = utc(2026, 1, 1, 8)
    for minutes in range(-30, 24 * 60, 7):
        now = scheduled + timedelta(minutes=minutes)
        due = next_due_after_run("0 */3 * * *", BERLIN, scheduled, now)
        assert due > scheduled and due > now
        assert due == next_run_after("0 */3 * * *", BERLIN, max(scheduled, now))


def test_after_the_first_of_two_repeated_times_the_next_due_run_is_the_next_day():
    first = utc(2026, 11, 1, 5, 30)  # 01:30 EDT
    between = utc(2026, 11, 1, 6, 5)  # 01:05 EST: 01:30 is about to show again
    assert next_due_after_run("30 1 * * *", NEW_YORK, first, between) == utc(2026, 11, 2, 6, 30)


def test_a_run_due_in_a_repeated_hour_is_scheduled_from_its_own_slot():
    # Every 15 minutes through New York's fall-back: each run's successor is 15 real minutes on.
    slot = utc(2026, 11, 1, 5, 45)  # 01:45 EDT
    for _ in range(6):
        following = next_due_after_run("*/15 * * * *", NEW_YORK, slot, slot + timedelta(minutes=1))
        assert following - slot == timedelta(minutes=15)
        slot = following
    assert slot == utc(2026, 11, 1, 7, 15)
