from __future__ import annotations

import re
from datetime import time

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from digests.subscriptions.service import LENGTH_PRESETS
from inbox.forms import timezone_choices
from ingest.models import ContentItemSource
from ingest.text.reading import LEVEL_CHOICES
from ingest.text.sections import SECTIONS

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


# digests/schedules/words.py looks these names up with pgettext("schedule", name) at run time;
# they are marked here so makemessages puts them in the catalogs.
SCHEDULE_NAMES_FOR_TRANSLATORS = (
    pgettext_lazy("schedule", "Monday"),
    pgettext_lazy("schedule", "Tuesday"),
    pgettext_lazy("schedule", "Wednesday"),
    pgettext_lazy("schedule", "Thursday"),
    pgettext_lazy("schedule", "Friday"),
    pgettext_lazy("schedule", "Saturday"),
    pgettext_lazy("schedule", "Sunday"),
    pgettext_lazy("schedule", "January"),
    pgettext_lazy("schedule", "February"),
    pgettext_lazy("schedule", "March"),
    pgettext_lazy("schedule", "April"),
    pgettext_lazy("schedule", "May"),
    pgettext_lazy("schedule", "June"),
    pgettext_lazy("schedule", "July"),
    pgettext_lazy("schedule", "August"),
    pgettext_lazy("schedule", "September"),
    pgettext_lazy("schedule", "October"),
    pgettext_lazy("schedule", "November"),
    pgettext_lazy("schedule", "December"),
    pgettext_lazy("schedule", "first"),
    pgettext_lazy("schedule", "second"),
    pgettext_lazy("schedule", "third"),
    pgettext_lazy("schedule", "fourth"),
    pgettext_lazy("schedule", "fifth"),
)

LENGTH_LABELS = {
    "brief": _("Brief — up to 10 items"),
    "standard": _("Standard — up to 20 items"),
    "deep": _("Deep — up to 30 items"),
}
_PRESET_DAYS = {"*": "daily", "1-5": "weekdays"}
_PRESET_SHAPE = re.compile(r"^(\d{1,2}) (\d{1,2}) \* \* (\*|1-5|[0-6])$")


def preset_cron(preset: str, at: time, weekday: str = "1") -> str:
    """The cron expression of a schedule preset; static/js/schedule-preview.js mirrors it."""
    days = {"daily": "*", "weekdays": "1-5", "weekly": weekday}[preset]
    return f"{at.minute} {at.hour} * * {days}"


def preset_of(cron: str) -> tuple[str, time | None, str]:
    """The inverse of preset_cron: (preset, time, weekday) of an expression a preset would
    write, else ("advanced", None, "1"), so the edit form shows a schedule as it was made."""
    match = _PRESET_SHAPE.match(" ".join((cron or "").split()))
    if not match:
        return "advanced", None, "1"
    minute, hour, days = int(match[1]), int(match[2]), match[3]
    if minute > 59 or hour > 23:
        return "advanced", None, "1"
    preset = _PRESET_DAYS.get(days, "weekly")
    return preset, time(hour, minute), days if preset == "weekly" else "1"


def initial_for(subscription, form_fields) -> dict:
    """The edit form's initial values from a subscription. Fields named like the model's
    attributes (and any added later) are copied; the rest are translated."""
    initial = {
        name: getattr(subscription, name)
        for name in form_fields
        if hasattr(subscription, name) and not callable(getattr(subscription, name))
    }
    initial["interests"] = ", ".join(subscription.interests or [])
    initial["negative_keywords"] = ", ".join(subscription.negative_keywords or [])
    preset, at, weekday = preset_of(subscription.cron)
    initial.update(schedule_preset=preset, schedule_day=weekday)
    if at is not None:
        initial["schedule_time"] = at
    webhook = getattr(subscription, "webhook", None) if subscription.pk else None
    initial["webhook_url"] = webhook.url if webhook else ""
    lengths = {v: k for k, v in LENGTH_PRESETS.items()}
    initial["length"] = lengths.get(subscription.max_items, "")
    initial["source_ids"] = [
        str(i) for i in subscription.sources.values_list("id", flat=True).order_by("id")
    ]
    return initial


def sections_apply(library, *, keep: bool = False) -> bool:
    """Whether the Sections filter is worth offering: some source in the library has items
    with a section (ingest/text/sections.py), or the subscription already filters by one."""
    ids = [user_source.source_id for user_source in library]
    return keep or (
        bool(ids)
        and ContentItemSource.objects.filter(source_id__in=ids).exclude(item__section="").exists()
    )


def draft_data(post) -> dict:
    """The values of a subscription form as posted, for a preview before saving
    (digests.subscriptions.service.draft checks them): no field is required yet."""
    data = {
        "topic": post.get("topic", ""),
        "interests": post.get("interests", ""),
        "negative_keywords": post.get("negative_keywords", ""),
        "reading_levels": post.getlist("reading_levels"),
        "sections": post.getlist("sections"),
        "source_ids": [int(i) for i in post.getlist("source_ids") if i.isdigit()],
    }
    if post.get("length"):
        data["length"] = post["length"]
    return data


def redisplayed(post, form_fields, **changes) -> dict:
    """Initial values that show a posted form again as it was (with `changes`), without
    judging it: a preview is not a save, so no field error belongs on it yet."""
    initial = {}
    for name, field in form_fields.items():
        if isinstance(field, forms.MultipleChoiceField):
            initial[name] = post.getlist(name)
        elif name in post:
            initial[name] = post.get(name)
    initial.update(changes)
    return initial


