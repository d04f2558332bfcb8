"""The nav's unread and saved counts, computed once per request and only when a page shows
them (kept in the cache under the user's Inbox version: inbox.page_cache.cached_badge_counts)."""

from __future__ import annotations

from django import template

from inbox.listing import Badges, badge_counts
from inbox.page_cache import cached_badge_counts

register = template.Library()


@register.simple_tag(takes_context=True)
def inbox_badges(context) -> Badges | None:
    if context.get("badges") is not None:
        return context["badges"]
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    if getattr(request, "_inbox_badges", None) is None:
        request._inbox_badges = cached_badge_counts(request, lambda: badge_counts(user))
    return request._inbox_badges
