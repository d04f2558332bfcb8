"""The console's side of portability, on the preferences page: download the export, upload
one, make and revoke transfer codes, pull from another instance, delete the account.
Thin callers of export, importing, transfer and deletion."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from config.api.errors import ServiceRefusal
from inbox.portability import import_jobs, transfer
from inbox.portability.api import streamed_export
from inbox.portability.console import job_view
from inbox.portability.deletion import delete_account
from inbox.portability.export import encoded_chunks, stream_export
from inbox.tasks import enqueue_import
from inbox.views import preferences_page


def _refusal_text(exc: ServiceRefusal) -> str:
    return "; ".join(exc.errors.values()) or exc.message


@login_required
@require_GET
def export_download(request):
    now = timezone.now()
    return streamed_export(encoded_chunks(stream_export(request.user, now=now)), now)


@login_required
@require_POST
def import_upload(request):
    """Store the upload and queue its import (inbox/portability/import_jobs.py): the page
    answers at once and shows the job's progress until it is done."""
    upload = request.FILES.get("file")
    if upload is None:
        messages.error(request, _("Choose an export file (.json) to import."))
        return redirect("inbox:preferences")
    try:
        # The uploaded file itself (on disk past 2.5 MB): copied piece by piece, never whole.
        job = import_jobs.start_import(request.user, upload.open("rb"), now=timezone.now())
    except ServiceRefusal as exc:
        messages.error(request, _("Nothing was imported: %(why)s") % {"why": _refusal_text(exc)})
        return redirect("inbox:preferences")
    enqueue_import(job.pk)
    messages.info(request, _("Import started; its progress shows below."))
    return redirect(reverse("inbox:preferences") + "#import")


@login_required
@require_GET
def import_status(request):
    """The import's status block alone, for the page to poll while a job is under way."""
    return render(
        request,
        "inbox/_import_status.html",
        {"import_job": job_view(import_jobs.latest_job(request.user))},
    )


@login_required
@require_POST
def transfer_codes(request):
    now = timezone.now()
    if "revoke" in request.POST:
        code_id = request.POST.get("revoke", "")
        if code_id.isdigit() and transfer.revoke_code(request.user, int(code_id), now=now):
            messages.success(request, _("Transfer code revoked."))
        return redirect("inbox:preferences")
    try:
        row, code = transfer.issue_code(request.user, request.POST.get("scope", ""), now=now)
    except ServiceRefusal as exc:
        messages.error(request, _refusal_text(exc))
        return redirect("inbox:preferences")
    return preferences_page(request, new_code={"code": code, "row": row})


@login_required
@require_POST
def transfer_pull(request):
    try:
        job = transfer.pull(
            request.user,
            instance=request.POST.get("instance", ""),
            code=request.POST.get("code", ""),
            now=timezone.now(),
        )
    except ServiceRefusal as exc:
        messages.error(request, _("Nothing was imported: %(why)s") % {"why": _refusal_text(exc)})
        return redirect("inbox:preferences")
    enqueue_import(job.pk)
    messages.info(request, _("Import started; its progress shows below."))
    return redirect(reverse("inbox:preferences") + "#import")


@login_required
def account_delete(request):
    error = ""
    if request.method == "POST":
        try:
            delete_account(
                request.user, password=request.POST.get("password", ""), now=timezone.now()
            )
        except ServiceRefusal as exc:
            error = _refusal_text(exc)
        else:
            logout(request)
            messages.success(request, _("Your account and everything in it has been deleted."))
            return redirect("/")
    return render(
        request,
        "inbox/delete_account.html",
        {"error": error, "nav": "preferences"},
        status=400 if error else 200,
    )
