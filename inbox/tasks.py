"""django-q2 entry points of the inbox app: thin wrappers around its services."""

from __future__ import annotations

from django.utils import timezone

from config.queue import enqueue
from inbox.portability import import_jobs


def run_import(job_id: int) -> str:
    job = import_jobs.run_import_job(job_id, now=timezone.now())
    return job.status if job is not None else "not claimed"


def enqueue_import(job_id: int) -> bool:
    # A queued job whose task is lost is handed out again by the tick (import_jobs.reclaim).
    return enqueue("inbox.tasks.run_import", job_id, group="imports")
