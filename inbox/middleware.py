"""The signed-in user's preferences on every request: their chosen UI language (when they chose
one) is activated, and `request.preference` carries their time zone for the pages to show
times in (templates wrap their content in `{% timezone %}`; the API keeps answering in UTC)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation

from inbox import auth_throttle, page_cache
from inbox.models import UserPreference


class UserPreferenceMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        page_cache.request_started()
        request.preference = None
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            preference = _preference_of(user)
            request.preference = preference
            if preference and preference.locale_mode == UserPreference.LocaleMode.MANUAL:
                translation.activate(preference.ui_locale)
                request.LANGUAGE_CODE = preference.ui_locale
        return self.get_response(request)


def _preference_of(user) -> UserPreference | None:
    """The user's preferences: read with the user when the session's user was loaded
    (inbox.auth_backends.EmailBackend.get_user), else one query."""
    if get_user_model().preference.is_cached(user):
        try:
            return user.preference
        except UserPreference.DoesNotExist:
            return None
    return (
        UserPreference.objects.filter(user=user)
        .only("ui_locale", "locale_mode", "timezone", "inbox_version")
        .first()
    )


class AuthThrottleMiddleware:
    """The answer to an attempt the authentication throttle refused is 429 with Retry-After,
    whichever surface it came through (console or admin login, password reset); a successful
    login marks the browser as known to that account (see inbox/auth_throttle.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        refusal = getattr(request, auth_throttle.REQUEST_ATTRIBUTE, None)
        if refusal is not None:
            if response.status_code == 200:
                response.status_code = 429
                response.reason_phrase = "Too Many Requests"
            response["Retry-After"] = str(refusal.retry_after)
        account = getattr(request, "auth_throttle_known_account", None)
        if account:
            response.set_cookie(
                auth_throttle.KNOWN_BROWSER_COOKIE,
                auth_throttle.known_browser_cookie_value(request, account),
                max_age=auth_throttle.KNOWN_BROWSER_MAX_AGE,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response
