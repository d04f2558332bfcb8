"""The console's side of portability, on the preferences page: download the export, upload
one, make and revoke transfer codes, pull from another instance, delete the account.
Thin callers of export, importing, transfer and deletion."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from config.api.errors import ServiceRefusal
from inbox.portability import transfer
from inbox.portability.api import streamed_export
from inbox.portability.deletion import delete_account
from inbox.portability.export import encoded_chunks, stream_export
from inbox.portability.importing import ImportSummary, import_export
from inbox.views import preferences_page


def _refusal_text(exc: ServiceRefusal) -> str:
    return "; ".join(exc.errors.values()) or exc.message


def _say_imported(request, summary: ImportSummary) -> None:
    if summary.already_imported:
        messages.info(request, _("This export was imported before; nothing changed."))
        return
    messages.success(
        request,
        _(
            "Imported: %(subscriptions)d subscriptions, %(runs)d briefs with %(items)d items, "
            "%(states)d item states, %(sources)d new sources."
        )
        % {
            "subscriptions": summary.subscriptions_created,
            "runs": summary.runs_created,
            "items": summary.run_items_created,
            "states": summary.content_states_created,
            "sources": summary.sources_added,
        },
    )
    for refused in summary.sources_refused:
        messages.warning(
            request,
            _("Source not imported: %(url)s — %(reason)s")
            % {"url": refused["url"] or refused["type"], "reason": refused["reason"]},
        )


@login_required
@require_GET
def export_download(request):
    now = timezone.now()
    return streamed_export(encoded_chunks(stream_export(request.user, now=now)), now)


@login_required
@require_POST
def import_upload(request):
    upload = request.FILES.get("file")
    if upload is None:
        messages.error(request, _("Choose an export file (.json) to import."))
        return redirect("inbox:preferences")
    try:
        # The uploaded file itself (on disk past 2.5 MB): read piece by piece, never whole.
        summary = import_export(request.user, upload.open("rb"), now=timezone.now())
    except ServiceRefusal as exc:
        messages.error(request, _("Nothing was imported: %(why)s") % {"why": _refusal_text(exc)})
    else:
        _say_imported(request, summary)
    return redirect("inbox:preferences")


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
        summary = transfer.pull(
            request.user,
            instance=request.POST.get("instance", ""),
            code=request.POST.get("code", ""),
            now=timezone.now(),
        )
    except ServiceRefusal as exc:
        messages.error(request, _("Nothing was imported: %(why)s") % {"why": _refusal_text(exc)})
    else:
        _say_imported(request, summary)
    return redirect("inbox:preferences")


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
