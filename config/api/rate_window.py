"""The requests a throttle counted in its sliding window, kept at a bounded size.

DRF's `SimpleRateThrottle` keeps one timestamp per request in the window and pickles the whole
list into the cache on every request: at a token's 300/min that is at most 300 floats, but the
cost grows with the rate — an operator's 100,000/min allowance for an internal integration, or
the `load` benchmark's rates that refuse nothing, wrote tens of kilobytes per request (1.4 ms to
pickle and compress 6,000 timestamps, twice a request: the user's counter and the token's).

Here the window is cut into `SLICES` slices and each holds `[first, last, count]` of the requests
that arrived in it, newest slice first: at most `SLICES + 1` entries whatever the rate. A slice
leaves the window when its *last* request does, so a request may be counted up to one slice
(a second of a per-minute window) longer than DRF would count it: the limit is never exceeded,
and an allowance comes back at most one slice late. Below one request per slice each slice
holds one request, and the counting is DRF's exactly.

The counters live under keys of their own (`CACHE_FORMAT`, and a signed-in user's together in
`USER_ENTRY_FORMAT`), not DRF's: a process still running the code before this one (a rolling
deploy, a rollback) reads its own counters where it always did instead of failing on these;
what they had counted is forgotten once, at the deploy.
"""

from __future__ import annotations

SLICES = 60
CACHE_FORMAT = "throttle_window_%(scope)s_%(ident)s"
# A signed-in user's counters together, each under its CACHE_FORMAT name (config/api/throttling.py).
USER_ENTRY_FORMAT = "throttle_counters_user_%s"


class RateWindow:
    """The counted requests of one throttle key, as read from the cache and expired at `now`."""

    __slots__ = ("duration", "slices")

    def __init__(self, stored, *, now: float, duration: float):
        self.duration = duration
        self.slices = _slices(stored)
        while self.slices and self.slices[-1][1] <= now - duration:
            self.slices.pop()

    @property
    def count(self) -> int:
        return sum(int(piece[2]) for piece in self.slices)

    def add(self, now: float) -> None:
        newest = self.slices[0] if self.slices else None
        if newest is not None and 0 <= now - newest[0] < self.duration / SLICES:
            newest[1] = now
            newest[2] += 1
        else:
            self.slices.insert(0, [now, now, 1])

    def oldest_leaves_in(self, now: float) -> float:
        """Seconds until the oldest counted slice leaves the window (and its requests with it);
        the whole window when nothing is counted."""
        if not self.slices:
            return self.duration
        return self.slices[-1][1] + self.duration - now

    def stored(self) -> list[list[float]]:
        return self.slices


def _slices(stored) -> list[list[float]]:
    if not isinstance(stored, list) or not all(_is_slice(piece) for piece in stored):
        return []  # nothing counted yet (or not a counter: counting starts again)
    return [list(piece) for piece in stored]


def _is_slice(piece) -> bool:
    return (
        isinstance(piece, list | tuple)
        and len(piece) == 3
        and all(isinstance(part, int | float) for part in piece)
    )
