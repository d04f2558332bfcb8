"""Pools for a new blind judged set of the `relevance` benchmark (tests/bench/relevance.py,
BLIND_SETS): what an assessor who never sees the code needs, in the collection's ids.

    python -m tests.bench.relevance_pooling build DIR
        the corpus ingested as the benchmark ingests it, into DIR/pool.sqlite3, and every pool
        item an assessor may search (DIR/pool.jsonl: item = the collection's id, title,
        summary, link); run once
    python -m tests.bench.relevance_pooling pool DIR TOPICS OUT
        for each topic of TOPICS ([{"id", "topic", "also": [collection ids the assessor found
        by their own searches]}]), BM25's best POOL_DEPTH and Tidings' draft preview (as the
        benchmark makes them) and the assessor's own, merged, shuffled and written to OUT
        without saying which found what

    python -m tests.bench.relevance_pooling merge OUT POOLS...
        several `pool` outputs for the same topics (made from checkouts of the code before and
        after a change, so that neither side's picks go unjudged) as one: each topic's
        candidates once, shuffled again

The assessor grades every candidate 0/1/2 (../shared/corpora/relevance/README.md) into a file
of the same shape as topics_data/relevance_third.json, which joins BLIND_SETS. Measure a set
once before tuning on it, and keep one set nothing was tuned on (docs/benchmarks.md).
"""

from __future__ import annotations

import json
import logging
import os
import random
import sys
from pathlib import Path

POOL_DEPTH = 30  # BM25's share of a pool (the collection's own pools took 40 and no preview)


def _use_database(folder: Path) -> None:
    from django.db import connection

    connection.close()
    connection.settings_dict["NAME"] = str(folder / "pool.sqlite3")


def build(folder: Path) -> None:
    from django.core.management import call_command

    from tests.bench import relevance

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pool.sqlite3").unlink(missing_ok=True)
    _use_database(folder)
    call_command("migrate", verbosity=0)
    collection, topics = relevance._collection()
    _topics, paths = relevance._chosen(collection, topics, "full")
    failed = relevance._ingest(paths)
    relevance._spread_over_six_days()
    with (folder / "pool.jsonl").open("w", encoding="utf-8") as out:
        for row, item_id in _pool_with_ids(collection):
            summary = (row["description"] or "")[:600]
            line = {"item": item_id, "title": row["title"], "summary": summary}
            out.write(json.dumps({**line, "link": row["canonical_url"]}, ensure_ascii=False))
            out.write("\n")
    print(f"{len(paths)} feed files, {failed} failed; pool in {folder}")


def _pool_with_ids(collection) -> list[tuple[dict, int]]:
    """Each pool item with its collection id (pool items the collection lacks are left out)."""
    from tests.bench import relevance
    from tests.bench import relevance_metrics as metrics

    found = metrics.JudgedItems.build(collection.values())
    rows: dict[int, dict] = {}
    for row in relevance._pool():
        item_id = found.find(row["canonical_url"], row["title"], row["feeds"])
        # One candidate per judged item: a grade is given to the collection's id, and the
        # title shown is the collection's own when a pool item has it.
        same = metrics.title_key(row["title"] or "") == metrics.title_key(
            collection[item_id]["title"] if item_id is not None else ""
        )
        if item_id is not None and (item_id not in rows or same):
            rows[item_id] = row
    return [(row, item_id) for item_id, row in rows.items()]


def pool(folder: Path, topics_file: Path, out_file: Path) -> None:
    from django.contrib.auth.models import User

    from tests.bench import relevance

    logging.getLogger("bm25s").setLevel(logging.WARNING)  # set by bm25s when imported
    _use_database(folder)
    topics = json.loads(topics_file.read_text("utf-8"))
    collection, _ = relevance._collection()
    pooled = _pool_with_ids(collection)
    collection_id = {row["id"]: item_id for row, item_id in pooled}
    rows = [row for row, _item_id in pooled]
    shown = {item_id: row for row, item_id in pooled}
    user = User.objects.filter(email="relevance-en@tidings.local").first()
    user = user or relevance._users(["en"])["en"]
    bm25 = relevance._bm25_lists(rows, topics, depth=POOL_DEPTH)
    written = []
    for topic in topics:
        _draft, selection = relevance._new_user_draft(user, topic["topic"], use_model=False)
        ids = {collection_id[c.item_id] for c in selection.selected if c.item_id in collection_id}
        ids |= {collection_id[i] for i in bm25[topic["id"]]}
        ids |= {int(i) for i in topic.get("also", ()) if int(i) in shown}
        ordered = sorted(ids)
        random.Random(topic["id"]).shuffle(ordered)  # nothing says which system found what
        candidates = [
            {
                "item": i,
                "title": shown[i]["title"],
                "summary": (shown[i]["description"] or "")[:600],
                "link": shown[i]["canonical_url"],
            }
            for i in ordered
        ]
        written.append({"id": topic["id"], "topic": topic["topic"], "candidates": candidates})
    out_file.write_text(json.dumps(written, ensure_ascii=False, indent=1), "utf-8")
    print(f"{sum(len(t['candidates']) for t in written)} candidates for {len(written)} topics")


def merge(out_file: Path, pool_files: list[Path]) -> None:
    topics: dict[str, dict] = {}
    for pool_file in pool_files:
        for topic in json.loads(pool_file.read_text("utf-8")):
            merged = topics.setdefault(topic["id"], {**topic, "candidates": []})
            known = {c["item"] for c in merged["candidates"]}
            merged["candidates"] += [c for c in topic["candidates"] if c["item"] not in known]
    for topic_id, topic in topics.items():
        random.Random(f"{topic_id}-merged").shuffle(topic["candidates"])
    written = list(topics.values())
    out_file.write_text(json.dumps(written, ensure_ascii=False, indent=1), "utf-8")
    print(f"{sum(len(t['candidates']) for t in written)} candidates for {len(written)} topics")


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()
    if len(argv) == 2 and argv[0] == "build":
        build(Path(argv[1]))
    elif len(argv) == 4 and argv[0] == "pool":
        pool(Path(argv[1]), Path(argv[2]), Path(argv[3]))
    elif len(argv) >= 3 and argv[0] == "merge":
        merge(Path(argv[1]), [Path(a) for a in argv[2:]])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
