"""Schedules in plain words: a sentence for common shapes, an honest fallback for the rest."""

from __future__ import annotations

import pytest

from digests.schedules.words import describe_schedule


@pytest.mark.parametrize(
    ("cron", "timezone", "words"),
    [
        # Every day, weekdays, weekends, chosen days
        ("0 8 * * *", "Europe/Berlin", "Every day at 08:00 (Europe/Berlin)"),
        ("30 7 * * 1-5", None, "Weekdays at 07:30"),
        ("30 7 * * MON-FRI", None, "Weekdays at 07:30"),
        ("0 10 * * 6,0", None, "Weekends at 10:00"),
        ("0 10 * * sat,sun", None, "Weekends at 10:00"),
        ("0 9 * * 1", None, "Every Monday at 09:00"),
        ("0 9 * * 0", None, "Every Sunday at 09:00"),
        ("0 9 * * 7", None, "Every Sunday at 09:00"),
        ("0 9 * * mon,wed,fri", None, "Every Monday, Wednesday and Friday at 09:00"),
        ("0 9 * * 2-4", None, "Every Tuesday, Wednesday and Thursday at 09:00"),
        ("0 9 * * 0-6", None, "Every day at 09:00"),
        ("0 8,18 * * *", "UTC", "Every day at 08:00 and 18:00 (UTC)"),
        ("0,30 9 * * 1-5", None, "Weekdays at 09:00 and 09:30"),
        ("5 4 * * ?", None, "Every day at 04:05"),
        # Intervals follow elapsed time, so no time zone
        ("*/15 * * * *", "Europe/Berlin", "Every 15 minutes"),
        ("0/30 * * * *", None, "Every 30 minutes"),
        ("* * * * *", None, "Every minute"),
        ("0 * * * *", "Asia/Tokyo", "Every hour"),
        ("15 * * * *", None, "Every hour at :15"),
        ("0 */2 * * *", None, "Every 2 hours"),
        ("30 */6 * * *", None, "Every 6 hours at :30"),
        # Days of the month and of the year
        ("0 6 1 * *", None, "On the 1st of every month at 06:00"),
        ("0 6 2 * *", None, "On the 2nd of every month at 06:00"),
        ("0 6 23 * *", None, "On the 23rd of every month at 06:00"),
        ("0 6 11 * *", None, "On the 11th of every month at 06:00"),
        ("0 6 1,15 * *", None, "On the 1st and 15th of every month at 06:00"),
        ("0 6 L * *", None, "On the last day of every month at 06:00"),
        ("0 9 * * 1#1", None, "On the first Monday of every month at 09:00"),
        ("0 9 * * 5#3", None, "On the third Friday of every month at 09:00"),
        ("0 17 * * L5", None, "On the last Friday of every month at 17:00"),
        ("0 12 25 12 *", None, "Every year on 25 December at 12:00"),
        # Macros
        ("@daily", "America/New_York", "Every day at 00:00 (America/New_York)"),
        ("@midnight", None, "Every day at 00:00"),
        ("@hourly", "America/New_York", "Every hour"),
        ("@weekly", None, "Every Sunday at 00:00"),
        ("@monthly", None, "On the 1st of every month at 00:00"),
        ("@yearly", None, "Every year on 1 January at 00:00"),
        ("@ANNUALLY", None, "Every year on 1 January at 00:00"),
        # Six fields: seconds first
        ("0 30 7 * * 1-5", "Australia/Lord_Howe", "Weekdays at 07:30 (Australia/Lord_Howe)"),
        ("10 0 8 * * *", None, "Custom schedule: 10 0 8 * * *"),
        # Honest fallbacks
        ("*/7 * * * *", None, "Custom schedule: */7 * * * *"),  # not evenly every 7 minutes
        ("0 8 1-7 * 1", "UTC", "Custom schedule: 0 8 1-7 * 1 (UTC)"),
        ("0 8 * 1-3 *", None, "Custom schedule: 0 8 * 1-3 *"),
        ("0 9 * * 1-5/2", None, "Custom schedule: 0 9 * * 1-5/2"),
        ("0,10,20,30,40,50 8,9 * * *", None, "Custom schedule: 0,10,20,30,40,50 8,9 * * *"),
        ("not a cron", "UTC", "Custom schedule: not a cron"),
        ("  0   8 * *  * ", None, "Every day at 08:00"),
    ],
)
def test_it_describes_a_schedule(cron, timezone, words):
    assert describe_schedule(cron, timezone) == words
