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
from config.client_address import client_address, throttle_bucket


@dataclass(frozen=True)
class RateLimit:
    limit: int
    remaining: int
    reset: int  # seconds


class _LiveRate(SimpleRateThrottle):
    """Reads the live rates, and leaves what it counted on the request for the headers."""

    def get_ident(self, request):
        return throttle_bucket(client_address(request))

    def get_rate(self):
        self.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES
        return super().get_rate()

    def allow_request(self, request, view):
        allowed = super().allow_request(request, view)
        if getattr(self, "rate", None) is not None and getattr(self, "key", None) is not None:
            self._report(request, allowed)
        return allowed

    def _report(self, request, allowed: bool) -> None:
        history = self.history
        remaining = max(0, self.num_requests - len(history))
        reset = math.ceil(history[-1] + self.duration - self.now) if history else 0
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

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def wait_before_another(request, scope: str) -> float | None:
    """For console views: count this request against the API allowance named `scope` (the same
    cache keys as the API view with that `throttle_scope`, so a user's console and API share
    one allowance). None when the request may go ahead, else the seconds to wait."""
    throttle = LiveScopedRateThrottle()
    if throttle.allow_request(request, SimpleNamespace(throttle_scope=scope)):
        return None
    return throttle.wait() or 1.0
