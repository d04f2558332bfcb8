"""django-q2 entry point, enqueued by the dispatcher's tick: check the text watches that are
due and send the Apprise notifications that are due. Both claim their rows with conditional
updates, so a task delivered twice is harmless."""

from __future__ import annotations

from django.utils import timezone

from digests.textwatch import apprise, service


def tick() -> dict:
    now = timezone.now()
    return {
        "checked": len(service.check_due(now=now)),
        "apprise": len(apprise.send_due(now=now)),
    }


def send_run(run_id: int) -> int:
    """A run's Apprise notifications, as soon as the run is committed (enqueued by
    digests.tasks.enqueue_apprise); the tick's `send_due` retries what fails."""
    return len(apprise.send_run(run_id, now=timezone.now()))
