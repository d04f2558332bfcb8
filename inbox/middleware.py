"""Activate the signed-in user's chosen UI language (when they chose one)."""

from __future__ import annotations

from django.utils import translation

from inbox.models import UserPreference


class UserPreferenceMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            preference = (
                UserPreference.objects.filter(user=user).only("ui_locale", "locale_mode").first()
            )
            if preference and preference.locale_mode == UserPreference.LocaleMode.MANUAL:
                translation.activate(preference.ui_locale)
                request.LANGUAGE_CODE = preference.ui_locale
        return self.get_response(request)
