"""Scoped API throttles whose rates are read per request.

DRF's `SimpleRateThrottle` copies `DEFAULT_THROTTLE_RATES` into a class attribute at import, so
a changed setting (a test's override, a reloaded settings module) would go unnoticed; these read
the live `api_settings` each time. The view names its rate with `throttle_scope`.
"""

from __future__ import annotations

from types import SimpleNamespace

from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle


class LiveScopedRateThrottle(ScopedRateThrottle):
    """Per user when signed in, per client IP otherwise (DRF's scoped throttle)."""

    def get_rate(self):
        self.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES
        return super().get_rate()


class ScopedIPRateThrottle(LiveScopedRateThrottle):
    """Per client IP whoever asks: for public endpoints that cost CPU, not the user's quota."""

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
