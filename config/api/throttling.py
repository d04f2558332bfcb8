"""API throttles: per client address for anonymous calls, per user, per token, and scoped
rates a view names with `throttle_scope`; each reports its allowance in rate-limit headers.

Every class here reads its rate from the live `api_settings` on each request: DRF's
`SimpleRateThrottle` copies `DEFAULT_THROTTLE_RATES` into a class attribute at import, so a
changed setting (a test's override, a reloaded settings module) would go unnoticed.

A token has an allowance of its own (`token` rate) inside its user's (`user` rate): one
runaway script cannot spend what the user's other tools and the console need, and revoking
its token is all it takes to stop it. The client address is `config.client_address`'s (the
trusted-proxy setting), never DRF's own reading of `X-Forwarded-For`, which believes anyone.

Headers, on every API answer that a throttle counted (config/api/middleware.py adds them):
`X-RateLimit-Limit` (requests in the window), `X-RateLimit-Remaining`, `X-RateLimit-Reset`
(seconds until the oldest counted request leaves the window) — for the throttle with the least
left. A refused request gets 429 with `Retry-After` (config/api/errors.py).

A signed-in user's counters (the user's, each token's, each scope's) are kept together in one
cache entry (`USER_ENTRY_FORMAT`): a token request reads one entry and writes one, where a
counter per entry cost a file read and a file write each with the default file cache (a fifth
of an API request's time). An entry holds the counters used within their windows, so its size
is bounded by the user's active tokens (MAX_ACTIVE_TOKENS, app passwords included) and
scopes; a revoked token's counter leaves with its last request's window. Counters per client
address are entries of their own. The REST API
counts through `ApiRateThrottle`, the four above in one, with one `get_many` and one
`set_many`; the reading-app protocols and the assistants count through the single throttles,
in the same entries, so they share the allowance.

Every counter is a `RateWindow` (config/api/rate_window.py): its size does not grow with the
rate, as DRF's list of a timestamp per request does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import SimpleNamespace

from rest_framework.settings import api_settings
from rest_framework.throttling import (
    AnonRateThrottle,
    ScopedRateThrottle,
    SimpleRateThrottle,
    UserRateThrottle,
)

from config.api.middleware import RATE_LIMIT_ATTRIBUTE
from config.api.rate_window import CACHE_FORMAT, USER_ENTRY_FORMAT, RateWindow
from config.client_address import client_address, throttle_bucket


@dataclass(frozen=True)
class RateLimit:
    limit: int
    remaining: int
    reset: int  # seconds


class _LiveRate(SimpleRateThrottle):
    """Reads the live rates, counts in a `RateWindow` (bounded whatever the rate, where DRF
    keeps a timestamp per request), and leaves what it counted on the request for the headers."""

    cache_format = CACHE_FORMAT
    window: RateWindow | None = None
    # Whether a signed-in user's counter of this kind lives in the user's entry.
    per_user = True
    entry: str | None = None  # that entry's key; None: the counter is an entry of its own

    def get_ident(self, request):
        return throttle_bucket(client_address(request))

    def get_rate(self):
        self.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES
        return super().get_rate()

    def allow_request(self, request, view):
        if not _counts(self, request, view):
            return True
        return not _count_together([self], request)

    def _count(self, stored, request) -> bool:
        """Whether this request fits the allowance, given the key's stored counter; counts it
        when it does (the caller writes the counter back)."""
        self.now = self.timer()
        self.window = RateWindow(stored, now=self.now, duration=self.duration)
        allowed = self.window.count < self.num_requests
        if allowed:
            self.window.add(self.now)
        self._report(request, allowed)
        return allowed

    def wait(self):
        """DRF's spacing: the time until the oldest counted requests leave, shared by the
        requests the allowance will then have room for."""
        window = self.window
        counted = window.count if window else 0
        available = self.num_requests - counted + 1
        if available <= 0:
            return None
        left = window.oldest_leaves_in(self.now) if window else self.duration
        return left / float(available)

    def _report(self, request, allowed: bool) -> None:
        window = self.window
        remaining = max(0, self.num_requests - window.count)
        reset = math.ceil(window.oldest_leaves_in(self.now)) if window.slices else 0
        current = RateLimit(self.num_requests, remaining, max(0, reset))
        target = getattr(request, "_request", request)  # the HttpRequest the middleware sees
        previous = getattr(target, RATE_LIMIT_ATTRIBUTE, None)
        if previous is None or (current.remaining, current.limit) < (
            previous.remaining,
            previous.limit,
        ):
            setattr(target, RATE_LIMIT_ATTRIBUTE, current)


class LiveAnonRateThrottle(_LiveRate, AnonRateThrottle):
    """Anonymous callers, per client address (`anon` rate)."""

    per_user = False


class LiveUserRateThrottle(_LiveRate, UserRateThrottle):
    """Signed-in callers, per user whichever token or session they use (`user` rate)."""


class TokenRateThrottle(_LiveRate):
    """Each personal API token on its own (`token` rate); sessions are not counted here."""

    scope = "token"

    def get_cache_key(self, request, view):
        token_id = getattr(request.auth, "pk", None)
        if token_id is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": token_id}


class LiveScopedRateThrottle(_LiveRate, ScopedRateThrottle):
    """Per user when signed in, per client address otherwise, at the rate the view names with
    `throttle_scope` (a view without one is not counted)."""


class ScopedIPRateThrottle(LiveScopedRateThrottle):
    """Per client address whoever asks: for public endpoints that cost CPU, not the user's quota."""

    per_user = False

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class ApiRateThrottle:
    """The default throttles (anonymous, user, token, scoped) as one: the counters this request
    touches read in one cache round trip and written in one. Each part counts exactly as it
    would alone (DRF asks every throttle, so a part that allows records the request even when
    another refuses); `wait()` is the longest wait of the parts that refused."""

    PARTS = (LiveAnonRateThrottle, LiveUserRateThrottle, TokenRateThrottle, LiveScopedRateThrottle)

    def __init__(self):
        self._refused: list[_LiveRate] = []

    def allow_request(self, request, view) -> bool:
        counting = [t for t in (part() for part in self.PARTS) if _counts(t, request, view)]
        if counting:
            self._refused = _count_together(counting, request)
        return not self._refused

    def wait(self):
        waits = [w for w in (t.wait() for t in self._refused) if w is not None]
        return max(waits, default=None)


