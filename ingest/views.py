"""Console pages for the user's source library."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ingest.models import UserSource
from ingest.sources import SourceError, add_feed_by_url, remove_from_library


@login_required
def source_list(request):
    error = None
    url = ""
    if request.method == "POST":
        url = request.POST.get("url", "")
        try:
            added = add_feed_by_url(request.user, url, now=timezone.now())
        except SourceError as exc:
            error = exc.message
        else:
            if added.created:
                messages.success(request, _("Added %(name)s.") % {"name": added.user_source})
            else:
                messages.info(request, _("That source is already in your library."))
            return redirect("ingest:list")
    library = UserSource.objects.filter(user=request.user).select_related("source")
    return render(request, "ingest/list.html", {"library": library, "error": error, "url": url})


@login_required
@require_POST
def source_remove(request, user_source_id: int):
    if remove_from_library(request.user, user_source_id):
        messages.success(request, _("Removed from your library."))
    return redirect("ingest:list")
