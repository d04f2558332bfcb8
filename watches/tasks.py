"""django-q2 entry point: check the text watches that are due (the dispatcher's tick enqueues
it; a watch is claimed with a conditional update, so a task delivered twice is harmless)."""

from __future__ import annotations

from django.utils import timezone

from watches import service


def check_due_watches() -> int:
    return len(service.check_due(now=timezone.now()))
