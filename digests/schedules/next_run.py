"""The one place that computes when a subscription runs next.

Cron semantics (SPEC §5): 5 fields, or 6 with seconds first; macros; `L`, `#`, ranges and steps.
DST: a fixed wall-clock schedule fires once per local match — a time skipped by spring-forward
fires at the first valid instant after it; a time repeated by fall-back fires once (the first).
Schedules whose hour field is a wildcard or step (`*/15 * * * *`, `0 */2 * * *`) follow real
elapsed time instead: they also fire during a repeated hour, and a time skipped by spring-forward
fires as long after the previous fire as it would have without the jump (so a 30-minute shift,
as on Lord Howe Island, loses no slot either).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from croniter import CroniterBadDateError, CroniterError, croniter
from django.utils.translation import gettext as _

MACROS = {
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
    "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@hourly": "0 * * * *",
}
# `localtime` is the host's own zone (a link to /etc/localtime), not an IANA name: a schedule in
# it would change meaning from one machine to the next.
_ALL_ZONES = frozenset(available_timezones()) - {"localtime"}
# The largest DST shift in use (Antarctica/Troll, 2 h; most zones shift 1 h, Lord Howe 30 min).
_MAX_DST_SHIFT = timedelta(hours=2)


class ScheduleError(ValueError):
    """`code`: `invalid` (a field's form), or `invalid_combination` for an expression whose
    fields are each valid but name no calendar date together (30 February): HTTP 422."""

    def __init__(self, field: str, message: str, code: str = "invalid"):
        super().__init__(message)
        self.field = field
        self.message = message
        self.code = code


def validate_timezone(name: str) -> ZoneInfo:
    # Exact names only: callers store what they validated, so "UTC " must not pass as "UTC".
    if isinstance(name, str) and name != name.strip() and name.strip() in _ALL_ZONES:
        raise ScheduleError(
            "timezone",
            _("%(name)s has spaces around it; the time zone is %(stripped)s.")
            % {"name": repr(name), "stripped": repr(name.strip())},
        )
    if not isinstance(name, str) or name not in _ALL_ZONES:
        raise ScheduleError(
            "timezone",
            _("%(name)s is not an IANA time zone name (for example Europe/Berlin).")
            % {"name": repr(name or "(empty)")},
        )
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ScheduleError(
            "timezone", _("%(name)s is not an IANA time zone name.") % {"name": repr(name)}
        ) from None


def normalize_cron(expression: str) -> str:
    """Return the expression with macros expanded; raise ScheduleError saying why it is bad."""
    if isinstance(expression, str) and expression in _VALID:
        return _VALID[expression]
    normalized = _normalize_cron(expression)
    if len(_VALID) < 4096:  # the tick meets the same few expressions over and over
        _VALID[expression] = normalized
    return normalized


# Expressions already validated (validating runs croniter: half the cost of a next-run time).
_VALID: dict[str, str] = {}


def _normalize_cron(expression: str) -> str:
    if expression is not None and not isinstance(expression, str):
        raise ScheduleError("cron", _("A cron expression must be text, e.g. '0 8 * * *'."))
    expression = " ".join((expression or "").split())
    if not expression:
        raise ScheduleError("cron", _("A cron expression is required, e.g. '0 8 * * *'."))
    lowered = expression.lower()
    if lowered.startswith("@"):
        if lowered not in MACROS:
            raise ScheduleError(
                "cron",
                _("Unknown macro %(macro)s; use one of %(choices)s.")
                % {"macro": repr(expression), "choices": ", ".join(sorted(MACROS))},
            )
        return MACROS[lowered]
    fields = expression.split(" ")
    if len(fields) not in (5, 6):
        raise ScheduleError(
            "cron",
            _(
                "A cron expression has 5 fields (minute hour day month weekday) or 6 with "
                "seconds first; %(expression)s has %(count)s."
            )
            % {"expression": repr(expression), "count": len(fields)},
        )
    if not _fires(fields):
        raise ScheduleError("cron", _bad_field_message(expression, fields))
    try:
        _first_fire(fields)
    except CroniterBadDateError:
        raise ScheduleError(
            "cron",
            _("%(expression)s never fires: no calendar date matches it (e.g. 30 February).")
            % {"expression": repr(expression)},
            code="invalid_combination",
        ) from None
    return expression


def _first_fire(fields: list[str]) -> datetime:
    return croniter(
        " ".join(fields), datetime(2026, 1, 1, tzinfo=UTC), second_at_beginning=len(fields) == 6
    ).get_next(datetime)


def _fires(fields: list[str]) -> bool:
    """Whether croniter accepts the fields (an expression that never fires is accepted)."""
    try:
        _first_fire(fields)
    except CroniterBadDateError:
        return True
    except (CroniterError, ValueError, KeyError, IndexError):
        return False
    return True


def _field_rules() -> list[tuple[str, str]]:
    """(name, what it takes) of the five fields, in the active language."""
    return [
        (_("minute"), _("0 to 59")),
        (_("hour"), _("0 to 23")),
        (_("day of the month"), _("1 to 31, or L for the last day")),
        (_("month"), _("1 to 12, or JAN to DEC")),
        (
            _("day of the week"),
            _(
                "0 to 7 (0 and 7 are Sunday) or SUN to SAT, with # for the nth (FRI#2) and "
                "L for the last (L5)"
            ),
        ),
    ]


def _bad_field_message(expression: str, fields: list[str]) -> str:
    """Our own words for a refused expression: which field, what it holds, what it takes. A
    field is tried alone, every other field '*', so the first field that fails is named."""
    rules = _field_rules()
    if len(fields) == 6:
        rules = [(_("seconds"), _("0 to 59")), *rules]
    for index, value in enumerate(fields):
        alone = ["*"] * len(fields)
        alone[index] = value
        if not _fires(alone):
            name, takes = rules[index]
            return _(
                "%(expression)s: the %(field)s field cannot be %(value)s. It takes %(takes)s; "
                "every field also takes * for any, lists (1,15), ranges (1-5) and steps (*/15)."
            ) % {"expression": repr(expression), "field": name, "value": value, "takes": takes}
    return _(
        "%(expression)s is not a valid cron expression: check the fields together (minute "
        "hour day-of-month month day-of-week)."
    ) % {"expression": repr(expression)}


def _hour_field(expression: str) -> str:
    fields = expression.split(" ")
    return fields[2] if len(fields) == 6 else fields[1]


def follows_elapsed_time(expression: str) -> bool:
    hour = _hour_field(expression)
    return "*" in hour or "/" in hour


def _first_instant_at_or_after(wall: datetime, zone: ZoneInfo) -> datetime:
    """For a wall-clock time skipped by a DST gap: the first real instant whose local time is
    later, i.e. the moment the clocks jumped."""
    low = wall.replace(tzinfo=zone, fold=1).astimezone(UTC)
    high = wall.replace(tzinfo=zone, fold=0).astimezone(UTC)
    low, high = min(low, high), max(low, high)
    while high - low > timedelta(seconds=1):
        middle = low + (high - low) / 2
        if middle.astimezone(zone).replace(tzinfo=None) >= wall:
            high = middle
        else:
            low = middle
    return high.replace(microsecond=0)


def _is_nonexistent(wall: datetime, zone: ZoneInfo) -> bool:
    aware = wall.replace(tzinfo=zone)
    return aware.astimezone(UTC).astimezone(zone).replace(tzinfo=None) != wall


def _elapsed_instants(wall: datetime, zone: ZoneInfo) -> set[datetime]:
    """Every real instant at which the clock reads `wall`: two in a repeated hour; for a time
    skipped by spring-forward, the instant it would have been had the clock not jumped (fold=0
    keeps the old offset), so the time since the previous fire is real elapsed time."""
    first = wall.replace(tzinfo=zone, fold=0).astimezone(UTC)
    if _is_nonexistent(wall, zone):
        return {first}
    return {first, wall.replace(tzinfo=zone, fold=1).astimezone(UTC)}


def _offset(instant: datetime, zone: ZoneInfo) -> timedelta:
    return instant.astimezone(zone).utcoffset()


def _next_elapsed(
    expression: str, zone: ZoneInfo, after: datetime, seconds_first: bool
) -> datetime:
    """Iterate naive wall times (croniter's own DST handling assumes 1-hour shifts), starting
    from the earliest wall time a later instant can stand for: inside the first pass of a repeated
    hour, the second pass shows earlier wall times again; just after spring-forward, a skipped
    wall time can still be due."""
    after = after.astimezone(UTC)
    start = after.replace(tzinfo=None) + min(
        _offset(after + shift, zone) for shift in (-_MAX_DST_SHIFT, timedelta(0), _MAX_DST_SHIFT)
    )
    iterator = croniter(expression, start, second_at_beginning=seconds_first)
    best: datetime | None = None
    horizon: datetime | None = None
    while True:
        wall = iterator.get_next(datetime)
        if horizon is not None and wall > horizon:
            return best
        for instant in _elapsed_instants(wall, zone):
            if instant > after and (best is None or instant < best):
                best = instant
                # Near a transition a later wall time can map to an earlier instant; past
                # `horizon` none can.
                horizon = wall + abs(_offset(best, zone) - _offset(best - _MAX_DST_SHIFT, zone))


def next_run_after(expression: str, timezone_name: str, after: datetime) -> datetime:
    """The first fire time strictly after `after` (aware), returned in UTC."""
    expression = normalize_cron(expression)
    zone = validate_timezone(timezone_name)
    seconds_first = len(expression.split(" ")) == 6
    if after.tzinfo is None:
        raise ValueError("`after` must be timezone-aware")
    if follows_elapsed_time(expression):
        return _next_elapsed(expression, zone, after, seconds_first)
    # Wall-clock schedules iterate over naive local times, so a repeated hour is seen once.
    local_after = after.astimezone(zone)
    iterator = croniter(
        expression, local_after.replace(tzinfo=None), second_at_beginning=seconds_first
    )
    while True:
        wall = iterator.get_next(datetime)
        if _is_nonexistent(wall, zone):
            fire = _first_instant_at_or_after(wall, zone)
        else:
            fire = wall.replace(tzinfo=zone, fold=0).astimezone(UTC)
        if fire > after:
            return fire


def next_runs(expression: str, timezone_name: str, after: datetime, count: int) -> list[datetime]:
    runs: list[datetime] = []
    cursor = after
    for _position in range(count):
        cursor = next_run_after(expression, timezone_name, cursor)
        runs.append(cursor)
    return runs


def next_due_after_run(
    expression: str, timezone_name: str, scheduled_at: datetime, now: datetime
) -> datetime:
    """Next run after a run scheduled at `scheduled_at`, computed from that scheduled time (not
    from `now`); after downtime, missed slots are skipped so a missed schedule runs once."""
    upcoming = next_run_after(expression, timezone_name, scheduled_at)
    if upcoming <= now:
        upcoming = next_run_after(expression, timezone_name, now)
    return upcoming
