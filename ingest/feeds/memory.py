"""A per-process bound on the memory that feed parses hold at once.

A refresh batch fetches REFRESH_CONCURRENCY feeds at once (16 by default: the waiting is on the
network), and every thread used to parse as soon as its bytes arrived. A parse holds many
times the document: feedparser's tree, the entries, the sanitized HTML — measured at about 14
times the feed's size (70 MB for a 5 MB feed), so 16 large feeds at once took over 1 GB in one
worker process. Fetching stays concurrent; parsing waits here until the estimate of what it
will hold fits in REFRESH_PARSE_MEMORY_MB. A parse that alone exceeds the budget still runs,
by itself. Small feeds (most of them) barely count.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings

# Peak memory of a parse ÷ the feed's size in bytes, measured with tests/bench/refreshmemory.py.
PARSE_MEMORY_FACTOR = 14
MEGABYTE = 1024 * 1024


class ParseMemoryBudget:
    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._in_use = 0
        self.peak = 0  # the most reserved at once, for the benchmark and the tests

    @property
    def in_use(self) -> int:
        return self._in_use

    @contextmanager
    def reserve(self, content_bytes: int) -> Iterator[None]:
        """Hold the memory a parse of `content_bytes` is expected to need while it runs."""
        limit = settings.REFRESH_PARSE_MEMORY_MB * MEGABYTE
        need = min(content_bytes * PARSE_MEMORY_FACTOR, limit)
        with self._changed:
            self._changed.wait_for(lambda: self._in_use == 0 or self._in_use + need <= limit)
            self._in_use += need
            self.peak = max(self.peak, self._in_use)
        try:
            yield
        finally:
            with self._changed:
                self._in_use -= need
                self._changed.notify_all()


parse_memory = ParseMemoryBudget()
