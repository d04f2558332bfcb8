"""What the "Your data" part of the preferences page shows (the page is inbox/views.py's;
its forms post to inbox/portability/views.py)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from inbox.models import ImportRecord, TransferCode
from inbox.portability import import_jobs, transfer
from inbox.portability.importing import ImportSummary, max_import_bytes


def data_context(user, *, now) -> dict:
    """What the "Your data" part of the preferences page shows."""
    return {
        "transfer_scopes": TransferCode.Scope.choices,
        "transfer_codes": TransferCode.objects.filter(user=user)[:10],
        "imports": ImportRecord.objects.filter(user=user)[:5],
        "transfer_minutes": transfer.expiry_minutes(),
        "import_limit_mb": max_import_bytes() // (1024 * 1024),
        "import_job": job_view(import_jobs.latest_job(user)),
        "now": now,
    }


def job_view(job) -> dict | None:
    """The latest import job as the page shows it: its state, progress, and what it did or why
    it was refused, in words."""
    if job is None:
        return None
    view = {"job": job, "percent": import_jobs.progress_percent(job), "lines": []}
    if job.status == job.Status.DONE and job.summary:
        view["lines"] = summary_lines(ImportSummary(**job.summary))
    elif job.status == job.Status.FAILED:
        reasons = "; ".join(job.error_fields.values()) if job.error_fields else job.error_message
        view["lines"] = [_("Nothing was imported: %(why)s") % {"why": reasons}]
    return view


def summary_lines(summary: ImportSummary) -> list[str]:
    if summary.already_imported:
        return [_("This export was imported before; nothing changed.")]
    lines = [
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
        }
    ]
    for refused in summary.sources_refused:
        lines.append(
            _("Source not imported: %(url)s — %(reason)s")
            % {"url": refused["url"] or refused["type"], "reason": refused["reason"]}
        )
    return lines
