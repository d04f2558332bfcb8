"""Filters for Inbox items."""

from __future__ import annotations

from django import template

from digests.narrative import reasons
from inbox.page_cache import ago_marker

register = template.Library()


@register.filter
def ago(when):
    """ "3 hours ago", filled in per request (inbox.page_cache.fill), so a cached page's
    relative times are as of the request, not of the render."""
    return ago_marker(when)


@register.filter
def why_selected(run_item) -> str:
    """Why a delivered item was selected, in the active language (digests.narrative.reasons)."""
    return reasons.why_selected(run_item)
