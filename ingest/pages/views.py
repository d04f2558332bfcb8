"""Console page: save a link for later (the reading list, ingest/pages/service.py)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.moments import moment
from ingest.pages.service import NAME_MAX_CHARS, ReadingListError, save_for_later, user_timezone


class SavePageForm(forms.Form):
    # Plain text fields: the service checks the address and the time and names the rule.
    url = forms.CharField(
        label=gettext_lazy("Page address"),
        max_length=2048,
        widget=forms.URLInput(attrs={"placeholder": "https://example.com/an-article"}),
    )
    when = forms.CharField(
        label=gettext_lazy("Deliver it"),
        required=False,
        initial=gettext_lazy("tomorrow 08:00"),  # a phrase parse_when reads in each language
        max_length=100,
        help_text=gettext_lazy(
            "In your time zone: “tomorrow 08:00”, “today 18:30”, “08:00”, “in 3 hours” or a date "
            "and time such as “2026-12-24 08:00”. Empty means tomorrow at 08:00."
        ),
    )
    deliver_at = forms.CharField(
        label=gettext_lazy("…or pick a date and time"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    name = forms.CharField(
        label=gettext_lazy("Name of the brief (optional)"),
        required=False,
        max_length=NAME_MAX_CHARS,
        help_text=gettext_lazy("Defaults to the page's title."),
    )


@login_required
def save_page(request):
    form = SavePageForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            # A datetime-local value has no offset: it is a wall-clock time in the user's zone,
            # which is what `when` takes.
            when = data["deliver_at"] or data["when"]
            field_of = {"when": "deliver_at" if data["deliver_at"] else "when"}
            try:
                saved = save_for_later(
                    request.user, data["url"], when=when, name=data["name"], now=timezone.now()
                )
            except ReadingListError as exc:
                for field, message in exc.errors.items():
                    field = field_of.get(field, field)
                    form.add_error(field if field in form.fields else None, message)
            else:
                _announce(request, saved)
                return redirect("digests:detail", saved.subscription.pk)
        status = 400
    context = {"form": form, "timezone": user_timezone(request.user)}
    return render(request, "ingest/save_page.html", context, status=status)


def _announce(request, saved) -> None:
    messages.success(
        request,
        _("Saved “%(title)s”. It will be in your Inbox on %(when)s.")
        % {
            "title": saved.item.title if saved.item else saved.source.url,
            "when": moment(saved.subscription.next_run_at, saved.subscription.timezone),
        },
    )
