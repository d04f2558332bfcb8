from django import forms
from django.utils.translation import gettext_lazy as _

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
    timezone = forms.CharField(label=_("Time zone"), max_length=64)
    confirm_public = forms.BooleanField(
        label=_("I understand the page is public and search engines may index it."),
        required=False,
    )

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("visibility") == "public" and not cleaned.get("confirm_public"):
            self.add_error(
                "confirm_public", _("Confirm that the topic's page will be public and indexable.")
            )
        return cleaned
