from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from digests.subscriptions import LENGTH_PRESETS


class SubscriptionForm(forms.Form):
    """Shape only: the rules live in digests.subscriptions.clean_input."""

    name = forms.CharField(label=_("Name"), max_length=200)
    topic = forms.CharField(
        label=_("Topic"),
        required=False,
        max_length=500,
        help_text=_("In your own words, e.g. 'open-source databases and PostgreSQL'."),
    )
    interests = forms.CharField(
        label=_("Interests"),
        required=False,
        help_text=_("Comma-separated words or phrases; items mentioning them rank higher."),
    )
    negative_keywords = forms.CharField(
        label=_("Exclude"),
        required=False,
        help_text=_("Comma-separated; matching items are left out."),
    )
    cron = forms.CharField(
        label=_("Schedule (cron)"),
        initial="0 8 * * *",
        help_text=_("minute hour day month weekday, e.g. '0 8 * * 1-5' for weekdays at 08:00."),
    )
    timezone = forms.CharField(label=_("Time zone"), initial="UTC")
    length = forms.ChoiceField(
        label=_("Length"),
        choices=[(k, f"{k} ({v})") for k, v in LENGTH_PRESETS.items()],
        initial="standard",
    )
    source_ids = forms.MultipleChoiceField(
        label=_("Sources"), required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, library=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["source_ids"].choices = [
            (str(us.source_id), us.display_name or str(us.source)) for us in library
        ]

    def service_data(self) -> dict:
        data = dict(self.cleaned_data)
        data["source_ids"] = [int(i) for i in data.get("source_ids") or []]
        return data
