"""The signed-in user's preferences on every request: their chosen UI language (when they chose
one) is activated, and `request.preference` carries their time zone for the pages to show
times in (templates wrap their content in `{% timezone %}`; the API keeps answering in UTC)."""

from __future__ import annotations

from django.utils import translation

from inbox.models import UserPreference


class UserPreferenceMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.preference = None
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            preference = (
                UserPreference.objects.filter(user=user)
                .only("ui_locale", "locale_mode", "timezone", "inbox_version")
                .first()
            )
            request.preference = preference
            if preference and preference.locale_mode == UserPreference.LocaleMode.MANUAL:
                translation.activate(preference.ui_locale)
                request.LANGUAGE_CODE = preference.ui_locale
        return self.get_response(request)
