"""Ratios that a busy neighbour cannot move: measure the two halves in turns and take the
median of the per-pair ratios.

A benchmark whose ratio compares two sizes or two code paths used to measure one half, then the
other: a burst of load on this shared 2-core machine during either half moved the ratio (neardup
read 2.83 busy, 0.94-1.16 quiet). Measured in pairs, a and b a few milliseconds apart, a burst
slows both members of a pair alike and its ratio stays put; the median then drops the pairs a
burst did split.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Interleaved:
    """Seconds of each half, pair by pair (a[i] and b[i] were measured back to back)."""

    a: list[float]
    b: list[float]

    @property
    def ratio(self) -> float:
        """Median of a[i] ÷ b[i]."""
        return statistics.median(x / max(y, 1e-9) for x, y in zip(self.a, self.b, strict=True))

    @property
    def a_p50_ms(self) -> float:
        return round(statistics.median(self.a) * 1000, 2)

    @property
    def b_p50_ms(self) -> float:
        return round(statistics.median(self.b) * 1000, 2)


def interleaved_ratio(
    a: Callable[[int], float], b: Callable[[int], float], pairs: int
) -> Interleaved:
    """Measure `a(i)` and `b(i)` for i in range(pairs), alternately: a b, b a, a b, … (which
    goes first alternates, so whatever the first call leaves warm for the second favours
    neither). Each call times its own work and returns the seconds, so its set-up stays
    outside the figure. `.ratio` is the median of the per-pair ratios a ÷ b."""
    times_a, times_b = [], []
    for i in range(pairs):
        if i % 2:
            times_b.append(b(i))
            times_a.append(a(i))
        else:
            times_a.append(a(i))
            times_b.append(b(i))
    return Interleaved(times_a, times_b)
