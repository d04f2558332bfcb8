"""Handing work to the task queue (django-q2), for every app's tasks module."""

from __future__ import annotations

import logging

from django_q.conf import Conf
from django_q.tasks import async_task

logger = logging.getLogger(__name__)


def enqueue(task: str, *args, group: str) -> bool:
    """Hand a task to the broker. If the broker is unreachable (Redis down, the database
    busy), the work is not lost: its row is pending under a lease (config/leases.py), and the
    tick hands it out again once the lease runs out. So a page that enqueues keeps working."""
    try:
        async_task(task, *args, group=group)
    except Exception:
        if Conf.SYNC:
            raise  # inline (tests): the task itself failed, not the broker
        logger.warning("could not enqueue %s%s; the tick will hand it out again", task, args)
        return False
    return True
