"""`Cache-Control: private, no-store` on every answer to a signed-in user.

An answer to a signed-in browser or API token (the Inbox, a run, credits, tokens, the API)
is that user's alone: a shared cache (a proxy, a CDN) must not keep it, and a browser need not
either (the back button on a shared computer). Django's `Vary: Cookie` alone allows a shared
cache to store it. One rule, here, rather than a decorator per view that a new view forgets:
whatever a view set (a public page's `public, max-age`) is replaced when the request was
authenticated — by session, or by an API token (DRF sets the user on the Django request).

The API's answers are `private, no-cache` instead: they carry an ETag that the client sends
back in `If-None-Match` for a 304 (config/api/middleware.py), so the client may keep them but
must ask again each time, and still no shared cache may.
"""

from __future__ import annotations

from config.api.errors import API_PREFIX

PRIVATE = "private, no-store"
PRIVATE_REVALIDATED = "private, no-cache"
# The reading apps' protocols (inbox/readerapi) authenticate with app passwords of their own:
# every answer there is one reader's (ClientLogin's carries the password itself).
READING_APP_PREFIXES = ("/api/greader/", "/api/fever/")


class PrivateCacheControlMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if request.path.startswith(READING_APP_PREFIXES):
            response["Cache-Control"] = PRIVATE
            del response["ETag"]
            del response["Last-Modified"]
        elif user is not None and user.is_authenticated:
            if request.path.startswith(API_PREFIX):
                response["Cache-Control"] = PRIVATE_REVALIDATED
                return response
            response["Cache-Control"] = PRIVATE
            # No validators: a no-store answer is never revalidated, and an ETag computed
            # from one user's page is nothing another request should echo.
            del response["ETag"]
            del response["Last-Modified"]
        return response
