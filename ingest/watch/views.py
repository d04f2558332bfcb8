"""Console page: watch a listing page for new links (a `list` source)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from config.api.errors import ServiceRefusal
from digests.delivery import push
from digests.watches import notifiers as watches
from ingest.fetching import browser
from ingest.library.sources import SourceError
from ingest.models import Source, UserSource
from ingest.watch.service import add_list_watch

INTERVAL_CHOICES = [
    (30, gettext_lazy("Every 30 minutes")),
    (60, gettext_lazy("Every hour")),
    (180, gettext_lazy("Every 3 hours")),
    (360, gettext_lazy("Every 6 hours")),
    (720, gettext_lazy("Every 12 hours")),
    (1440, gettext_lazy("Once a day")),
]


class WatchSettingsForm(forms.Form):
    """How a watch tells about changes; the service checks the rules and the plan's limits."""

    notify = forms.MultipleChoiceField(
        label=gettext_lazy("Tell me about new links"),
        required=False,
        choices=[
            ("inbox", gettext_lazy("In my Inbox")),
            ("email", gettext_lazy("By email too")),
            ("push", gettext_lazy("As a push notification too")),
        ],
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy(
            "Each change is told once on each channel. Leave all unchecked to only use the "
            "page in your own briefs."
        ),
    )
    check_interval_minutes = forms.TypedChoiceField(
        label=gettext_lazy("Check the page"),
        choices=INTERVAL_CHOICES,
        coerce=int,
        required=False,
        empty_value=None,
        help_text=gettext_lazy("Free plans check at most once an hour."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not push.configured():
            self.fields["notify"].choices = [
                choice for choice in self.fields["notify"].choices if choice[0] != "push"
            ]
            self.fields["notify"].help_text = _(
                "Each change is told once on each channel. Push notifications are off on this "
                "server."
            )

    def settings(self) -> dict:
        return {
            "channels": self.cleaned_data["notify"],
            "check_interval_minutes": self.cleaned_data["check_interval_minutes"],
        }


def _show_refusal(form, exc: ServiceRefusal) -> None:
    for field, message in exc.errors.items():
        form.add_error(field if field in form.fields else None, message)


class ListWatchForm(forms.Form):
    # Plain text fields: the service checks the address and the selector and names the rule.
    url = forms.CharField(
        label=gettext_lazy("Page address"),
        max_length=2048,
        widget=forms.URLInput(attrs={"placeholder": "https://example.com/blog/"}),
    )
    selector = forms.CharField(
        label=gettext_lazy("CSS selector for the items (optional)"),
        required=False,
        max_length=300,
        help_text=gettext_lazy(
            "For example “ul.news li” or “article h2 a”. Leave it empty and Tidings finds the "
            "repeated links of the page's main list itself."
        ),
    )
    render = forms.ChoiceField(
        label=gettext_lazy("How to fetch it"),
        choices=[
            ("http", gettext_lazy("Plain HTTP (fast; most pages)")),
            (
                "browser",
                gettext_lazy("In a browser (for pages that build their list with JavaScript)"),
            ),
        ],
        initial="http",
        widget=forms.RadioSelect,
    )
    display_name = forms.CharField(
        label=gettext_lazy("Name (optional)"), required=False, max_length=300
    )


class NewWatchForm(ListWatchForm, WatchSettingsForm):
    pass


@login_required
def watch_list(request):
    form = NewWatchForm(
        request.POST or None, initial={"notify": ["inbox"], "check_interval_minutes": 60}
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                added = add_list_watch(
                    request.user,
                    data["url"],
                    selector=data["selector"],
                    render=data["render"],
                    now=timezone.now(),
                    display_name=data["display_name"],
                    notify=data["notify"],
                    check_interval_minutes=data["check_interval_minutes"],
                )
            except SourceError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            except ServiceRefusal as exc:
                _show_refusal(form, exc)
            else:
                _announce(request, added)
                return redirect("ingest:list")
        status = 400
    context = {"form": form, "browser_available": browser.available()}
    return render(request, "ingest/watch.html", context, status=status)


def _announce(request, added) -> None:
    name = str(added.user_source)
    if not added.created:
        messages.info(request, _("You already watch %(name)s.") % {"name": name})
    elif added.refresh is not None and added.refresh.ok:
        count = added.refresh.counts.seen
        messages.success(
            request,
            ngettext(
                "Watching %(name)s: %(count)d link is on the page now. Links that appear "
                "from now on will reach your briefs.",
                "Watching %(name)s: %(count)d links are on the page now. Links that appear "
                "from now on will reach your briefs.",
                count,
            )
            % {"name": name, "count": count},
        )
    else:
        messages.success(
            request,
            _("Watching %(name)s. New links will reach your briefs.") % {"name": name},
        )


@login_required
def watch_settings(request, user_source_id: int):
    user_source = get_object_or_404(
        UserSource.objects.select_related("source"),
        pk=user_source_id,
        user=request.user,
        source__type=Source.Type.LIST,
    )
    current = watches.settings_of(watches.notifier_for(request.user, user_source.source))
    form = WatchSettingsForm(
        request.POST or None,
        initial={
            "notify": list(current.channels),
            "check_interval_minutes": current.check_interval_minutes,
        },
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                watches.set_watch_notifications(
                    request.user,
                    user_source.source,
                    now=timezone.now(),
                    name=user_source.display_name,
                    **form.settings(),
                )
            except ServiceRefusal as exc:
                _show_refusal(form, exc)
            else:
                messages.success(request, _("Watch settings saved."))
                return redirect("ingest:list")
        status = 400
    context = {"form": form, "entry": user_source}
    return render(request, "ingest/watch_settings.html", context, status=status)
