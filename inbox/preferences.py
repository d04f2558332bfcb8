"""A user's preferences: UI language (chosen, or the browser's) and time zone.

The UI language is also the default language of their briefs
(digests.narrative.language.output_locale_for reads `ui_locale`), so "automatic" records the
language the browser asked for when the user saved it: a brief is written by a worker, long
after any request.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

from digests.schedules.next_run import ScheduleError, validate_timezone
from inbox.models import UserPreference

AUTO = "auto"


class PreferenceError(Exception):
    def __init__(self, errors: dict[str, str]):
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors


def preference_for(user) -> UserPreference:
    preference, _created = UserPreference.objects.get_or_create(user=user)
    return preference


def current_language_choice(preference: UserPreference) -> str:
    if preference.locale_mode == UserPreference.LocaleMode.MANUAL:
        return preference.ui_locale
    return AUTO


def update_preferences(
    user, *, language: str, timezone: str, browser_language: str
) -> UserPreference:
    """Save both or neither; every refusal names its field and the rule."""
    languages = dict(settings.LANGUAGES)
    errors: dict[str, str] = {}
    if language != AUTO and language not in languages:
        errors["language"] = _("Choose “automatic” or one of: %(codes)s.") % {
            "codes": ", ".join(languages)
        }
    try:
        validate_timezone(timezone)
    except ScheduleError as exc:
        errors["timezone"] = exc.message
    if errors:
        raise PreferenceError(errors)
    preference = preference_for(user)
    if language == AUTO:
        preference.locale_mode = UserPreference.LocaleMode.AUTO
        preference.ui_locale = (
            browser_language if browser_language in languages else settings.LANGUAGE_CODE
        )
    else:
        preference.locale_mode = UserPreference.LocaleMode.MANUAL
        preference.ui_locale = language
    preference.timezone = timezone
    preference.save(update_fields=["locale_mode", "ui_locale", "timezone"])
    return preference
