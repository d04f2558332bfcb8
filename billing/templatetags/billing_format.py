"""Billing figures in words for the console."""

from __future__ import annotations

from datetime import timedelta

from django import template
from django.utils.translation import gettext as _

from billing.limits import duration_words as _duration_words

register = template.Library()


@register.filter
def duration_words(value: timedelta) -> str:
    return _duration_words(int(value.total_seconds()))


@register.filter
def operations_words(breakdown: dict) -> str:
    """'page fetches: 2, extractions: 2 (1 from a cache)' from a charge's breakdown."""
    operations = (breakdown or {}).get("operations") or {}
    hits = (breakdown or {}).get("cache_hits") or {}
    labels = {
        "search": _("searches"),
        "page_fetch": _("page fetches"),
        "crawl": _("crawled pages"),
        "extract": _("extractions"),
    }
    parts = []
    for kind, label in labels.items():
        count = int(operations.get(kind) or 0)
        if not count:
            continue
        part = f"{label}: {count}"
        cached = int(hits.get(kind) or 0)
        if cached:
            part += " " + _("(%(count)d from a cache)") % {"count": cached}
        parts.append(part)
    return ", ".join(parts) or _("no operations")
