"""What a run did that costs money, counted while it runs (SPEC §10); billing/prices.py prices
it and billing/charges.py charges it once when the run ends.

The runner makes one `RunMeter` per run, hands it to candidate collection and stores
`breakdown()` in `Run.billing_breakdown`:

    {"operations": {kind: count}, "cache_hits": {kind: count}, "total": n}

`operations` counts every operation of a kind, whether or not a cache answered it; `cache_hits`
is the part of those a cache answered (charged all the same: SPEC §10); `total` is the sum of
`operations`. Every kind is always present, so a run with no billable work records zeros.
"""

from __future__ import annotations

from collections import Counter

KINDS = ("search", "page_fetch", "crawl", "extract")


class RunMeter:
    def __init__(self) -> None:
        self._operations: Counter[str] = Counter()
        self._cache_hits: Counter[str] = Counter()

    def record(self, kind: str, *, count: int = 1, cache_hit: bool = False) -> None:
        if kind not in KINDS:
            raise ValueError(f"Unknown operation kind {kind!r}; use one of {', '.join(KINDS)}.")
        if count < 0:
            raise ValueError("An operation count cannot be negative.")
        self._operations[kind] += count
        if cache_hit:
            self._cache_hits[kind] += count

    @property
    def total(self) -> int:
        return sum(self._operations.values())

    def breakdown(self) -> dict:
        return {
            "operations": {kind: self._operations[kind] for kind in KINDS},
            "cache_hits": {kind: self._cache_hits[kind] for kind in KINDS},
            "total": self.total,
        }
