"""Pools for a blind judged set (tests/bench/relevance_pooling.py): merging two checkouts' pools."""

from __future__ import annotations

import json

from tests.bench import relevance_pooling


def candidate(item: int) -> dict:
    return {"item": item, "title": f"Item {item}", "summary": "", "link": f"https://e.test/{item}"}


def test_merged_pools_hold_each_topics_candidates_once(tmp_path):
    before, after, merged = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "pools.json"
    before.write_text(
        json.dumps([{"id": "x01", "topic": "Emacs", "candidates": [candidate(1), candidate(2)]}])
    )
    after.write_text(
        json.dumps(
            [
                {"id": "x01", "topic": "Emacs", "candidates": [candidate(2), candidate(3)]},
                {"id": "x02", "topic": "MySQL", "candidates": [candidate(4)]},
            ]
        )
    )

    relevance_pooling.merge(merged, [before, after])

    topics = json.loads(merged.read_text())
    assert [t["id"] for t in topics] == ["x01", "x02"]
    assert sorted(c["item"] for c in topics[0]["candidates"]) == [1, 2, 3]
    assert [c["item"] for c in topics[1]["candidates"]] == [4]
