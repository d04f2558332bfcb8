"""Small hand-written word lists shipped beside the code that uses them (reading levels,
topics in plain words): entries separated by spaces or new lines, `#` starts a comment line.
Read once per process."""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def word_list(path: Path) -> frozenset[str]:
    words: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.lstrip().startswith("#"):
            words.update(line.split())
    return frozenset(words)
