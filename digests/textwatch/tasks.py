"""django-q2 entry points. The dispatcher's tick enqueues `tick`, which claims the text watches
that are due and enqueues one `check` each, and sends the Apprise notifications that are due
(retries; a run's first attempts go out at once through `send_run`). All claim their rows with
conditional updates, so a task delivered twice is harmless."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from digests.tasks import enqueue_watch_check
from digests.textwatch import apprise, service


def tick() -> dict:
    now = timezone.now()
    return {
        "handed_out": len(service.hand_out_due(now=now, send=enqueue_watch_check)),
        "apprise": len(apprise.send_due(now=now)),
    }


def check(watch_id: int, claimed_until: datetime | None = None) -> str:
    """One claimed watch's check (enqueued by the tick with the claim's token)."""
    outcome = service.check_claimed(watch_id, now=timezone.now(), claimed_until=claimed_until)
    if outcome is None:
        return "skipped"
    return "changed" if outcome.changed else ("checked" if outcome.ok else "failed")


def send_run(run_id: int) -> int:
    """A run's Apprise notifications, as soon as the run is committed (enqueued by
    digests.tasks.enqueue_apprise); the tick's `send_due` retries what fails."""
    return len(apprise.send_run(run_id, now=timezone.now()))
