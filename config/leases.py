"""Leases on rows that mark background work as in progress (SPEC §14).

Runs, topic editions, source refreshes and deliveries are each a row that a worker claims
before it does the work. django-q2 delivers a task at least once and a worker can die at any
point (`kill -9`, a lost machine, a dropped database connection), so a claim is never "until
done": it is a *lease* that expires `WORK_LEASE_SECONDS` after it was taken or last renewed.

- **Claim**: one conditional UPDATE moves a claimable row to its in-progress status, sets
  `lease_expires_at = now + lease` and counts the attempt (`attempts + 1`). The attempt number
  the claimant saw is its fencing token: a row reclaimed and claimed by someone else has moved
  on to the next number.
- **Heartbeat**: while the work runs, a thread of its own renews the lease every
  `WORK_HEARTBEAT_SECONDS` (and callers may renew at checkpoints with `Heartbeat.beat()`), so a
  long model call or fetch never looks dead.
- **Fence**: the transaction that finishes the work first re-takes the lease with a
  conditional UPDATE on the attempt number (`hold()`); if the row was reclaimed meanwhile, the
  finish writes nothing — the work is never done twice.
- **Reclaim**: the dispatcher tick finds rows whose lease expired (`expired()`) and hands them
  out again, or gives up after a number of attempts; what "again" means (back to pending and
  re-enqueued, due again) belongs to each kind of work.

Lease times live in the claimant's own clock frame: the claim's `now` plus the time elapsed
since, so `manage.py tick --now` in the future and its inline runs agree with each other, and
the tick compares lease times only — never a real creation time with an injected `now`.

`LeasedWork` is the abstract model with the two fields; `digests.Run`, `topics.Edition` and
`ingest.Source` use it, and so can any other row that marks work in progress.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import TypeVar

from django.conf import settings
from django.db import (
    DatabaseError,
    InterfaceError,
    OperationalError,
    connection,
    connections,
    models,
)
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

logger = logging.getLogger(__name__)

T = TypeVar("T")


class LeasedWork(models.Model):
    """A row a worker claims before working on it (see the module's docstring)."""

    attempts = models.PositiveSmallIntegerField(
        default=0, help_text=_("How many times a worker has claimed this work.")
    )
    lease_expires_at = models.DateTimeField(
        null=True,
        blank=True,
        db_index=True,
        help_text=_("Until when the current claim holds; the dispatcher reclaims it after that."),
    )

    class Meta:
        abstract = True


def lease_duration() -> timedelta:
    return timedelta(seconds=settings.WORK_LEASE_SECONDS)


def lease_until(now: datetime) -> datetime:
    return now + lease_duration()


def claim(
    queryset: models.QuerySet, *, now: datetime, seen_attempts: int | None = None, **changes
) -> int:
    """Claim the rows of `queryset` — already narrowed to the rows that may be claimed, so the
    UPDATE is conditional — with a fresh lease and one more attempt. With `seen_attempts`, only
    a row still at that attempt count moves (a compare-and-set: the claimant then knows its
    attempt number, `seen_attempts + 1`). Returns how many rows moved."""
    if seen_attempts is not None:
        queryset = queryset.filter(attempts=seen_attempts)
        attempts = seen_attempts + 1
    else:
        attempts = F("attempts") + 1
    return queryset.update(lease_expires_at=lease_until(now), attempts=attempts, **changes)


def hold(queryset: models.QuerySet, *, attempt: int, now: datetime) -> bool:
    """The fence: inside the transaction that finishes the work, re-take the lease of the one
    row in `queryset` if it is still this claimant's (same attempt). The UPDATE locks the row
    until the transaction ends, so a concurrent reclaim waits and then sees the work done."""
    return bool(queryset.filter(attempts=attempt).update(lease_expires_at=lease_until(now)))


def expired(queryset: models.QuerySet, *, now: datetime) -> models.QuerySet:
    """Rows of `queryset` whose lease ran out (a row without a lease counts as expired)."""
    return queryset.filter(Q(lease_expires_at__lt=now) | Q(lease_expires_at__isnull=True))


def free(now: datetime) -> Q:
    """No live lease on the row: never claimed, released, or expired."""
    return Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lt=now)


class Heartbeat:
    """Renews the leases of `pks` (rows of `model` matching `where`) every heartbeat interval
    from a thread of its own, until stopped; use as a context manager around the work.

    The thread has its own database connection. Inside a transaction (the test suite wraps
    tests in one) another connection would not see the claimed rows, so no thread is started
    and only checkpoint renewals (`beat()`) happen."""

    def __init__(
        self,
        model: type[models.Model],
        pks: Iterable[int],
        *,
        now: datetime,
        interval: float | None = None,
        field: str = "lease_expires_at",
        **where,
    ):
        self.model = model
        # The column that holds the lease: `lease_expires_at` of a LeasedWork row, or another
        # time a claim moved forward (a text watch's `next_check_at`).
        self.field = field
        self.where = where
        self.pks = set(pks)
        self.now = now
        self.started = time.monotonic()
        self.interval = interval if interval is not None else settings.WORK_HEARTBEAT_SECONDS
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def current_now(self) -> datetime:
        """`now` of the claim plus the time elapsed since: the claimant's clock frame."""
        return self.now + timedelta(seconds=time.monotonic() - self.started)

    def release(self, pk: int) -> None:
        """Stop renewing one row (its work is finished)."""
        with self._lock:
            self.pks.discard(pk)

    def beat(self) -> int:
        """Renew now, on the caller's connection; returns how many leases were renewed. A
        database error is logged, never raised: a missed beat only shortens the lease."""
        with self._lock:
            pks = list(self.pks)
        if not pks:
            return 0
        try:
            return self.model._default_manager.filter(
                pk__in=pks, **{f"{self.field}__isnull": False}, **self.where
            ).update(**{self.field: lease_until(self.current_now())})
        except DatabaseError:
            logger.warning("could not renew the leases of %s %s", self.model.__name__, pks)
            if not connection.in_atomic_block:
                connection.close()  # a dropped connection is replaced on the next query
            return 0

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.interval):
                self.beat()
        finally:
            connections.close_all()  # this thread's connections only

    def start(self) -> Heartbeat:
        if self._thread is None and not connection.in_atomic_block and self.interval > 0:
            self._thread = threading.Thread(
                target=self._run, name=f"heartbeat-{self.model.__name__}", daemon=True
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def __enter__(self) -> Heartbeat:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()


STATUS_WRITE_TRIES = 3


def write_status(write: Callable[[], T], *, what: str) -> T | None:
    """Run a status write of a failure handler, surviving a dropped database connection: on a
    database error the connection is closed (Django opens a new one on the next query) and the
    write is tried again. Returns the write's result, or None if every try failed — then the
    row's lease runs out and the dispatcher reclaims it."""
    for attempt in range(1, STATUS_WRITE_TRIES + 1):
        try:
            return write()
        except DatabaseError:
            if connection.in_atomic_block:
                raise  # the caller's transaction is broken; only the caller can end it
            logger.warning("writing the status of %s failed (try %s)", what, attempt, exc_info=True)
            connection.close()
            time.sleep(0.2 * attempt)
    logger.error("could not write the status of %s; its lease will be reclaimed", what)
    return None


def is_transient(exc: BaseException) -> bool:
    """A database error about the connection or the server (dropped, terminated, closed,
    locked, out of resources), as opposed to one about the statement or the data: the same work
    is worth trying again on a new connection."""
    return isinstance(exc, OperationalError | InterfaceError)
