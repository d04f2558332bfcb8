"""Entry points for the tick and worker processes of the scheduler concurrency test.

Spawned children import this module before Django is set up, so nothing here touches Django
at import time; each child connects to the test database the parent created.
"""

from __future__ import annotations

import os
import traceback
from datetime import datetime

DUPLICATE_DELIVERIES = 2  # django-q2 delivers at least once: every run is enqueued twice


def _setup(db_name: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()
    from django.db import connections

    connections["default"].settings_dict["NAME"] = db_name


def ticker(db_name: str, now_iso: str, batch: int, start, tasks, errors) -> None:
    """Claim due subscriptions in small batches until none are left; enqueue each run."""
    try:
        _setup(db_name)
        from django.db import connections

        from digests.schedules.scheduler import claim_due_subscriptions

        now = datetime.fromisoformat(now_iso)
        start.wait()
        while runs := claim_due_subscriptions(now=now, limit=batch):
            for run in runs:
                for _ in range(DUPLICATE_DELIVERIES):
                    tasks.put(run.pk)
        connections.close_all()
    except Exception:
        errors.put(traceback.format_exc())


def worker(db_name: str, now_iso: str, start, tasks, errors) -> None:
    """Execute run ids from the queue until a None arrives."""
    try:
        _setup(db_name)
        from django.db import connections

        from digests.runs.runner import execute_run

        now = datetime.fromisoformat(now_iso)
        start.wait()
        while (run_id := tasks.get()) is not None:
            execute_run(run_id, now=now)
        connections.close_all()
    except Exception:
        errors.put(traceback.format_exc())
