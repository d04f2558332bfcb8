"""The three data sizes every benchmark's `run(size=...)` takes.

- "full": the sizes the goals are stated for and the README's figures are measured at;
- "small": a quick look (about a tenth of the data, minutes at most);
- "smoke": seconds, the same code path on a sliver of the data — CI runs every benchmark at
  this size so that one that breaks fails the build. Its figures say nothing about the goals.

Each module states in its docstring what each size means for its data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

SIZES = ("smoke", "small", "full")
# Benchmarks over a corpus read every n-th file of it (sorted by path) below full size.
CORPUS_STEP = {"smoke": 15, "small": 4, "full": 1}

T = TypeVar("T")


def checked(size: str) -> str:
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}, not {size!r}")
    return size


def every_nth(items: Sequence[T], size: str, steps: dict[str, int] = CORPUS_STEP) -> list[T]:
    """The slice of `items` a benchmark reads at `size`: every n-th, starting with the first,
    so the slice keeps the mix of the whole (and is never empty when `items` is not)."""
    return list(items[:: steps[checked(size)]])
