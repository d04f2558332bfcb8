"""Forms of the Inbox pages: the filter bar (GET) and the preferences."""

from __future__ import annotations

import zoneinfo
from functools import cache

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from inbox.auth_throttle import REQUEST_ATTRIBUTE
from inbox.listing import InboxFilter

MAX_TEXT = 200


class InboxFilterForm(forms.Form):
    """The filters live in the query string, so a filtered page has a stable URL. `from` and
    `to` are Python keywords, hence added in __init__."""

    show = forms.ChoiceField(
        label=_("Show"),
        required=False,
        choices=[
            ("all", _("All")),
            ("unread", _("Unread")),
            ("saved", _("Saved")),
            ("not_interested", _("Not interested")),
        ],
    )
    q = forms.CharField(
        label=_("Search"),
        required=False,
        max_length=MAX_TEXT,
        widget=forms.TextInput(
            attrs={"type": "search", "placeholder": _("Title, summary, source")}
        ),
    )
    subscription = forms.TypedChoiceField(
        label=_("Subscription"), required=False, coerce=int, empty_value=None
    )

    def __init__(self, data=None, *, subscriptions=(), **kwargs):
        super().__init__(data, **kwargs)
        self.fields["subscription"].choices = [("", _("All subscriptions"))] + [
            (str(s.pk), s.name) for s in subscriptions
        ]
        date_input = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
        self.fields["from"] = forms.DateField(
            label=_("From"), required=False, widget=date_input, input_formats=["%Y-%m-%d"]
        )
        self.fields["to"] = forms.DateField(
            label=_("To"), required=False, widget=date_input, input_formats=["%Y-%m-%d"]
        )

    def clean(self):
        data = super().clean()
        since, until = data.get("from"), data.get("to")
        if since and until and until < since:
            self.add_error("to", _("The end date must be on or after the start date."))
        return data

    def inbox_filter(self) -> InboxFilter:
        """The valid filters; a refused field (shown with its error) is left out."""
        data = self.cleaned_data if hasattr(self, "cleaned_data") else {}
        return InboxFilter(
            show=data.get("show") or "all",
            subscription_id=data.get("subscription"),
            text=(data.get("q") or "").strip(),
            since=data.get("from"),
            until=data.get("to") if "to" not in self.errors else None,
        )

    @property
    def is_filtered(self) -> bool:
        inbox_filter = self.inbox_filter()
        return bool(
            inbox_filter.subscription_id
            or inbox_filter.text
            or inbox_filter.since
            or inbox_filter.until
        )


@cache
def timezone_choices() -> list[tuple[str, str]]:
    zones = sorted(zoneinfo.available_timezones() - {"UTC", "localtime"})
    return [("UTC", "UTC"), *((z, z.replace("_", " ")) for z in zones)]


class PreferencesForm(forms.Form):
    """Shape only: the rules live in inbox.preferences.update_preferences."""

    language = forms.ChoiceField(
        label=_("Language"),
        help_text=_("Of these pages, and the default language of your briefs."),
    )
    timezone = forms.ChoiceField(
        label=_("Time zone"),
        help_text=_("Times are shown in it, and new subscriptions are scheduled in it."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Language names in their own language: someone lost in the wrong one still finds theirs.
        self.fields["language"].choices = [
            ("auto", _("Automatic (from your browser)")),
            *((code, NATIVE_NAMES.get(code, code)) for code, _name in settings.LANGUAGES),
        ]
        self.fields["timezone"].choices = timezone_choices()


NATIVE_NAMES = {"en": "English", "zh-hans": "简体中文"}


def throttled_message(refusal) -> str:
    minutes = max(1, -(-refusal.retry_after // 60))
    return ngettext(
        "Too many failed attempts. Try again in %(minutes)d minute, or reset your password.",
        "Too many failed attempts. Try again in %(minutes)d minutes, or reset your password.",
        minutes,
    ) % {"minutes": minutes}


class ThrottledLoginMixin:
    """Words the error of an attempt the authentication throttle refused (the backend left the
    refusal on the request), instead of calling the password wrong."""

    def get_invalid_login_error(self):
        refusal = getattr(self.request, REQUEST_ATTRIBUTE, None)
        if refusal is not None:
            return forms.ValidationError(throttled_message(refusal), code="throttled")
        return super().get_invalid_login_error()


class ThrottledAdminAuthenticationForm(ThrottledLoginMixin, AdminAuthenticationForm):
    """The admin's login form: the same throttle as the console's (it is the backend's)."""


class EmailAuthenticationForm(ThrottledLoginMixin, AuthenticationForm):
    """Django's login form, speaking of the email address people type (the user model's
    field behind it is called username)."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _(
            "This email address and password do not match an account. Check both; the "
            "password is case-sensitive."
        ),
    }
