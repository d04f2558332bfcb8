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

from datetime import date, datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import template
from django.utils import formats, timezone
from django.utils.html import format_html

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


def moment(value: datetime, zone: str | tzinfo | None = None, *, style: str = "short") -> str:
    """`value` in `zone` (default: the active zone), e.g. "20 Nov 2026, 09:00 CET"."""
    local = timezone.localtime(value, _zone(zone))
    return f"{formats.date_format(local, _STYLES[style])} {zone_label(local)}"


def day(value: date, *, style: str = "short") -> str:
    """A calendar date, e.g. "20 Nov 2026" or "Friday, 20 November 2026"."""
    return formats.date_format(value, _DAY_STYLES[style])


def _time_element(value, zone, style: str):
    if not isinstance(value, datetime):
        return ""
    tz = _zone(zone)
    return format_html(
        '<time datetime="{}" title="{}">{}</time>',
        timezone.localtime(value, tz).isoformat(),
        str(getattr(tz, "key", tz)),
        moment(value, tz, style=style),
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