def _counts(throttle: SimpleRateThrottle, request, view) -> bool:
    """Whether `throttle` counts this request: what its `allow_request` settles before reading
    the cache (the scope a view names, the rate, the key); leaves them on the throttle."""
    if isinstance(throttle, ScopedRateThrottle):
        throttle.scope = getattr(view, throttle.scope_attr, None)
        if not throttle.scope:
            return False
        throttle.rate = throttle.get_rate()
        throttle.num_requests, throttle.duration = throttle.parse_rate(throttle.rate)
    if throttle.rate is None:
        return False
    throttle.key = throttle.get_cache_key(request, view)
    user = getattr(request, "user", None)
    signed_in = user is not None and user.is_authenticated
    throttle.entry = USER_ENTRY_FORMAT % user.pk if throttle.per_user and signed_in else None
    return throttle.key is not None


def _count_together(throttles: list[_LiveRate], request) -> list[_LiveRate]:
    """Count this request with each of `throttles` (each exactly as it would alone: one that
    allows records the request even when another refuses) and return those that refused. Their
    entries are read with one `get_many` and written with one `set_many` per timeout."""
    cache = throttles[0].cache
    stored = cache.get_many(list(dict.fromkeys(t.entry or t.key for t in throttles)))
    entries: dict[str, dict] = {}  # a user's entry: {counter key: [duration, window]}
    writes: dict[str, tuple[object, int]] = {}  # entry key -> (value, timeout)
    refused, now = [], None
    for throttle in throttles:
        if throttle.entry:
            counters = entries.setdefault(throttle.entry, _counters(stored.get(throttle.entry)))
            allowed = throttle._count(counters.get(throttle.key, (0, None))[1], request)
            if allowed:
                counters[throttle.key] = [throttle.duration, throttle.window.stored()]
                writes[throttle.entry] = (counters, 0)  # the timeout is settled below
        else:
            allowed = throttle._count(stored.get(throttle.key), request)
            if allowed:
                writes[throttle.key] = (throttle.window.stored(), throttle.duration)
        now = throttle.now
        if not allowed:
            refused.append(throttle)
    by_timeout: dict[int, dict] = {}
    for key, (value, timeout) in writes.items():
        if key in entries:
            value = _unexpired(value, now)
            timeout = max(duration for duration, _window in value.values())
        by_timeout.setdefault(timeout, {})[key] = value
    for timeout, values in by_timeout.items():
        cache.set_many(values, timeout)
    return refused


def _counters(stored) -> dict:
    """A user's entry as read from the cache; a damaged one counts nothing (counting starts
    again), as a damaged counter does."""
    if not isinstance(stored, dict):
        return {}
    return {
        key: [value[0], value[1]]
        for key, value in stored.items()
        if isinstance(key, str)
        and isinstance(value, list | tuple)
        and len(value) == 2
        and isinstance(value[0], int | float)
        and value[0] > 0
    }


def _unexpired(counters: dict, now: float) -> dict:
    """The entry without the counters whose every request has left its window (a token no
    longer used, a scope not asked for a while), so an entry holds what still counts."""
    kept = {}
    for key, (duration, window) in counters.items():
        slices = RateWindow(window, now=now, duration=duration).stored()
        if slices:
            kept[key] = [duration, slices]
    return kept


def wait_before_another(request, scope: str) -> float | None:
    """For console views: count this request against the API allowance named `scope` (the same
    cache keys as the API view with that `throttle_scope`, so a user's console and API share
    one allowance). None when the request may go ahead, else the seconds to wait."""
    throttle = LiveScopedRateThrottle()
    if throttle.allow_request(request, SimpleNamespace(throttle_scope=scope)):
        return None
    return throttle.wait() or 1.0
