"""Console page for adding a search source (/sources/search/)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ingest.library.input import SourceInputError
from ingest.search import service as search


class SearchForm(forms.Form):
    """Shape only: the rules live in ingest.search.service.clean_search_input."""

    query = forms.CharField(
        label=gettext_lazy("Search for"),
        widget=forms.TextInput(attrs={"placeholder": "PostgreSQL, logical replication"}),
        help_text=gettext_lazy("Words or phrases; separate alternatives with commas."),
    )
    provider = forms.ChoiceField(
        label=gettext_lazy("Search in"),
        choices=[(key, provider.label) for key, provider in search.PROVIDERS.items()],
        initial=search.DEFAULT_PROVIDER,
        help_text=gettext_lazy(
            "Tidings pool: everything Tidings has already collected. SearXNG: the web, "
            "through this server's SearXNG instance. NAVER News: Korean news articles, "
            "through NAVER's Search API (when this server has its credentials)."
        ),
    )


@login_required
def search_add(request):
    form = SearchForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user_source, created = search.add_search(
                request.user,
                form.cleaned_data["query"],
                provider=form.cleaned_data["provider"],
                now=timezone.now(),
            )
        except SourceInputError as exc:
            for field, message in exc.errors.items():
                form.add_error(field if field in form.fields else None, message)
        else:
            if created:
                messages.success(
                    request,
                    _("Added %(name)s. Each run of a subscription that uses it searches first.")
                    % {"name": user_source},
                )
            else:
                messages.info(request, _("That search is already in your library."))
            return redirect("ingest:list")
    status = 400 if request.method == "POST" else 200
    return render(request, "ingest/search_form.html", {"form": form}, status=status)
