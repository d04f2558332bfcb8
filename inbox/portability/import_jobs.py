"""Imports as background work: the upload is stored and queued at once, a worker imports it,
the console and the API poll its job (docs/portability.md).

A 50 MB export takes tens of seconds to import; in a web request it outlived gunicorn's worker
timeout and held a worker that pages needed. Now:

- `start_import` stores the upload (refusing it whole past IMPORT_MAX_BYTES, leaving nothing
  behind) and creates the account's one active `ImportJob` (a second while one is queued or
  running: 409 `import_in_progress`). The caller enqueues `inbox.tasks.run_import`.
- `run_import_job` claims the job under a lease (config/leases.py), imports the file all or
  nothing with `importing.import_export`, and records the summary or the refusal — its code,
  message, fields and HTTP status, as the API would have answered. Progress (how far the
  current pass over the file is) goes to the cache every 256 KB, where pages and the API read
  it without waiting on the import's transaction. Past IMPORT_MAX_SECONDS the import stops,
  rolls back and the job fails saying so. The stored file is deleted when the job ends.
- `reclaim` (the dispatcher tick): a running job whose lease expired lost its worker; the
  import had not committed (it is one transaction), so the job is queued again, once — a job
  that outlives two workers fails with a message.
"""

from __future__ import annotations

import logging
import time
import uuid
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.core.files.base import File
from django.core.files.storage import default_storage
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from rest_framework import status

from config import leases
from config.api.errors import ServiceRefusal
from inbox.models import ImportJob, ImportRecord
from inbox.portability.importing import (
    ImportConflict,
    ImportRefused,
    _too_large,
    import_export,
    max_import_bytes,
)

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 2
PROGRESS_EVERY_BYTES = 256 * 1024
_PROGRESS_KEY = "import-job-progress:{}"
_CHUNK = 64 * 1024


class ImportInProgress(ImportConflict):
    code = "import_in_progress"


class ImportTimedOut(ImportRefused):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    code = "import_timed_out"


def active(user):
    return ImportJob.objects.filter(
        user=user, status__in=[ImportJob.Status.QUEUED, ImportJob.Status.RUNNING]
    )


def in_progress() -> ImportInProgress:
    return ImportInProgress(
        {"file": _("An import of yours is under way; wait until it has finished.")}
    )


def start_import(
    user, upload, *, now: datetime, origin: str = ImportRecord.Origin.UPLOAD
) -> ImportJob:
    """Store `upload` (a binary file: an upload, or what a transfer fetched) and queue its
    import; refuses a second active import and a file over the size limit, leaving nothing
    behind."""
    if active(user).exists():
        raise in_progress()
    limit = max_import_bytes()
    key = f"imports/{user.pk}-{uuid.uuid4().hex}.json"
    size = _store(upload, key, limit)
    try:
        with transaction.atomic():
            # Queued under a lease too: if its task is lost, the tick hands it out again.
            job = ImportJob.objects.create(
                user=user,
                origin=origin,
                file_key=key,
                size_bytes=size,
                created_at=now,
                lease_expires_at=leases.lease_until(now),
            )
    except IntegrityError:  # another upload of this account won the race
        default_storage.delete(key)
        raise in_progress() from None
    return job


def _store(upload, key: str, limit: int) -> int:
    """Copy `upload` to storage under `key` block by block, at most `limit` bytes."""
    size = 0

    def blocks():
        nonlocal size
        while True:
            block = upload.read(_CHUNK)
            if not block:
                return
            size += len(block)
            if size > limit:
                raise _too_large(limit)
            yield block

    spool = _Spool(blocks())
    try:
        saved = default_storage.save(key, File(spool, name=key))
    except ImportRefused:
        default_storage.delete(key)
        raise
    if saved != key:  # storage renamed it (a clash cannot happen with a fresh uuid, but still)
        default_storage.delete(saved)
        raise RuntimeError(f"storage stored {key} as {saved}")
    return size


class _Spool:
    """A read()-able view of an iterator of blocks, for storage backends."""

    def __init__(self, blocks):
        self._blocks = blocks
        self._left = b""

    def read(self, size: int = -1) -> bytes:
        out = [self._left]
        have = len(self._left)
        while size < 0 or have < size:
            block = next(self._blocks, b"")
            if not block:
                break
            out.append(block)
            have += len(block)
        data = b"".join(out)
        if size >= 0:
            data, self._left = data[:size], data[size:]
        else:
            self._left = b""
        return data


