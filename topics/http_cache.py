"""HTTP caching for public pages: a server-side page cache for anonymous visitors, ETag
validators with 304s, and Cache-Control.

Only a visitor with no session and no pending messages gets (and fills) the shared cache: a
signed-in user sees Follow state and owner controls, and a visitor who just sent a report
sees a thank-you message — neither may end up in a page served to strangers. Cached pages
carry no CSRF token for the same reason (the anonymous Follow form does not need one, see
topics/views.py).

`public_page` (a view decorator) renders and stores; `PublicPageCacheMiddleware`, placed
right after WhiteNoise, answers hits before sessions, authentication and URL resolution run,
which is what makes a cached page nearly as cheap as a static file.

Keys hold the path and the query parameters the page reads, in one order, and nothing else:
a page is stored only when the request asked for it exactly as the view names it
(`cache_as`; by default the bare path, for pages that read no parameters). `?z=1`, `?z=2`… or
a page number in another spelling are rendered but never stored, so a stranger cannot fill
the shared cache (Redis in production) with copies, nor get a link of theirs into a page
served to everyone.
"""

from __future__ import annotations

import hashlib
from functools import wraps
from urllib.parse import parse_qsl, urlencode, urlsplit

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language, get_language_from_request

from topics import page_cache

PUBLIC_MAX_AGE = 300
_NOT_REPLAYED = {"set-cookie", "content-length"}
_CANONICAL_ATTRIBUTE = "_public_page_canonical"


def normalized_path(path: str, query_items) -> str:
    """`path` with its non-empty query parameters in one order: the cache's name for a page."""
    kept = sorted((name, value) for name, value in query_items if value != "")
    return path + (f"?{urlencode(kept)}" if kept else "")


def _request_path(request) -> str:
    return normalized_path(request.path, request.GET.items())


def cache_as(request, url: str | None) -> None:
    """Called by a public view that reads query parameters: `url` is the page as the view
    names it (path and the parameters it used, defaults left out), or None for a page not to
    store at all (a search: one entry per string typed)."""
    if url is not None:
        parts = urlsplit(url)
        url = normalized_path(parts.path, parse_qsl(parts.query, keep_blank_values=True))
    setattr(request, _CANONICAL_ATTRIBUTE, url)


def shareable(request) -> bool:
    """May this request be answered from (and fill) the cache shared by strangers?"""
    return (
        request.method in ("GET", "HEAD")
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "messages" not in request.COOKIES
    )


def _etag(key: str, content: bytes) -> str:
    return '"' + hashlib.sha256(key.encode() + content).hexdigest()[:32] + '"'


def _replay(request, entry: dict) -> HttpResponse:
    response = HttpResponse(entry["content"], status=200)
    for name, value in entry["headers"]:
        response[name] = value
    return get_conditional_response(request, etag=entry["etag"], response=response)


def public_page(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not shareable(request) or request.user.is_authenticated:
            response = view(request, *args, **kwargs)
            patch_cache_control(response, private=True, no_cache=True)
            patch_vary_headers(response, ["Cookie"])
            return response
        requested = _request_path(request)
        key = page_cache.page_key(requested, get_language() or "en")
        response = view(request, *args, **kwargs)
        if response.status_code != 200 or response.cookies:
            return response
        if getattr(request, _CANONICAL_ATTRIBUTE, request.path) != requested:
            # Not the page as the view names it: answered, never stored.
            patch_cache_control(response, public=True, max_age=PUBLIC_MAX_AGE)
            return response
        last_modified = getattr(response, "last_modified", None)
        if last_modified:
            response["Last-Modified"] = http_date(last_modified.timestamp())
        patch_cache_control(response, public=True, max_age=PUBLIC_MAX_AGE)
        patch_vary_headers(response, ["Cookie", "Accept-Language"])
        # Replayed before the locale and clickjacking middleware run: carry their headers.
        response["Content-Language"] = get_language() or "en"
        response.setdefault("X-Frame-Options", settings.X_FRAME_OPTIONS)
        response["ETag"] = _etag(key, response.content)
        entry = {
            "content": response.content,
            "etag": response["ETag"],
            "headers": [(k, v) for k, v in response.items() if k.lower() not in _NOT_REPLAYED],
        }
        cache.set(key, entry, page_cache.PAGE_TTL_SECONDS)
        return get_conditional_response(request, etag=entry["etag"], response=response)

    return wrapper


API_PREFIX = "/api/"


class PublicPageCacheMiddleware:
    """Answers anonymous requests for public pages already in the cache."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # The JSON API is never stored here (no API view is a `public_page`): its requests,
        # token-signed without a session cookie, skip the two cache reads of a lookup.
        if shareable(request) and not request.path_info.startswith(API_PREFIX):
            language = get_language_from_request(request)
            entry = cache.get(page_cache.page_key(_request_path(request), language))
            if entry is not None:
                return _replay(request, entry)
        return self.get_response(request)
