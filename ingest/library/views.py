"""Console pages for the user's source library."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from ingest.library.folders import (
    FolderError,
    create_folder,
    delete_folder,
    move_source,
    rename_folder,
)
from ingest.library.opml import (
    MAX_OPML_BYTES,
    OPML_CONTENT_TYPE,
    OPMLError,
    export_opml,
    import_opml,
)
from ingest.library.packs import PackError, install_pack, pack_states
from ingest.library.sources import SourceError, add_feed_by_url, remove_from_library
from ingest.models import Folder, UserSource


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
    return _render_list(request, error=error, url=url)


def _render_list(request, status: int = 200, **context):
    library = UserSource.objects.filter(user=request.user).select_related("source", "folder")
    context = {
        "library": library,
        "folders": Folder.objects.filter(user=request.user),
        "packs": pack_states(request.user),
        **context,
    }
    return render(request, "ingest/list.html", context, status=status)


@login_required
@require_POST
def pack_install(request, key: str):
    try:
        installed = install_pack(request.user, key, now=timezone.now())
    except PackError as exc:
        messages.error(request, exc.message)
        return redirect("ingest:list")
    if installed.added:
        messages.success(
            request,
            ngettext(
                "Installed %(pack)s: %(count)d source added to your library.",
                "Installed %(pack)s: %(count)d sources added to your library.",
                len(installed.added),
            )
            % {"pack": installed.pack.name, "count": len(installed.added)},
        )
    else:
        messages.info(request, _("Every source of that pack is already in your library."))
    return redirect("ingest:list")


@login_required
@require_POST
def opml_import(request):
    upload = request.FILES.get("file")
    if upload is None:
        error = _("Choose an OPML file to import.")
        return _render_list(request, status=400, opml_error=error)
    try:
        # Read one byte past the cap so an oversized file is refused, never read whole.
        report = import_opml(request.user, upload.read(MAX_OPML_BYTES + 1), now=timezone.now())
    except OPMLError as exc:
        return _render_list(request, status=400, opml_error=exc.message)
    return _render_list(request, opml_report=report)


@login_required
@require_GET
def opml_export(request):
    response = HttpResponse(
        export_opml(request.user, now=timezone.now()), content_type=OPML_CONTENT_TYPE
    )
    response["Content-Disposition"] = 'attachment; filename="tidings-sources.opml"'
    return response


@login_required
@require_POST
def source_remove(request, user_source_id: int):
    if remove_from_library(request.user, user_source_id):
        messages.success(request, _("Removed from your library."))
    return redirect("ingest:list")


def _folder_change(request, change, done: str):
    """Run a folder change; a refusal re-renders the page (400) with the reason by the form."""
    try:
        change()
    except FolderError as exc:
        return _render_list(request, status=400, folder_error=exc.message)
    messages.success(request, done)
    return redirect("ingest:list")


@login_required
@require_POST
def folder_create(request):
    name = request.POST.get("name", "")
    return _folder_change(
        request,
        lambda: create_folder(request.user, name, now=timezone.now()),
        _("Folder created."),
    )


@login_required
@require_POST
def folder_rename(request, folder_id: int):
    name = request.POST.get("name", "")
    return _folder_change(
        request, lambda: rename_folder(request.user, folder_id, name), _("Folder renamed.")
    )


@login_required
@require_POST
def folder_delete(request, folder_id: int):
    if delete_folder(request.user, folder_id):
        messages.success(request, _("Folder deleted; its sources are still in your library."))
    return redirect("ingest:list")


@login_required
@require_POST
def source_move(request, user_source_id: int):
    raw = request.POST.get("folder", "")
    if raw and not raw.isdigit():
        return _render_list(request, status=400, folder_error=_("Choose one of your folders."))
    folder_id = int(raw) if raw else None
    return _folder_change(
        request,
        lambda: move_source(request.user, user_source_id, folder_id),
        _("Source moved."),
    )
