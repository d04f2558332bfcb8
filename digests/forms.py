from __future__ import annotations

from datetime import time

from django import forms
from django.utils.translation import gettext_lazy as _

from digests.subscriptions import LENGTH_PRESETS

SCHEDULE_PRESETS = [
    ("daily", _("Every day at…")),
    ("weekdays", _("Weekdays at…")),
    ("weekly", _("Weekly on… at…")),
    ("advanced", _("Advanced (cron)")),
]
# Cron weekday numbers, Monday first.
WEEKDAY_CHOICES = [
    ("1", _("Monday")),
    ("2", _("Tuesday")),
    ("3", _("Wednesday")),
    ("4", _("Thursday")),
    ("5", _("Friday")),
    ("6", _("Saturday")),
    ("0", _("Sunday")),
]


def preset_cron(preset: str, at: time, weekday: str = "1") -> str:
    """The cron expression of a schedule preset; static/js/schedule-preview.js mirrors it."""
    days = {"daily": "*", "weekdays": "1-5", "weekly": weekday}[preset]
    return f"{at.minute} {at.hour} * * {days}"


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
    schedule_preset = forms.ChoiceField(
        label=_("Schedule"), choices=SCHEDULE_PRESETS, initial="daily", required=False
    )
    schedule_time = forms.TimeField(
        label=_("Time"),
        required=False,
        initial=time(8, 0),
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text=_("In the time zone below."),
    )
    schedule_day = forms.ChoiceField(
        label=_("Day of the week"), choices=WEEKDAY_CHOICES, initial="1", required=False
    )
    cron = forms.CharField(
        label=_("Schedule (cron)"),
        initial="0 8 * * *",
        required=False,
        help_text=_(
            "For “Advanced”: minute hour day month weekday, e.g. '0 8 * * 1-5' for weekdays "
            "at 08:00."
        ),
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

    def clean(self):
        data = super().clean()
        # No preset (an older client, a script) with a cron expression means "advanced".
        preset = data.get("schedule_preset") or ("advanced" if data.get("cron") else "daily")
        if preset == "advanced":
            if not data.get("cron") and "cron" not in self.errors:
                self.add_error("cron", _("Give a cron expression, or choose a preset."))
        elif data.get("schedule_time") is None:
            if "schedule_time" not in self.errors:
                self.add_error("schedule_time", _("Choose a time of day."))
        else:
            data["cron"] = preset_cron(
                preset, data["schedule_time"], data.get("schedule_day") or "1"
            )
        return data

    def service_data(self) -> dict:
        data = dict(self.cleaned_data)
        for name in ("schedule_preset", "schedule_time", "schedule_day"):
            data.pop(name, None)
        data["source_ids"] = [int(i) for i in data.get("source_ids") or []]
        return data
