"""Per-host politeness for the fetch client (SPEC §4.1): at most two requests in flight per
host, a minimum interval between request starts to the same host, and a host's Retry-After.

State lives in Django's cache, so with the Redis cache (REDIS_URL) the limits hold across every
worker process and machine; with the local-memory cache they hold within one process. Every
key expires on its own: a process killed while holding a slot frees it when its lease runs out,
never later than the fetch's own deadline plus a margin.

Hosts are keyed by their normalized name (a leading "www." dropped), not by registrable domain:
without a public suffix list, "the last two labels" would put every *.co.uk or *.github.io
site behind one shared limit.

Waiting is bounded by the caller's deadline (a `time.monotonic()` value); a host that stays
busy past it raises `HostBusy`. Cross-process timestamps use wall-clock time.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import math
import random
import time
import uuid
from collections.abc import Iterator

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)

MAX_IN_FLIGHT_PER_HOST = 2
# A slot's lease outlives the fetch deadline by this much; the fetch can't hold it longer.
LEASE_MARGIN_SECONDS = 5
# Serializes reservations of start times for one host; held for a few cache round trips.
GAP_LOCK_SECONDS = 2
# A 429 without Retry-After still means "back off"; long requests are capped at a day.
DEFAULT_COOLDOWN_SECONDS = 60
MAX_COOLDOWN_SECONDS = 86_400
_POLL_MIN = 0.005
_POLL_MAX = 0.05
_PREFIX = "politeness"


class HostBusy(Exception):
    """The host's turn would not come before the deadline. `retry_after` is set when the host
    itself asked us to wait (Retry-After / 429), in whole seconds from now."""

    def __init__(self, host: str, *, retry_after: int | None = None):
        super().__init__(host)
        self.host = host
        self.retry_after = retry_after


def host_key(host: str) -> str:
    host = host.lower().rstrip(".")
    if host.startswith("www."):
        host = host[4:]
    # Cache keys stay short and printable whatever the name (limit 250 for some backends).
    return host if len(host) <= 120 else hashlib.sha256(host.encode()).hexdigest()


def _key(kind: str, host: str, suffix: str = "") -> str:
    return f"{_PREFIX}:{kind}:{host}{suffix}"


def _min_interval() -> float:
    return settings.FETCH_HOST_MIN_INTERVAL_MS / 1000


def _sleep_until(deadline: float, delay: float) -> None:
    time.sleep(max(0.0, min(delay, deadline - time.monotonic())))


def _backoff(delay: float) -> float:
    # Jitter keeps waiters of one host from polling in lockstep.
    return min(_POLL_MAX, delay * 2) * random.uniform(0.8, 1.2)  # noqa: S311


def _cooldown_left(host: str) -> float:
    not_before = cache.get(_key("not-before", host))
    return 0.0 if not_before is None else not_before - time.time()


def _wait_out_cooldown(host: str, deadline: float) -> None:
    left = _cooldown_left(host)
    if left <= 0:
        return
    if time.monotonic() + left > deadline:
        raise HostBusy(host, retry_after=math.ceil(left))
    _sleep_until(deadline, left)


def _acquire_slot(host: str, deadline: float) -> tuple[str, str]:
    token = uuid.uuid4().hex
    delay = _POLL_MIN
    while True:
        lease = max(1, math.ceil(deadline - time.monotonic()) + LEASE_MARGIN_SECONDS)
        for index in range(MAX_IN_FLIGHT_PER_HOST):
            key = _key("slot", host, f":{index}")
            if cache.add(key, token, timeout=lease):
                return key, token
        if time.monotonic() + delay > deadline:
            raise HostBusy(host)
        time.sleep(delay)
        delay = _backoff(delay)


def _release(key: str, token: str) -> None:
    # Check-then-delete is not atomic, but the lease outlives the holder's deadline, so the
    # key can only belong to somebody else if this process stalled past its own deadline.
    if cache.get(key) == token:
        cache.delete(key)


def _reserve_start(host: str, deadline: float, interval: float) -> float:
    """Reserve the next start time for `host` at least `interval` after the previous one;
    return how long to wait for it. Reservations queue up, so waiters start in turn."""
    lock, token = _key("gap-lock", host), uuid.uuid4().hex
    delay = _POLL_MIN
    while not cache.add(lock, token, timeout=GAP_LOCK_SECONDS):
        if time.monotonic() + delay > deadline:
            raise HostBusy(host)
        time.sleep(delay)
        delay = _backoff(delay)
    try:
        now = time.time()
        start = max(now, cache.get(_key("next-start", host)) or 0.0)
        wait = start - now
        if time.monotonic() + wait > deadline:
            raise HostBusy(host)  # nothing reserved: the turn stays free for others
        cache.set(
            _key("next-start", host), start + interval, timeout=math.ceil(wait + interval) + 1
        )
        return wait
    finally:
        _release(lock, token)


def _confirm_start(host: str, deadline: float, interval: float) -> None:
    """Start now only if the host's previous request really started `interval` ago. A
    reservation says when a request may start, but a thread the machine was slow to wake may
    start late, right on top of the next one's reserved time: the actual start is checked
    (and recorded) under the same lock, and a request too close behind waits the rest."""
    lock = _key("gap-lock", host)
    while True:
        token = uuid.uuid4().hex
        delay = _POLL_MIN
        while not cache.add(lock, token, timeout=GAP_LOCK_SECONDS):
            if time.monotonic() + delay > deadline:
                raise HostBusy(host)
            time.sleep(delay)
            delay = _backoff(delay)
        try:
            now = time.time()
            wait = (cache.get(_key("last-start", host)) or 0.0) + interval - now
            if wait <= 0:
                cache.set(_key("last-start", host), now, timeout=math.ceil(interval) + 1)
                return
        finally:
            _release(lock, token)
        if time.monotonic() + wait > deadline:
            raise HostBusy(host)
        time.sleep(wait)


@contextlib.contextmanager
def turn(host: str, *, deadline: float) -> Iterator[None]:
    """Wait for `host`'s turn, hold one of its slots while the caller sends one request."""
    host = host_key(host)
    _wait_out_cooldown(host, deadline)
    slot = _acquire_slot(host, deadline)
    try:
        # A 429 may have arrived while this request waited for its slot.
        _wait_out_cooldown(host, deadline)
        interval = _min_interval()
        if interval > 0:
            _sleep_until(deadline, _reserve_start(host, deadline, interval))
            _confirm_start(host, deadline, interval)
        yield
    finally:
        _release(*slot)


def note_retry_after(host: str, seconds: int | None) -> None:
    """Remember that `host` asked not to be contacted for `seconds` (None: a bare 429)."""
    host = host_key(host)
    seconds = DEFAULT_COOLDOWN_SECONDS if seconds is None else seconds
    seconds = min(max(seconds, 1), MAX_COOLDOWN_SECONDS)
    not_before = time.time() + seconds
    if not_before > time.time() + _cooldown_left(host):
        cache.set(_key("not-before", host), not_before, timeout=seconds + 1)
    logger.info("host %s asked to wait %s s", host, seconds)
