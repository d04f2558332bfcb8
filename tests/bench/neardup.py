"""`neardup`: placing one new item among near-duplicates (SPEC §4.4) in a pool of 10k and then
100k items, and how well the fingerprint tells copies from other
texts.

Data: synthetic article bodies of 150-600 words stitched from a bank of generated sentences
(tests/bench/generate.py: Zipf-like vocabulary, so common phrases recur across unrelated
texts), each pool item stored with its simhash and four bands, loaded in bulk (COPY on
PostgreSQL, executemany on SQLite). The small pool is copied to a second database
(tests/bench/database.py `copy_beside`), which grows to the large size; both stay open.

Measured: `neardup.place(item, text)` — the call made when full text arrives: fingerprint,
store the simhash, move the bands, look up candidates, settle the cluster; inside the caller's
transaction, whose commit is not counted — for PLACEMENTS new items, each placed in both pools
in turns (tests/bench/interleave.py: large, small, small, large, …), half light-edited copies
of items both pools hold (one word replaced), half new texts.
ratio = median over the placements of (time at the large pool ÷ time at the small pool), so
load on the machine cancels out (goal <= 1.3); the ratio of the two p50s is shown beside it.

Quality, in memory: the share of light edits of each kind that land within distance 3 of the
original, and the smallest distance among random pairs of unrelated texts (must stay above 3).

Sizes (tests/bench/sizes.py): full = pools of 10k then 100k, 200 placements each, 1,000 edits
of each kind, 500,000 unrelated pairs; small = 1k then 10k, otherwise as full; smoke = 300 then
1k, 40 placements, 50 edits of each kind, 20,000 pairs. Checks: no new text joined a cluster,
no unrelated pair came within the clustering distance.
"""

from __future__ import annotations

import hashlib
import random
import statistics
import time
from datetime import UTC, datetime

from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from ingest.models import ContentItem, SimhashBand
from ingest.pool import neardup
from tests.bench.database import copy_beside, using
from tests.bench.generate import TextBank, analyze, load_rows
from tests.bench.interleave import interleaved_ratio

SIZES = {"full": (10_000, 100_000), "small": (1_000, 10_000), "smoke": (300, 1_000)}
PLACEMENTS = {"full": 200, "small": 200, "smoke": 40}
UNRELATED_PAIRS = {"full": 500_000, "small": 500_000, "smoke": 20_000}
EDIT_SAMPLES = {"full": 1_000, "small": 1_000, "smoke": 50}
NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)
SEED = 4242


class Bodies:
    """Article-length texts from the shared sentence bank, reproducible by index."""

    def __init__(self):
        self.bank = TextBank()

    def body(self, n: int) -> tuple[str, str]:
        rng = random.Random(SEED * 1_000_003 + n)
        words = rng.randint(150, 600)
        parts, count = [], 0
        while count < words:
            sentence = rng.choice(self.bank.sentences)
            parts.append(sentence)
            count += sentence.count(" ") + 1
        title = rng.choice(self.bank.sentences).rstrip(".")[:120]
        return title, " ".join(parts)


def light_edit(text: str, rng: random.Random, kind: str) -> str:
    words = text.split(" ")
    if kind == "one word replaced":
        at = rng.randrange(len(words))
        words[at] = "changed"
    elif kind == "two words replaced":
        for at in rng.sample(range(len(words)), 2):
            words[at] = "changed"
    elif kind == "one word added":
        words.insert(rng.randrange(len(words)), "indeed")
    elif kind == "a 5-word sentence added":
        words.insert(0, "Updated at noon local time.")
    return " ".join(words)


EDIT_KINDS = (
    "one word replaced",
    "two words replaced",
    "one word added",
    "a 5-word sentence added",
)


def _grow_pool(bodies: Bodies, start: int, stop: int) -> float:
    """Bodies start..stop-1 as pool items with simhash and bands; returns seconds taken."""
    started = time.perf_counter()
    first_id = (ContentItem.objects.order_by("-id").values_list("id", flat=True).first() or 0) + 1
    for low in range(start, stop, 20_000):
        rows, bands = [], {}
        for n in range(low, min(stop, low + 20_000)):
            title, body = bodies.body(n)
            value = neardup.fingerprint(body)
            url = f"https://pool.example/{n}"
            rows.append(
                {
                    "id": first_id + n - start,
                    "canonical_url": url,
                    "canonical_url_hash": hashlib.sha256(url.encode()).hexdigest(),
                    "title": title,
                    "normalized_title": title.lower(),
                    "description": body[:300],
                    "site_name": "Pool",
                    "published_at": NOW,
                    "first_seen_at": NOW,
                    "last_seen_at": NOW,
                    "last_fetched_at": NOW,
                    "simhash": neardup.to_signed(value),
                }
            )
            bands[first_id + n - start] = value
        load_rows(ContentItem, rows)
        with transaction.atomic():
            neardup.store_bands(bands)
    analyze()
    return time.perf_counter() - started


