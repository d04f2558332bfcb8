"""A schedule said in words ("weekdays at 7:30", "every monday and thursday at 6pm", "every 6
hours") as a cron expression; a cron expression or macro is taken as it is.

For callers that speak rather than fill in a form (the MCP tools, docs/assistants.md). Only
English phrases with one clear meaning are read; anything else is refused with examples, never
guessed. `words.describe_schedule` is the way back (cron → words).
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

from digests.schedules.next_run import ScheduleError, normalize_cron

DEFAULT_TIME = (8, 0)
_DAYS = {
    "sunday": 0, "sun": 0, "monday": 1, "mon": 1, "tuesday": 2, "tue": 2, "tues": 2,
    "wednesday": 3, "wed": 3, "thursday": 4, "thu": 4, "thur": 4, "thurs": 4,
    "friday": 5, "fri": 5, "saturday": 6, "sat": 6,
}  # fmt: skip
_TIME = re.compile(
    r"\b(?:at\s+)?(?:(noon|midday|midnight)|(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?)\s*$"
)
_EVERY_HOURS = re.compile(r"^every\s+(\d{1,2})\s+hours?$")
_MONTHLY = re.compile(r"^(?:monthly|every\s+month)(?:\s+on\s+the\s+(\d{1,2})(?:st|nd|rd|th)?)?$")


def _refusal(text: str) -> ScheduleError:
    return ScheduleError(
        "schedule",
        _(
            "Not a schedule I can read: %(text)s. Say e.g. 'daily at 8am', 'weekdays at 7:30', "
            "'mondays and thursdays at 18:00', 'every 6 hours', 'monthly on the 1st at 9', or "
            "give a cron expression like '0 8 * * 1-5'."
        )
        % {"text": repr(text[:80])},
    )


def _split_time(text: str) -> tuple[str, tuple[int, int] | None]:
    match = _TIME.search(text)
    if not match or match.start() == 0:
        # A time needs words before it saying which days ("daily at 8"): "8" alone is refused.
        return text, None
    word, hour, minute, half = match.groups()
    if word:
        clock = (0, 0) if word == "midnight" else (12, 0)
    else:
        h, m = int(hour), int(minute or 0)
        if half:
            if not 1 <= h <= 12:
                raise ScheduleError(
                    "schedule", _("%(hour)s is not an hour of a 12-hour clock.") % {"hour": h}
                )
            h = h % 12 + (12 if half.startswith("p") else 0)
        if h > 23 or m > 59:
            raise ScheduleError(
                "schedule", _("%(time)s is not a time of day.") % {"time": match.group(0).strip()}
            )
        clock = (h, m)
    return text[: match.start()].strip(" ,"), clock


def _days(text: str) -> str | None:
    text = re.sub(r"^(every|on|each|weekly\s+on)\s+", "", text)
    if text in ("day", "daily", "every day", "each day", ""):
        return "*"
    if text in ("weekday", "weekdays", "workday", "workdays", "monday to friday", "mon-fri"):
        return "1-5"
    if text in ("weekend", "weekends", "saturday and sunday"):
        return "0,6"
    if text == "weekly":
        return "1"
    names = [part for part in re.split(r"\s*(?:,|\band\b|&)\s*", text) if part]
    numbers = []
    for name in names:
        name = name.removesuffix("s") if name.rstrip("s") in _DAYS else name
        if name not in _DAYS:
            return None
        numbers.append(_DAYS[name])
    return ",".join(str(n) for n in sorted(set(numbers))) if numbers else None


def cron_from_words(text: str) -> str:
    """The cron expression `text` says; raises ScheduleError (field `schedule`) otherwise."""
    phrase = " ".join(str(text or "").strip().lower().split())
    if not phrase:
        raise ScheduleError("schedule", _("Say when: e.g. 'weekdays at 7:30' or '0 8 * * 1-5'."))
    if len(phrase) > 120:
        raise ScheduleError("schedule", _("At most %(count)s characters.") % {"count": 120})
    if (
        (phrase[0].isdigit() and len(phrase.split()) == 5)
        or phrase.startswith("@")
        or "*" in phrase
    ):
        try:
            return normalize_cron(phrase)
        except ScheduleError as exc:
            raise ScheduleError("schedule", exc.message) from None
    if phrase in ("hourly", "every hour"):
        return "0 * * * *"
    if match := _EVERY_HOURS.match(phrase):
        hours = int(match.group(1))
        if not 1 <= hours <= 23:
            raise _refusal(text)
        return f"0 */{hours} * * *"
    if phrase in ("twice a day", "twice daily"):
        return "0 8,18 * * *"
    rest, clock = _split_time(phrase)
    hour, minute = clock or DEFAULT_TIME
    if match := _MONTHLY.match(rest):
        day = int(match.group(1) or 1)
        if not 1 <= day <= 28:
            raise ScheduleError(
                "schedule", _("A monthly day is from 1 to 28 (every month has it).")
            )
        return f"{minute} {hour} {day} * *"
    days = _days(rest)
    if days is None:
        raise _refusal(text)
    return f"{minute} {hour} * * {days}"
