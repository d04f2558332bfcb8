"""Console page: watch a listing page for new links (a `list` source)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ingest.fetching import browser
from ingest.library.sources import SourceError
from ingest.watch.service import add_list_watch


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


@login_required
def watch_list(request):
    form = ListWatchForm(request.POST or None)
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
                )
            except SourceError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
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
