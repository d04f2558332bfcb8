"""Console page for adding a site crawl (/sources/crawl/)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ingest.crawl import service as crawl
from ingest.library.input import SourceInputError


class CrawlForm(forms.Form):
    """Shape only: the rules live in ingest.crawl.service.clean_crawl_input."""

    url = forms.CharField(
        label=gettext_lazy("Site address"),
        widget=forms.URLInput(
            attrs={"placeholder": "https://example.com/blog/", "inputmode": "url"}
        ),
        help_text=gettext_lazy("The page to start from, usually the site's news or blog index."),
    )
    include = forms.CharField(
        label=gettext_lazy("Only paths"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "/blog/"}),
        help_text=gettext_lazy(
            "One path per line, e.g. /blog/ or /news/*/2026; empty: the whole site."
        ),
    )
    exclude = forms.CharField(
        label=gettext_lazy("Never paths"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "/tag/"}),
        help_text=gettext_lazy("One path per line; these are never fetched."),
    )
    max_depth = forms.CharField(
        label=gettext_lazy("Link depth"),
        initial=crawl.DEFAULT_MAX_DEPTH,
        widget=forms.NumberInput(attrs={"min": 1, "max": crawl.MAX_DEPTH}),
        help_text=gettext_lazy("How many links away from the start page (1 to 5)."),
    )
    limit = forms.CharField(
        label=gettext_lazy("Pages per check"),
        initial=crawl.DEFAULT_PAGE_LIMIT,
        widget=forms.NumberInput(attrs={"min": crawl.MIN_PAGE_LIMIT, "max": crawl.MAX_PAGE_LIMIT}),
        help_text=gettext_lazy("At most this many pages are fetched each time (2 to 500)."),
    )


@login_required
def crawl_add(request):
    form = CrawlForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user_source, created = crawl.add_site_crawl(
                request.user,
                data["url"],
                include=data["include"],
                exclude=data["exclude"],
                max_depth=data["max_depth"],
                limit=data["limit"],
                now=timezone.now(),
            )
        except SourceInputError as exc:
            for field, message in exc.errors.items():
                form.add_error(field if field in form.fields else None, message)
        else:
            if created:
                messages.success(
                    request,
                    _(
                        "Added %(name)s. Its first check records what is there now; new pages "
                        "reach your briefs from the next one."
                    )
                    % {"name": user_source},
                )
            else:
                messages.info(request, _("That site crawl is already in your library."))
            return redirect("ingest:list")
    status = 400 if request.method == "POST" else 200
    return render(request, "ingest/crawl_form.html", {"form": form}, status=status)