def _placement(bodies: Bodies, small: int, n: int, side: dict) -> float:
    """Place new item n (the same text at either size: a light edit of a pool item both
    pools hold, or a new text) in the current database; returns the seconds it took."""
    rng = random.Random(SEED + n)
    copy = n % 2 == 0
    if copy:
        title, body = bodies.body(rng.randrange(small))
        text = light_edit(body, rng, "one word replaced")
    else:
        title, text = bodies.body(10_000_000 + n)
    url = f"https://new.example/{n}"
    item = ContentItem.objects.create(
        canonical_url=url,
        canonical_url_hash=hashlib.sha256(url.encode()).hexdigest(),
        title=title,
        description=text[:300],
        first_seen_at=NOW,
        last_seen_at=NOW,
    )
    # Inside the caller's transaction, as extraction calls it (storing the text and
    # placing it commit together): the commit is the caller's, not timed here.
    with transaction.atomic(), CaptureQueriesContext(connection) as captured:
        started = time.perf_counter()
        neardup.place(item, text)
        elapsed = time.perf_counter() - started
    side["queries"].add(sum(not _is_transaction_control(q["sql"]) for q in captured))
    clustered = item.cluster_id is not None
    side["copies_clustered"] += copy and clustered
    side["new_texts_clustered"] += (not copy) and clustered
    return elapsed


def _side() -> dict:
    return {"queries": set(), "copies_clustered": 0, "new_texts_clustered": 0}


def _figures(side: dict, timings: list[float], placements: int) -> dict:
    timings = sorted(timings)
    return {
        "pool_items": ContentItem.objects.count(),
        "bands": SimhashBand.objects.count(),
        "p50_ms": round(statistics.median(timings) * 1000, 2),
        "p95_ms": round(timings[int(len(timings) * 0.95) - 1] * 1000, 2),
        "queries_per_placement": sorted(side["queries"]),
        "copies_clustered": f"{side['copies_clustered']}/{placements // 2}",
        "new_texts_clustered": f"{side['new_texts_clustered']}/{placements // 2}",
        "new_texts_alone": side["new_texts_clustered"] == 0,
    }


def _is_transaction_control(sql: str) -> bool:
    return sql.startswith(("BEGIN", "SAVEPOINT", "RELEASE SAVEPOINT", "COMMIT"))


def _quality(bodies: Bodies, pool_size: int, samples: int, pairs: int) -> dict:
    rng = random.Random(SEED)
    edits = {}
    for kind in EDIT_KINDS:
        near = 0
        for _ in range(samples):
            _title, body = bodies.body(rng.randrange(pool_size))
            near += neardup.is_near(
                neardup.fingerprint(body), neardup.fingerprint(light_edit(body, rng, kind))
            )
        edits[kind] = round(near / samples, 3)
    values = [
        neardup.to_unsigned(v)
        for v in ContentItem.objects.filter(canonical_url__startswith="https://pool.")
        .exclude(simhash=None)
        .values_list("simhash", flat=True)[:20_000]
    ]
    smallest = 64
    for _ in range(pairs):
        a, b = rng.sample(values, 2)
        smallest = min(smallest, neardup.distance(a, b))
    return {
        "light_edits_within_3": edits,
        "unrelated_pairs": pairs,
        "unrelated_min_distance": smallest,
    }


def run(size: str = "full") -> dict:
    small, large = SIZES[size]
    bodies = Bodies()
    placements = PLACEMENTS[size]
    made_small = _grow_pool(bodies, 0, small)
    at_small, at_large = _side(), _side()
    with copy_beside() as large_db:
        with using(large_db):
            made_large = _grow_pool(bodies, small, large)

        def place_large(n: int) -> float:
            with using(large_db):
                return _placement(bodies, small, n, at_large)

        # The two pools side by side, placements in turns: a busy stretch slows both alike.
        timed = interleaved_ratio(
            place_large, lambda n: _placement(bodies, small, n, at_small), placements
        )
        small_figures = _figures(at_small, timed.b, placements)
        with using(large_db):
            large_figures = _figures(at_large, timed.a, placements)
            quality = _quality(bodies, large, EDIT_SAMPLES[size], UNRELATED_PAIRS[size])
    return {
        "name": "neardup",
        "database": connection.vendor,
        "size": size,
        "placements_per_size": placements,
        "small": small_figures,
        "large": large_figures,
        "making_pool_seconds": [round(made_small, 1), round(made_large, 1)],
        **quality,
        "ratio_of_p50s": round(large_figures["p50_ms"] / small_figures["p50_ms"], 2),
        "ratio": round(timed.ratio, 2),
        "checks": {
            "no new text joined a cluster": small_figures["new_texts_alone"]
            and large_figures["new_texts_alone"],
            "unrelated texts stay apart": quality["unrelated_min_distance"] > neardup.MAX_DISTANCE,
        },
    }


def describe(result: dict) -> list[str]:
    lines = [
        f"neardup benchmark on {result['database']} ({result['size']} sizes) — place one item "
        f"with its full text, {result['placements_per_size']} placements per size "
        "(half light-edited copies of pool items, half new texts); bodies of 150-600 words"
    ]
    for key in ("small", "large"):
        r = result[key]
        lines.append(
            f"  pool {r['pool_items']:,} items / {r['bands']:,} bands: p50 {r['p50_ms']} ms, "
            f"p95 {r['p95_ms']} ms, queries per placement {r['queries_per_placement']}; "
            f"copies clustered {r['copies_clustered']}, new texts clustered "
            f"{r['new_texts_clustered']}"
        )
    lines.append(f"  making the pools: {result['making_pool_seconds']} s")
    edits = ", ".join(f"{k} {v:.1%}" for k, v in result["light_edits_within_3"].items())
    lines.append(f"  light edits within distance 3: {edits}")
    lines.append(
        f"  unrelated texts: smallest distance among {result['unrelated_pairs']:,} random pairs "
        f"= {result['unrelated_min_distance']} (clusters at <= {neardup.MAX_DISTANCE})"
    )
    lines.append(
        f"  ratio (median of per-pair large ÷ small, placements in turns; goal <= 1.3): "
        f"{result['ratio']} (p50 large ÷ p50 small: {result['ratio_of_p50s']})"
    )
    return lines
