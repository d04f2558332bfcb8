from django import forms
from django.utils.translation import gettext_lazy as _

from inbox.forms import timezone_choices
from topics.models import Report, Topic


class ReportForm(forms.Form):
    reason = forms.ChoiceField(label=_("What is wrong?"), choices=Report.Reason.choices)
    message = forms.CharField(
        label=_("Details (optional)"), required=False, max_length=2000, widget=forms.Textarea
    )


class PublishForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=200)
    description = forms.CharField(
        label=_("Description"), required=False, max_length=500, widget=forms.Textarea
    )
    visibility = forms.ChoiceField(
        label=_("Visibility"), choices=Topic.Visibility.choices, initial="public"
    )
    cron = forms.CharField(label=_("Edition schedule (cron)"), max_length=120)
    timezone = forms.ChoiceField(label=_("Time zone"))
    confirm_public = forms.BooleanField(
        label=_("I understand the page is public and search engines may index it."),
        required=False,
    )

    def __init__(self, *args, paid: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        # A list, as everywhere else a time zone is chosen.
        self.fields["timezone"].choices = timezone_choices()
        if not paid:
            # Private topics need a paid plan: a free account is not offered what it cannot use.
            self.fields["visibility"].choices = [
                (value, label)
                for value, label in Topic.Visibility.choices
                if value == Topic.Visibility.PUBLIC
            ]
            self.fields["visibility"].help_text = _("Private topics come with a paid plan.")

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("visibility") == "public" and not cleaned.get("confirm_public"):
            self.add_error(
                "confirm_public", _("Confirm that the topic's page will be public and indexable.")
            )
        return cleaned
