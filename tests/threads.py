"""Concurrency in tests: calls started at the same moment on threads, each with its own
database connection (what real workers have). Used by the PostgreSQL tests of locks."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from django.db import connection


def at_once(work: Callable, jobs: Iterable, *, timeout: float = 60) -> list:
    """`work(job)` for every job, each on its own thread, released together by a barrier.
    Returns, in job order, what each call returned or the exception it raised."""
    jobs = list(jobs)
    barrier = threading.Barrier(len(jobs))
    outcomes: list = [None] * len(jobs)

    def call(index: int, job) -> None:
        try:
            barrier.wait()
            outcomes[index] = work(job)
        except Exception as exc:
            outcomes[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=call, args=pair) for pair in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    return outcomes
