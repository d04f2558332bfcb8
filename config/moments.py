"""Dates and times as people read them, one way everywhere: the active language's short or long
format (config/formats/<language>/formats.py) and, for a time, always its time zone — the
zone of what the time is about (a subscription's, a topic's) where there is one, else the
reader's (the active zone, set from their preferences by templates/base.html).

Python code calls `moment()` and `day()`; templates `{% load moments %}` (registered in
TEMPLATES' libraries) and use the filters, which wrap the text in a <time> element:

    {{ run.scheduled_at|moment:subscription.timezone }}   20 Nov 2026, 08:00 CET
    {{ value|moment_long }}                                Friday, 20 November 2026, 08:00 UTC
    {{ edition.edition_date|day }}                         20 Nov 2026
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, tzinfo
from functools import lru_cache
from html import escape
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import template
from django.utils import formats, timezone, translation
from django.utils.dateformat import DateFormat, re_escaped, re_formatchars
from django.utils.dates import MONTHS, MONTHS_3, WEEKDAYS
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

_STYLES = {"short": "SHORT_DATETIME_FORMAT", "long": "DATETIME_FORMAT"}
_DAY_STYLES = {"short": "SHORT_DATE_FORMAT", "long": "DATE_FORMAT"}


def _zone(zone: str | tzinfo | None) -> tzinfo:
    if zone is None or zone == "":
        return timezone.get_current_timezone()
    if isinstance(zone, tzinfo):
        return zone
    try:
        return ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        return timezone.get_current_timezone()


def zone_label(local: datetime) -> str:
    """The zone's abbreviation when it has a real one (CET, JST, UTC), else its offset
    (UTC+05:30): some zones' abbreviations are just "+03"."""
    name = local.tzname() or ""
    if name.isalpha():
        return name
    offset = local.utcoffset()
    if offset is None:
        return "UTC"
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{rest:02d}"


# The format characters our format modules use, written without django.utils.dateformat's
# per-call work (a regular expression over the format, a lazy translation per month name):
# an Inbox page shows 30 times, and through date_format they were a fifth of its render.
# Anything else goes through DateFormat; tests/config/test_moments.py holds both to the same
# text for every format in every language.
_FAST: dict[str, Callable[[datetime], str]] = {
    "j": lambda local: str(local.day),
    "n": lambda local: str(local.month),
    "Y": lambda local: "%04d" % local.year,  # noqa: UP031 - as DateFormat.Y writes it
    "H": lambda local: "%02d" % local.hour,  # noqa: UP031
    "i": lambda local: "%02d" % local.minute,  # noqa: UP031
}
_NAMED = {
    "M": lambda local, names: names["M"][local.month],
    "F": lambda local, names: names["F"][local.month],
    "l": lambda local, names: names["l"][local.weekday()],
}


@lru_cache(maxsize=32)
def _pieces(format_string: str) -> tuple[tuple[bool, str], ...]:
    """The format split as DateFormat splits it: (True, a format character) or (False, text)."""
    pieces = []
    for index, piece in enumerate(re_formatchars.split(format_string)):
        if index % 2:
            pieces.append((True, piece))
        elif piece:
            pieces.append((False, re_escaped.sub(r"\1", piece)))
    return tuple(pieces)


@lru_cache(maxsize=16)
def _names(language: str | None) -> dict[str, dict[int, str]]:
    """Month and weekday names in `language`, translated once (DateFormat's M, F and l)."""
    with translation.override(language):
        return {
            "M": {number: str(name).title() for number, name in MONTHS_3.items()},
            "F": {number: str(name) for number, name in MONTHS.items()},
            "l": {number: str(name) for number, name in WEEKDAYS.items()},
        }


def _date_format(local: datetime, format_name: str) -> str:
    """formats.date_format(local, format_name), faster for the characters above."""
    language = translation.get_language()
    texts = []
    slow = None
    for is_character, piece in _pieces(str(formats.get_format(format_name, language))):
        if not is_character:
            texts.append(piece)
        elif piece in _FAST:
            texts.append(_FAST[piece](local))
        elif piece in _NAMED:
            texts.append(_NAMED[piece](local, _names(language)))
        else:
            slow = slow or DateFormat(local)
            texts.append(str(getattr(slow, piece)()))
    return "".join(texts)


def moment(value: datetime, zone: str | tzinfo | None = None, *, style: str = "short") -> str:
    """`value` in `zone` (default: the active zone), e.g. "20 Nov 2026, 09:00 CET"."""
    local = timezone.localtime(value, _zone(zone))
    return f"{_date_format(local, _STYLES[style])} {zone_label(local)}"


def day(value: date, *, style: str = "short") -> str:
    """A calendar date, e.g. "20 Nov 2026" or "Friday, 20 November 2026"."""
    return formats.date_format(value, _DAY_STYLES[style])


def _time_element(value, zone, style: str) -> SafeString | str:
    if not isinstance(value, datetime):
        return ""
    tz = _zone(zone)
    local = timezone.localtime(value, tz)
    text = f"{_date_format(local, _STYLES[style])} {zone_label(local)}"
    # Every part escaped: format_html's own per-argument work was a third of this call.
    return mark_safe(  # every part escaped
        f'<time datetime="{escape(local.isoformat())}" '
        f'title="{escape(str(getattr(tz, "key", tz)))}">{escape(text)}</time>'
    )


@register.filter(name="moment")
def moment_filter(value, zone=None):
    return _time_element(value, zone, "short")


@register.filter
def moment_long(value, zone=None):
    return _time_element(value, zone, "long")


@register.filter(name="day")
def day_filter(value):
    if not isinstance(value, date):
        return ""
    return format_html('<time datetime="{}">{}</time>', value.isoformat()[:10], day(value))


@register.filter
def day_long(value):
    if not isinstance(value, date):
        return ""
    return format_html(
        '<time datetime="{}">{}</time>', value.isoformat()[:10], day(value, style="long")
    )


@register.filter
def moment_text(value, zone=None):
    """The same text without the element: for a page title or an attribute."""
    return moment(value, zone) if isinstance(value, datetime) else ""


@register.filter
def day_text(value, style="long"):
    """A calendar date as text, without the element: for plain-text email, titles, attributes."""
    return day(value, style=style) if isinstance(value, date) else ""