class _Watched:
    """The stored file as the import reads it: reports how far the current pass is, and stops
    the import past its time."""

    def __init__(self, stream, job: ImportJob, deadline: float):
        self._stream = stream
        self._job = job
        self._deadline = deadline
        self._reported = 0

    def read(self, size: int = -1) -> bytes:
        if time.monotonic() > self._deadline:
            raise ImportTimedOut(
                {
                    "file": _(
                        "The import took longer than %(seconds)d seconds and was stopped; "
                        "nothing was imported. Export with a smaller scope."
                    )
                    % {"seconds": settings.IMPORT_MAX_SECONDS}
                }
            )
        data = self._stream.read(size)
        position = self._stream.tell()
        if abs(position - self._reported) >= PROGRESS_EVERY_BYTES or not data:
            self._reported = position
            cache.set(_PROGRESS_KEY.format(self._job.pk), position, timeout=3600)
        return data

    def seek(self, *args):
        return self._stream.seek(*args)

    def tell(self) -> int:
        return self._stream.tell()


def progress_percent(job: ImportJob) -> int:
    """How far the current pass over the file is, 0-100 (100 once done)."""
    if job.status == ImportJob.Status.DONE:
        return 100
    if job.status != ImportJob.Status.RUNNING or not job.size_bytes:
        return 0
    position = cache.get(_PROGRESS_KEY.format(job.pk)) or 0
    return min(99, int(position * 100 / job.size_bytes))


def run_import_job(job_id: int, *, now: datetime) -> ImportJob | None:
    """Claim the job and import its file; None when it is not there or not claimable (done,
    or another worker holds it)."""
    job = ImportJob.objects.filter(pk=job_id).first()
    if job is None:
        return None
    claimable = ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.QUEUED)
    if not leases.claim(
        claimable,
        now=now,
        seen_attempts=job.attempts,
        status=ImportJob.Status.RUNNING,
        started_at=now,
    ):
        return None
    job.refresh_from_db()
    deadline = time.monotonic() + settings.IMPORT_MAX_SECONDS
    outcome: dict
    try:
        with (
            leases.Heartbeat(ImportJob, [job.pk], now=now, status=ImportJob.Status.RUNNING),
            default_storage.open(job.file_key, "rb") as stored,
        ):
            summary = import_export(
                job.user, _Watched(stored, job, deadline), now=now, origin=job.origin
            )
        outcome = {"status": ImportJob.Status.DONE, "summary": summary.as_dict()}
    except ServiceRefusal as refusal:
        outcome = {
            "status": ImportJob.Status.FAILED,
            "error_code": refusal.code,
            "error_message": refusal.message,
            "error_fields": refusal.errors,
            "error_status": refusal.status_code,
        }
    except Exception:
        logger.exception("import job %s failed", job.pk)
        outcome = {
            "status": ImportJob.Status.FAILED,
            "error_code": "server_error",
            "error_message": _(
                "The import failed on our side and was logged; nothing was imported."
            ),
            "error_status": 500,
        }
    _finish(job, outcome, now=now)
    return job


def _finish(job: ImportJob, outcome: dict, *, now: datetime) -> None:
    for name, value in outcome.items():
        setattr(job, name, value)
    job.finished_at = now
    job.lease_expires_at = None
    job.save()
    default_storage.delete(job.file_key)
    cache.delete(_PROGRESS_KEY.format(job.pk))


def reclaim(*, now: datetime) -> list[int]:
    """Jobs to hand out again (their ids, to enqueue): queued ones whose task was lost, and
    running ones whose worker died — those fail instead after MAX_ATTEMPTS."""
    again = []
    for job in leases.expired(ImportJob.objects.filter(status=ImportJob.Status.RUNNING), now=now):
        if job.attempts >= MAX_ATTEMPTS:
            _finish(
                job,
                {
                    "status": ImportJob.Status.FAILED,
                    "error_code": "worker_lost",
                    "error_message": _(
                        "The import stopped twice before it could finish (a worker was lost); "
                        "nothing was imported. Try again, or export with a smaller scope."
                    ),
                    "error_status": 500,
                },
                now=now,
            )
        elif ImportJob.objects.filter(
            pk=job.pk, status=ImportJob.Status.RUNNING, attempts=job.attempts
        ).update(status=ImportJob.Status.QUEUED, lease_expires_at=leases.lease_until(now)):
            again.append(job.pk)
    lost = leases.expired(ImportJob.objects.filter(status=ImportJob.Status.QUEUED), now=now)
    for job_id in lost.values_list("pk", flat=True):
        if ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.QUEUED).update(
            lease_expires_at=leases.lease_until(now)
        ):
            again.append(job_id)
    return again


def latest_job(user) -> ImportJob | None:
    return ImportJob.objects.filter(user=user).order_by("-created_at", "-id").first()