def _draft_trigger(url: str, action: str, *, swap_interests: bool) -> dict:
    """htmx attributes that post the form for a suggestion or a preview when a field changes
    (digests/templates/digests/_draft.html shows the answer). Without JavaScript the draft
    panel's buttons do the same with a full page."""
    attrs = {
        "hx-post": url,
        "hx-trigger": "change",
        "hx-target": "#draft",
        "hx-select": "#draft",
        "hx-swap": "outerHTML",
        "hx-vals": f'{{"draft": "{action}"}}',
    }
    if swap_interests:
        attrs["hx-select-oob"] = "#field-interests,#field-negative_keywords"
    return attrs


class SubscriptionForm(forms.Form):
    """Shape only: the rules live in digests.subscriptions.service.clean_input."""

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
    timezone = forms.CharField(
        label=_("Time zone"), initial="UTC", widget=forms.Select(choices=timezone_choices())
    )
    length = forms.ChoiceField(
        label=_("Length"),
        choices=[(k, LENGTH_LABELS.get(k, k)) for k in LENGTH_PRESETS],
        initial="standard",
    )
    reading_levels = forms.MultipleChoiceField(
        label=_("Reading level"),
        choices=LEVEL_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Keep only items at these levels; none ticked means any. Korean news is rated by "
            "section and text, other languages by sentence and word length; items not rated "
            "yet are left out while a level is ticked."
        ),
    )
    sections = forms.MultipleChoiceField(
        label=_("Sections"),
        choices=list(SECTIONS.items()),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Keep only articles of these newspaper sections; none ticked means any. The "
            "section comes from the feed's category or the article's address; articles "
            "without one are left out while a section is ticked."
        ),
    )
    source_ids = forms.MultipleChoiceField(
        label=_("Sources"), required=False, widget=forms.CheckboxSelectMultiple
    )
    email_enabled = forms.BooleanField(
        label=_("Also send each brief by email"),
        required=False,
        help_text=_("Off by default. The brief always reaches your Inbox first."),
    )
    email_to = forms.CharField(
        label=_("Send to"),
        required=False,
        max_length=254,
        widget=forms.EmailInput,
        help_text=_("Empty: your account’s address."),
    )
    email_subject = forms.CharField(
        label=_("Email subject"),
        required=False,
        max_length=200,
        help_text=_("Empty: the default. Placeholders: {name}, {date}, {count}, {topic}."),
    )
    webhook_url = forms.CharField(
        label=_("Webhook URL"),
        required=False,
        max_length=2048,
        widget=forms.URLInput,
        help_text=_(
            "Each brief is POSTed there as signed JSON (Standard Webhooks). Empty: no webhook."
        ),
    )

    def __init__(
        self,
        *args,
        library=(),
        max_items: int | None = None,
        draft_url: str = "",
        sections: bool = True,
        kept_source_ids=(),
        apprise_targets=(),
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.kept_source_ids = list(kept_source_ids)
        if apprise_targets:
            # Offered only to a reader who has added targets (on the Watches page): an empty
            # list of checkboxes would be a question with no answers.
            self.fields["apprise_targets"] = forms.MultipleChoiceField(
                label=_("Also send each brief to"),
                choices=[(str(t.pk), f"{t.label} ({t.hint})") for t in apprise_targets],
                required=False,
                widget=forms.CheckboxSelectMultiple,
                help_text=_("Your notification targets (Apprise): ntfy, Slack, Telegram…"),
            )
        if not sections:
            # No source of this reader carries newspaper sections: the filter could only
            # empty their briefs, so it is not offered (and a save leaves it as it was).
            del self.fields["sections"]
        if draft_url:
            # A new topic suggests interests (when they are empty or still the suggestion);
            # changed interests show a new preview.
            self.fields["topic"].widget.attrs.update(
                _draft_trigger(draft_url, "auto", swap_interests=True)
            )
            for name in ("interests", "negative_keywords"):
                self.fields[name].widget.attrs.update(
                    _draft_trigger(draft_url, "preview", swap_interests=False)
                )
        self.fields["source_ids"].choices = [
            (str(us.source_id), us.display_name or str(us.source)) for us in library
        ]
        if not self.fields["source_ids"].choices:
            # An empty "Sources" heading reads like a fault: say why there is nothing to tick.
            self.fields["source_ids"].help_text = _(
                "Your library has no sources yet. Add feeds or pages on the Sources page; "
                "until then this subscription reads the shared pool."
            )
        if max_items is not None and max_items not in LENGTH_PRESETS.values():
            # Set through the API to a number no preset has: editing keeps it unless changed.
            self.fields["length"].required = False
            self.fields["length"].choices = [
                ("", _("Keep %(count)d items") % {"count": max_items}),
                *self.fields["length"].choices,
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
        if not data.get("length"):
            data.pop("length", None)
        data["source_ids"] = [int(i) for i in data.get("source_ids") or []]
        # Sources the subscription reads that the form cannot show (not in the library): kept.
        data["source_ids"] += [i for i in self.kept_source_ids if i not in data["source_ids"]]
        data.pop("apprise_targets", None)  # routed apart: apprise_targets_chosen()
        return data

    def apprise_targets_chosen(self) -> list[int] | None:
        """The ticked Apprise targets' ids, or None when the form offers none."""
        if "apprise_targets" not in self.fields:
            return None
        return [int(i) for i in self.cleaned_data.get("apprise_targets") or []]
