"""A cron schedule in plain words, for the console and the schedule preview API.

Only common shapes get a sentence ("Weekdays at 07:30 (Europe/Berlin)"); anything else reads
"Custom schedule: <cron>", because a wrong sentence is worse than an honest expression. Which
instants a schedule fires at is digests.schedules.next_run's business, never this module's.

Names go through pgettext with a "schedule" context: Django's own catalogs translate bare
"Monday", and a half-translated sentence would be worse than an English one.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from digests.schedules.next_run import ScheduleError, follows_elapsed_time, normalize_cron

# Cron weekday numbers (0 and 7 are Sunday) and names, listed Monday first.
_WEEKDAYS = {
    1: "Monday",
    2: "Tuesday",
    3: "Wednesday",
    4: "Thursday",
    5: "Friday",
    6: "Saturday",
    0: "Sunday",
}
_WEEKDAY_ORDER = [1, 2, 3, 4, 5, 6, 0]
_DAY_NAMES = {"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6}
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_MONTH_NAMES = {name[:3].lower(): number for number, name in enumerate(_MONTHS, start=1)}
_NTH = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}
_MAX_TIMES = 6  # "at 08:00, 12:00 and 18:00" reads well; a dozen times does not


def _weekday(number: int) -> str:
    return pgettext("schedule", _WEEKDAYS[number])


def _month(number: int) -> str:
    return pgettext("schedule", _MONTHS[number - 1])


def _ordinal(day: int) -> str:
    suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def _join(words: list[str]) -> str:
    if len(words) == 1:
        return words[0]
    return _("%(items)s and %(last)s") % {"items": ", ".join(words[:-1]), "last": words[-1]}


def _value(token: str, names: dict[str, int]) -> int | None:
    token = token.lower()
    if token.isdigit():
        return int(token)
    return names.get(token)


def _values(field: str, low: int, high: int, names: dict[str, int] | None = None):
    """The sorted values of a list/range field ("1-5", "MON,WED", "8"), or None for anything
    with wildcards, steps or special characters."""
    names = names or {}
    values: set[int] = set()
    for part in field.split(","):
        bounds = part.split("-")
        if len(bounds) > 2:
            return None
        numbers = [_value(bound, names) for bound in bounds]
        if any(n is None or not low <= n <= high for n in numbers):
            return None
        first, last = numbers[0], numbers[-1]
        if first > last:
            return None
        values.update(range(first, last + 1))
    return sorted(values)


def _step(field: str, period: int) -> int | None:
    """N for "*/N" or "0/N" when N divides the period evenly (so it really is "every N")."""
    match = re.fullmatch(r"(?:\*|0)/(\d+)", field)
    if match is None:
        return None
    step = int(match.group(1))
    return step if 0 < step < period and period % step == 0 else None


def _times(minute: str, hour: str) -> str | None:
    minutes = _values(minute, 0, 59)
    hours = _values(hour, 0, 23)
    if not minutes or not hours or len(minutes) * len(hours) > _MAX_TIMES:
        return None
    return _join([f"{h:02d}:{m:02d}" for h in hours for m in minutes])


def _interval(minute: str, hour: str) -> str | None:
    if hour == "*":
        if minute in ("*", "*/1"):
            return _("Every minute")
        if (step := _step(minute, 60)) is not None:
            return _("Every %(n)s minutes") % {"n": step}
        minutes = _values(minute, 0, 59)
        if minutes == [0]:
            return _("Every hour")
        if minutes and len(minutes) == 1:
            return _("Every hour at :%(minute)02d") % {"minute": minutes[0]}
        return None
    minutes = _values(minute, 0, 59)
    step = 1 if hour == "*/1" else _step(hour, 24)
    if step is None or not minutes or len(minutes) != 1:
        return None
    every = _("Every hour") if step == 1 else _("Every %(n)s hours") % {"n": step}
    if minutes[0] == 0:
        return every
    return _("%(every)s at :%(minute)02d") % {"every": every, "minute": minutes[0]}


def _on_weekdays(dow: str, times: str) -> str | None:
    if match := re.fullmatch(r"(\w+)#([1-5])", dow):
        day = _value(match.group(1), _DAY_NAMES)
        if day is None or day > 7:
            return None
        return _("On the %(nth)s %(day)s of every month at %(times)s") % {
            "nth": pgettext("schedule", _NTH[int(match.group(2))]),
            "day": _weekday(day % 7),
            "times": times,
        }
    if match := re.fullmatch(r"L(\w+)", dow, flags=re.IGNORECASE):
        day = _value(match.group(1), _DAY_NAMES)
        if day is None or day > 7:
            return None
        return _("On the last %(day)s of every month at %(times)s") % {
            "day": _weekday(day % 7),
            "times": times,
        }
    days = _values(dow, 0, 7, _DAY_NAMES)
    if days is None:
        return None
    days = {d % 7 for d in days}
    if len(days) == 7:
        return _("Every day at %(times)s") % {"times": times}
    if days == {1, 2, 3, 4, 5}:
        return _("Weekdays at %(times)s") % {"times": times}
    if days == {0, 6}:
        return _("Weekends at %(times)s") % {"times": times}
    names = [_weekday(d) for d in _WEEKDAY_ORDER if d in days]
    return _("Every %(days)s at %(times)s") % {"days": _join(names), "times": times}


def _on_month_days(dom: str, month: str, times: str) -> str | None:
    if dom.upper() == "L" and month == "*":
        return _("On the last day of every month at %(times)s") % {"times": times}
    days = _values(dom, 1, 31)
    if not days:
        return None
    if month == "*":
        return _("On the %(days)s of every month at %(times)s") % {
            "days": _join([_ordinal(d) for d in days]),
            "times": times,
        }
    months = _values(month, 1, 12, _MONTH_NAMES)
    if months and len(months) == 1 and len(days) == 1:
        return _("Every year on %(day)s %(month)s at %(times)s") % {
            "day": days[0],
            "month": _month(months[0]),
            "times": times,
        }
    return None


def _sentence(minute: str, hour: str, dom: str, month: str, dow: str) -> str | None:
    dom = "*" if dom == "?" else dom
    dow = "*" if dow == "?" else dow
    if dom == month == dow == "*" and (interval := _interval(minute, hour)):
        return interval
    times = _times(minute, hour)
    if times is None:
        return None
    if dom == "*" and month == "*":
        return (
            _on_weekdays(dow, times)
            if dow != "*"
            else _("Every day at %(times)s") % {"times": times}
        )
    if dow == "*":
        return _on_month_days(dom, month, times)
    return None


def describe_schedule(cron: str, timezone: str | None = None) -> str:
    """One sentence for a cron expression (macros included), with its time zone when the
    schedule follows the local clock; "Custom schedule: <cron>" when no sentence fits."""
    typed = " ".join(str(cron or "").split())
    custom = _("Custom schedule: %(cron)s") % {"cron": typed}
    try:
        expression = normalize_cron(typed)
    except ScheduleError:
        return custom
    fields = expression.split(" ")
    sentence = None
    if len(fields) == 5 or fields[0] == "0":
        sentence = _sentence(*fields[-5:])
    if sentence is None:
        sentence = custom
    if timezone and not follows_elapsed_time(expression):
        return f"{sentence} ({timezone})"
    return sentence
