from __future__ import annotations

from django import template
from django.utils.html import format_html

from digests.schedules.words import describe_schedule

register = template.Library()


@register.filter
def schedule_words(subscription) -> str:
    """A subscription's cron schedule in plain words; empty for a one-off run."""
    if not subscription.cron:
        return ""
    sentence = describe_schedule(subscription.cron, subscription.timezone)
    zone = f" ({subscription.timezone})"
    if not sentence.endswith(zone):
        return sentence
    # The zone is one unit: a narrow table cell wraps before it, never inside
    # "(Europe/Berlin)".
    return format_html(
        '{} <span class="zone">({})</span>', sentence.removesuffix(zone), subscription.timezone
    )


@register.filter
def cron_words(cron: str) -> str:
    """A bare cron expression in plain words (no time zone: e.g. a template's schedule)."""
    return describe_schedule(cron)
