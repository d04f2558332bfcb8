"""Whether two `relevance` benchmark results ranked every topic the same: the check a change
meant to make the preview faster (not to rank differently) must pass (issue #27).

    python -m tests.bench relevance --size full --json | tail -1 > before.json
    (make the change)
    python -m tests.bench relevance --size full --json | tail -1 > after.json
    python -m tests.bench.relevance_same before.json after.json

Each topic's top-10 (corpus and CJK parts) is compared byte for byte: the same titles in the
same order, with the same item ids (both runs ingest the same corpus into a fresh pool in the
same order). Exits 1 and names each topic whose list differs, else prints how many matched.
Not a benchmark of its own (no `run`): a tool over two results.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

PARTS = ("corpus", "cjk")


def top_lists(result: dict) -> dict[str, list[tuple[int, str]]]:
    """{part/topic id: [(item id, title), ...]} of Tidings' previews in one result."""
    lists = {}
    for part in PARTS:
        for outcome in result.get(part, {}).get("topics", []):
            entries = outcome["tidings"]["list"]
            lists[f"{part}/{outcome['id']}"] = [(e["item_id"], e["title"]) for e in entries]
    return lists


def differences(before: dict, after: dict) -> list[str]:
    """One line per topic whose top list is not byte-for-byte the same (or is missing)."""
    old, new = top_lists(before), top_lists(after)
    lines = []
    for key in sorted(old.keys() | new.keys()):
        if key not in old or key not in new:
            lines.append(f"{key}: only in {'after' if key not in old else 'before'}")
        elif old[key] != new[key]:
            first = next(
                (i for i, (a, b) in enumerate(zip(old[key], new[key], strict=False)) if a != b),
                min(len(old[key]), len(new[key])),
            )
            lines.append(f"{key}: differs from rank {first + 1}")
    return lines


def _load(path: str) -> dict:
    text = Path(path).read_text().strip().splitlines()[-1]  # --json ends with the object
    return json.loads(text)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m tests.bench.relevance_same BEFORE.json AFTER.json")
        return 2
    before, after = (_load(p) for p in argv)
    lines = differences(before, after)
    for line in lines:
        print(line)
    if not lines:
        print(f"same top lists for all {len(top_lists(before))} topics")
    return 1 if lines else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
