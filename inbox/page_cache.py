"""The signed-in Inbox page, cached per user while nothing it shows has changed.

Rendering the Inbox (30 items through the template engine) is most of its cost; what it shows
changes only when a run delivers to the user, the user acts on an item, or the user's
subscriptions change. So the rendered page is kept in the cache under a key made of:

- the user's `inbox_version` (inbox.models.UserPreference), bumped by `inbox_changed()` in the
  same transaction as every delivery (digests.runs.runner), every item action (inbox.states) and
  every subscription created, changed or deleted (digests.subscriptions.service: the filter and the
  items show subscriptions by name) — a database counter read with the preferences every
  request loads anyway, so a change can never be missed the way a lost cache write could;
- the language, the time zone and the full path (filters, cursor).

The JSON API's Inbox list (`GET /api/v1/inbox/items`) keeps its pages the same way
(`cached_api_page`): the page's items and cursor, under the same version, the language, the
active time zone and the query string — the version read with the token in the one query that
authenticates it (inbox.tokens), or with the preferences for a session. An assistant's Inbox
search over MCP keeps its answers the same way (`cached_tool_page`), under its arguments.

Two things differ per request and are left as markers in the cached copy, filled in on the
way out (`fill()`): the CSRF token (`CSRF_MARKER` is rendered where `{% csrf_token %}` goes)
and relative times ("3 hours ago"), rendered by the `ago` filter as a marker holding the
instant. A page with messages to show, or a refused filter, is never cached.

The nav's unread and saved counts, shown on every signed-in page, are kept the same way
(`cached_badge_counts`): under the user's id and Inbox version, so the first page after a
change counts again and the pages after it (another tab of the Inbox, the subscriptions, the
preferences) read two numbers from the cache instead of aggregating the user's states.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import TypeVar

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.utils import timezone, translation
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

from inbox.models import UserPreference

T = TypeVar("T")

# Private-use characters: never in our own markup, and harmless if a title contains them.
CSRF_MARKER = "\ue000csrf\ue001"
_AGO = re.compile("\ue000ago:(-?\\d+)\ue001")


def inbox_changed(user_id: int) -> None:
    """What the user's Inbox shows has changed (a delivery, an item action): call inside the
    transaction that makes the change."""
    UserPreference.objects.filter(user_id=user_id).update(inbox_version=F("inbox_version") + 1)
    _changed_now().add(user_id)


# Users whose Inbox changed during the current request (after its preferences, and so the
# version, were read): their nav counts are counted, not taken from the version read before.
_this_request = threading.local()


def _changed_now() -> set[int]:
    changed = getattr(_this_request, "changed", None)
    if changed is None:
        changed = _this_request.changed = set()
    return changed


def request_started() -> None:
    """A new request: nothing has changed in it yet (inbox.middleware.UserPreferenceMiddleware)."""
    _this_request.changed = set()


def ago_marker(when: datetime | None) -> str:
    return "" if when is None else f"\ue000ago:{int(when.timestamp())}\ue001"


def fill(html: str, request: HttpRequest, *, now: datetime | None = None) -> str:
    """The per-request parts: relative times as of now, in the active language, and this
    request's CSRF token."""
    now = now or timezone.now()

    language = translation.get_language() or ""
    stamp = int(now.timestamp())

    def ago(match: re.Match) -> str:
        # Whole minutes are all timesince() shows: the text is shared by every item (and
        # every request) of the same age in minutes.
        return _ago_text(language, (stamp - int(match.group(1))) // 60)

    html = _AGO.sub(ago, html)
    if CSRF_MARKER in html:
        html = html.replace(CSRF_MARKER, get_token(request))
    return html


@lru_cache(maxsize=8192)
def _ago_text(language: str, minutes: int) -> str:
    now = datetime(2000, 1, 1, tzinfo=UTC)
    with translation.override(language):
        return _("%(when)s ago") % {"when": timesince(now - timedelta(minutes=minutes), now)}


def render_page(request: HttpRequest, template: str, context: dict, *, status: int = 200):
    """`render()` for pages that include Inbox items (their markers filled in)."""
    response = render(request, template, {**context, "csrf_token": CSRF_MARKER}, status=status)
    response.content = fill(response.content.decode(), request)
    return response


def _key(kind: str, user_id: int, version: int, zone: str, path: str) -> str:
    """The cache key of one user's page: it changes with their Inbox (`version`), time zone,
    language and the page's path and query."""
    parts = [str(user_id), str(version), zone, translation.get_language() or "", path]
    digest = hashlib.sha256("\n".join(parts).encode()).hexdigest()
    return f"{kind}:{user_id}:{digest}"


def _page_key(request: HttpRequest) -> str:
    preference = getattr(request, "preference", None)
    version = preference.inbox_version if preference else 0
    zone = preference.timezone if preference else "UTC"
    return _key("inbox-page", request.user.pk, version, zone, request.get_full_path())


def cached_page(request: HttpRequest, build: Callable[[], tuple[str, dict, bool]]) -> HttpResponse:
    """The page `build()` describes — (template, context, cacheable) — from the cache when
    the user's Inbox has not changed since it was rendered. With INBOX_PAGE_CACHE_SECONDS at 0
    the cache is neither written nor read: a page stored before the setting changed is never
    served."""
    usable = (
        settings.INBOX_PAGE_CACHE_SECONDS > 0
        and request.method == "GET"
        and not len(messages.get_messages(request))
    )
    key = _page_key(request) if usable else ""
    html = cache.get(key) if usable else None
    if html is None:
        template, context, cacheable = build()
        response = render(request, template, {**context, "csrf_token": CSRF_MARKER})
        html = response.content.decode()
        if usable and cacheable:
            cache.set(key, html, timeout=settings.INBOX_PAGE_CACHE_SECONDS)
    else:
        response = HttpResponse(content_type="text/html; charset=utf-8")
    response.content = fill(html, request)
    return response


def _known_preference(request) -> UserPreference | None:
    """The user's preferences as this request already read them (the session's middleware, or
    the token's query), without a query of its own; None when not read or absent."""
    preference = getattr(getattr(request, "_request", request), "preference", None)
    if preference is not None:
        return preference
    return _preference_read_with(request.user)


def _preference_read_with(user) -> UserPreference | None:
    """The preferences loaded with `user` (the token's query selects them), or None."""
    descriptor = getattr(type(user), "preference", None)
    if descriptor is None or not descriptor.is_cached(user):
        return None
    try:
        return user.preference
    except UserPreference.DoesNotExist:
        return None


def _kept_list_page(
    user, preference, kind: str, zone: str, query: str, build: Callable[[], T]
) -> T:
    if settings.INBOX_PAGE_CACHE_SECONDS <= 0 or preference is None:
        return build()
    key = _key(kind, user.pk, preference.inbox_version, zone, query)
    page = cache.get(key)
    if page is None:
        page = build()
        cache.set(key, page, timeout=settings.INBOX_PAGE_CACHE_SECONDS)
    return page


def cached_api_page(request, build: Callable[[], T], *, cacheable: bool = True) -> T:
    """What `build()` returns for this API request (a page of the Inbox list: plain data, no
    URL in it), from the cache while the user's Inbox has not changed since it was built. Not
    cached when INBOX_PAGE_CACHE_SECONDS is 0, when `cacheable` is false, or when the
    preferences (and so the version) were not read with the authentication."""
    preference = _known_preference(request) if cacheable else None
    zone = timezone.get_current_timezone_name()
    query = request.META.get("QUERY_STRING", "")
    return _kept_list_page(request.user, preference, "inbox-api", zone, query, build)


def cached_tool_page(user, query: str, build: Callable[[], T], *, cacheable: bool = True) -> T:
    """The same for an assistant's Inbox search (inbox/assistants/tools/inbox.py): `query` is
    the call's arguments, written the same way each time. The version is the one read with the
    token, so a caller that keeps its user longer than a request (stdio) is not `cacheable`."""
    preference = _preference_read_with(user) if cacheable else None
    zone = timezone.get_current_timezone_name()
    return _kept_list_page(user, preference, "inbox-tool", zone, query, build)


def cached_badge_counts(request, count: Callable[[], T]) -> T:
    """The signed-in user's nav counts (`count()`: inbox.listing.badge_counts), from the cache
    while their Inbox version is the one the counts were made under. Counted every time when
    INBOX_COUNTS_CACHE_SECONDS is 0 or the preferences were not read with the request."""
    user = request.user
    preference = _known_preference(request)
    # A page that changed the Inbox itself (the reader marks its item read) counts afresh.
    if settings.INBOX_COUNTS_CACHE_SECONDS <= 0 or preference is None or user.pk in _changed_now():
        return count()
    key = f"inbox-badges:{user.pk}:{preference.inbox_version}"
    counts = cache.get(key)
    if counts is None:
        counts = count()
        cache.set(key, counts, timeout=settings.INBOX_COUNTS_CACHE_SECONDS)
    return counts
