"""`relevance`: how good a new user's draft preview is for a plain-language topic, measured
against graded judgments, beside a BM25 library baseline over the same pool in the same run.

Data, ten parts, two pools:

- `corpus`: ../shared/corpora/relevance, a judged collection over the 285 feeds of
  ../shared/corpora/feeds (topics as readers typed them, candidates graded 0/1/2 by assessors
  who never saw Tidings; its README says how it was made). Without it this part is skipped
  (and said so); the CJK part still runs.
- `second` … `ninth`: 18, 16, 14, 14, 12, 14, 16 and 16 more topics over the same pool as
  `corpus` (topics_data/relevance_second.json … _ninth.json), judged the same way, blind, by
  assessors who never saw the code or the development topics (2026-11-29). A check that what
  is tuned on the development topics generalizes. Each was measured before anything was tuned
  on it; the second to sixth have since been used to choose changes, the seventh to ninth only
  to check them (each file's "about" says). Keep one set that nothing is tuned on; a new set's
  pools are made with tests/bench/relevance_pooling.py.
- `cjk`: the 36 hand-written Chinese, Japanese and Korean items of the `topics` benchmark
  (topics_data/multilingual_feed.json), 24 more written for this part (relevance_cjk_feed.json:
  more same-language items per topic, and near misses that share a word with one) and 15 topics
  of our own (topics_data/relevance_cjk.json), every item judged for every topic. Written by
  the project, not by blind assessors: a smoke alarm for CJK, not a collection to tune on.

Sizes (tests/bench/sizes.py): `full` ingests every feed file of the corpus (8,715 items in
the collection) and evaluates every topic; `small` takes the five topics whose judged items
lie in the fewest bytes of feed files and ingests just those files; `smoke` the same with
three topics. The smaller pools are easier (fewer distractors): their figures say nothing about
the goals. The CJK part is whole at every size. Previews are timed `REPEATS[size]` times.

Method. The real ingest (ingest.refresh.pipeline.refresh_source, one feed source per file)
into a fresh pool; every item's publication time then spread over the six days before a fixed
`NOW`, so the default content window (7 days) holds the whole pool, and the database analyzed
(tests.bench.generate.analyze: the steady state autovacuum reaches). New users signed up for the
run (interface language English for the corpus, the topic's language for CJK). For each topic,
the subscription form's draft preview exactly as a new user gets it: the form's posted values
(digests.subscriptions.forms.draft_data: the topic only, length Brief = 10 items, no interests,
no exclusions, no sources), digests.subscriptions.service.draft as the form's draft view calls
it (interests suggested from the topic), then digests.runs.runner.preview of that unsaved
subscription. No model key: the interests come from the extractor
(digests/subscriptions/topic_terms.py). Timed per topic (draft + preview, as the form's
request does them): p50 and p99.

Pool items are matched to judged items by link, else title (tests/bench/relevance_metrics.py);
figures per ranked list: nDCG@10 over the condensed list (unjudged dropped, gain 2^g − 1, ideal
from the topic's judged grades), precision (judged items with grade ≥ 1 ÷ judged returned; none
when nothing judged was returned, left out of the mean) and the judged share of what was
returned. The baseline: `bm25s` (Lucene BM25, k1 1.5, b 0.75) over every active pool item's
title + summary (the stored plain-text description), the topic's words as the query, one
tokenization for both sides (NFKC, lower case, split on non-word characters, CJK runs cut
into words by Tidings' own segmenter, ingest/text/segment.py), the top 10 with a score.
ratio = Tidings' mean nDCG@10 ÷ BM25's (corpus).

The `model` rows measure the pipeline, not a model: the same draft preview with a model key,
against the tests' fake Messages API (tests/digests/fake_anthropic.py), whose canned
`suggest_interests` answer splits the topic at commas and "and" (plus initials). Checks: no
feed file failed; each topic's preview is the same list every time; the fake was asked once per
distinct topic (one typed again is the combination cache's). The ranked lists (titles with
grades, U for unjudged) go to var/bench/relevance-<db>.txt.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import bm25s
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import QueryDict

from digests.runs import runner
from digests.subscriptions import service as subscriptions
from digests.subscriptions.forms import draft_data
from digests.subscriptions.interests import normalized_topic
from inbox.accounts import sign_up
from ingest.models import ContentItem, ContentItemSource, Source
from ingest.refresh.pipeline import refresh_source
from tests.bench import relevance_metrics as metrics
from tests.bench.corpus import SHARED_FEEDS, feed_files
from tests.bench.generate import analyze
from tests.bench.sizes import checked
from tests.digests.fake_anthropic import FakeAnthropic, quiet_client_logs

COLLECTION = SHARED_FEEDS.parent / "relevance"
CJK_FEED = Path(__file__).parent / "topics_data" / "multilingual_feed.json"
# More items for the CJK part only (not in the `topics` benchmark's pool): further same-language
# items for each topic and near misses that share a word with one.
CJK_MORE = Path(__file__).parent / "topics_data" / "relevance_cjk_feed.json"
CJK_TOPICS = Path(__file__).parent / "topics_data" / "relevance_cjk.json"
# More judged sets over the same collection, each judged blind by an assessor who never saw the
# code or the development topics (each file's "about" says how).
BLIND_SETS = {
    "second": Path(__file__).parent / "topics_data" / "relevance_second.json",
    "third": Path(__file__).parent / "topics_data" / "relevance_third.json",
    "fourth": Path(__file__).parent / "topics_data" / "relevance_fourth.json",
    "fifth": Path(__file__).parent / "topics_data" / "relevance_fifth.json",
    "sixth": Path(__file__).parent / "topics_data" / "relevance_sixth.json",
    "seventh": Path(__file__).parent / "topics_data" / "relevance_seventh.json",
    "eighth": Path(__file__).parent / "topics_data" / "relevance_eighth.json",
    "ninth": Path(__file__).parent / "topics_data" / "relevance_ninth.json",
}
# Fixed, so a run never depends on the wall clock; the corpus's own dates are years old.
NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
SPREAD_MINUTES = 6 * 24 * 60
TOPICS_AT = {"smoke": 3, "small": 5, "full": None}
REPEATS = {"smoke": 5, "small": 10, "full": 20}
BM25 = {"k1": 1.5, "b": 0.75, "method": "lucene"}


def _collection() -> tuple[dict[int, dict], list[dict]]:
    items = {}
    with (COLLECTION / "items.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            items[row["id"]] = row
    topics = json.loads((COLLECTION / "topics.json").read_text("utf-8"))
    return items, topics


def _chosen(items: dict[int, dict], topics: list[dict], size: str) -> tuple[list[dict], list]:
    """The topics evaluated at `size` and the feed files read for them."""
    every_file = feed_files(SHARED_FEEDS)
    count = TOPICS_AT[checked(size)]
    if count is None:
        return topics, every_file
    by_name = {str(path.relative_to(SHARED_FEEDS)): path for path in every_file}

    def files_of(topic: dict) -> set[str]:
        return {items[int(i)]["feed"] for i in topic["judgments"]} & by_name.keys()

    def weight(topic: dict) -> tuple[int, str]:
        return sum(by_name[name].stat().st_size for name in files_of(topic)), topic["id"]

    chosen = sorted(topics, key=weight)[:count]
    names = set().union(*(files_of(topic) for topic in chosen))
    return sorted(chosen, key=lambda t: t["id"]), [by_name[name] for name in sorted(names)]


def _ingest(paths: list[Path]) -> int:
    failed = 0
    for index, path in enumerate(paths):
        source = Source.objects.create(
            type=Source.Type.FEED,
            config={"file": str(path)},
            config_hash=f"relevance-bench-{index:06d}",
            title=path.stem,
        )
        failed += not refresh_source(source, now=NOW).ok
    return failed


def _spread_over_six_days() -> None:
    items = list(ContentItem.objects.only("id").order_by("id"))
    for index, item in enumerate(items):
        # A stride coprime with the span: neighbours (one feed's items) land days apart.
        minutes = 30 + (index * 7919) % (SPREAD_MINUTES - 60)
        item.published_at = item.first_seen_at = NOW - timedelta(minutes=minutes)
    ContentItem.objects.bulk_update(items, ["published_at", "first_seen_at"], batch_size=500)


def _pool() -> list[dict]:
    """Every active pool item with the feed files it was read from."""
    rows = list(
        ContentItem.objects.filter(status=ContentItem.Status.ACTIVE)
        .order_by("id")
        .values("id", "canonical_url", "title", "description")
    )
    files: dict[int, set[str]] = {}
    for item_id, config in ContentItemSource.objects.values_list("item_id", "source__config"):
        path = Path(config.get("file", ""))
        if path.is_relative_to(SHARED_FEEDS):
            files.setdefault(item_id, set()).add(str(path.relative_to(SHARED_FEEDS)))
    for row in rows:
        row["feeds"] = files.get(row["id"], set())
    return rows


def _new_user_draft(user, topic: str, *, use_model: bool):
    """What the subscription form's draft view does when a new user types a topic and picks
    the Brief length: `draft=auto` with no interests typed suggests them (views._draft)."""
    post = QueryDict(mutable=True)
    post.update({"topic": topic, "interests": "", "negative_keywords": "", "length": "brief"})
    draft = subscriptions.draft(user, draft_data(post), now=NOW, suggest=True, use_model=use_model)
    selection = runner.preview(draft.subscription, now=NOW, source_ids=draft.source_ids)
    return draft, selection


def _bm25_lists(
    pool: list[dict], topics: list[dict], depth: int = metrics.DEPTH
) -> dict[str, list[int]]:
    retriever = bm25s.BM25(**BM25)
    documents = [metrics.tokens(f"{row['title']} {row['description']}") for row in pool]
    retriever.index(documents, show_progress=False)
    lists = {}
    for topic in topics:
        scores = retriever.get_scores(metrics.tokens(topic["topic"]))
        ranked = sorted(
            (i for i in range(len(pool)) if scores[i] > 0), key=lambda i: (-scores[i], i)
        )
        lists[topic["id"]] = [pool[i]["id"] for i in ranked[:depth]]
    return lists


def _listed(item_ids: list[int], grades: dict[int, int | None], titles: dict[int, str]):
    return [{"item_id": i, "grade": grades.get(i), "title": titles[i]} for i in item_ids]


def _timed_previews(user, topic: str, repeats: int) -> tuple[dict, bool]:
    timings, lists = [], []
    for _ in range(repeats):
        started = time.perf_counter()
        draft, selection = _new_user_draft(user, topic, use_model=False)
        timings.append((time.perf_counter() - started) * 1000)
        lists.append([c.item_id for c in selection.selected])
    outcome = {
        "interests": list(draft.subscription.interests),
        "item_ids": lists[0],
        "candidates": selection.candidates_count,
        "matched": selection.matched,
        "above_min_score": selection.above_min_score,
        "advice": selection.advice,
        "p50_ms": round(metrics.percentile(timings, 0.5), 1),
        "p99_ms": round(metrics.percentile(timings, 0.99), 1),
    }
    return outcome, all(ids == lists[0] for ids in lists)


@dataclass
class Part:
    """One pool and its judged topics: `grades[topic id]` maps every pool item to its grade
    for the topic (None: unjudged); `judged[topic id]` is every grade the topic was given."""

    name: str
    topics: list[dict]
    grades: dict[str, dict[int, int | None]]
    judged: dict[str, list[int]]
    users: dict[str, object]  # by locale
    pool: list[dict]
    data: dict = field(default_factory=dict)


def _measure(part: Part, repeats: int) -> dict:
    """Tidings (no model), BM25 and the model pipeline over one part's pool."""
    titles = {row["id"]: row["title"] or row["canonical_url"] for row in part.pool}
    started = time.perf_counter()
    bm25_lists = _bm25_lists(part.pool, part.topics)
    bm25_seconds = time.perf_counter() - started
    outcomes, stable = [], True
    for topic in part.topics:
        grades, judged = part.grades[topic["id"]], part.judged[topic["id"]]
        user = part.users[topic.get("locale", "en")]
        tidings, same = _timed_previews(user, topic["topic"], repeats)
        stable &= same
        relevant = [i for i, g in grades.items() if g is not None and g >= 1]
        outcomes.append(
            {
                "id": topic["id"],
                "topic": topic["topic"],
                "locale": topic.get("locale", "en"),
                "judged": len(judged),
                "judged_in_pool": sum(g is not None for g in grades.values()),
                "relevant_in_pool": len(relevant),
                "tidings": {
                    **tidings,
                    **metrics.figures([grades[i] for i in tidings["item_ids"]], judged),
                    "list": _listed(tidings["item_ids"], grades, titles),
                },
                "bm25": {
                    **metrics.figures([grades[i] for i in bm25_lists[topic["id"]]], judged),
                    "list": _listed(bm25_lists[topic["id"]], grades, titles),
                },
            }
        )
    with FakeAnthropic.running() as fake:
        for outcome in outcomes:
            grades, judged = part.grades[outcome["id"]], part.judged[outcome["id"]]
            started = time.perf_counter()
            draft, selection = _new_user_draft(
                part.users[outcome["locale"]], outcome["topic"], use_model=True
            )
            ms = (time.perf_counter() - started) * 1000
            ids = [c.item_id for c in selection.selected]
            outcome["model"] = {
                "interests": list(draft.subscription.interests),
                "source": draft.suggestion.source if draft.suggestion else "",
                "ms": round(ms, 1),
                **metrics.figures([grades[i] for i in ids], judged),
                "list": _listed(ids, grades, titles),
            }
        model_requests = len(fake.requests_for("suggest_interests"))
    means = {
        side: {
            name: metrics.mean(o[side][name] for o in outcomes)
            for name in ("ndcg10", "precision", "judged_share")
        }
        for side in ("tidings", "bm25", "model")
    }
    for name in ("p50_ms", "p99_ms"):
        means["tidings"][name] = round(metrics.mean(o["tidings"][name] for o in outcomes), 1)
    return {
        **part.data,
        "pool_items": len(part.pool),
        "bm25_seconds": round(bm25_seconds, 2),
        "topics": outcomes,
        "means": means,
        "empty_previews": sum(o["tidings"]["returned"] == 0 for o in outcomes),
        "model_requests": model_requests,
        "stable": stable,
        "ratio": round(means["tidings"]["ndcg10"] / means["bm25"]["ndcg10"], 2)
        if means["bm25"]["ndcg10"]
        else None,
    }


def _users(locales) -> dict:
    return {
        locale: sign_up(
            email=f"relevance-{locale}@tidings.local",
            password="bench-only-" + "x" * 20,
            locale=locale,
            now=NOW,
        )
        for locale in sorted(set(locales))
    }


def _corpus_parts(size: str) -> list[Part]:
    """The development topics and the blind sets (BLIND_SETS), over one pool."""
    collection, all_topics = _collection()
    topics, paths = _chosen(collection, all_topics, size)
    started = time.perf_counter()
    failed = _ingest(paths)
    _spread_over_six_days()
    analyze()  # the steady state autovacuum reaches after a bulk load
    load_seconds = time.perf_counter() - started
    pool = _pool()
    found = metrics.JudgedItems.build(collection.values())
    corpus_id = {
        row["id"]: found.find(row["canonical_url"], row["title"], row["feeds"]) for row in pool
    }
    grades, judged = {}, {}
    for topic in topics:
        judgments = {int(i): g for i, g in topic["judgments"].items()}
        grades[topic["id"]] = {item: judgments.get(cid) for item, cid in corpus_id.items()}
        judged[topic["id"]] = list(judgments.values())
    data = {
        "files": len(paths),
        "failed_files": failed,
        "collection_items": len(collection),
        "pool_items_in_collection": sum(c is not None for c in corpus_id.values()),
        "load_seconds": round(load_seconds, 1),
    }
    users = _users(["en"])
    parts = [Part("corpus", topics, grades, judged, users, pool, data)]
    for name, path in BLIND_SETS.items():
        blind = json.loads(path.read_text("utf-8"))["topics"]
        blind_grades, blind_judged = {}, {}
        for topic in blind:
            judgments = {int(i): g for i, g in topic["judgments"].items()}
            blind_grades[topic["id"]] = {item: judgments.get(c) for item, c in corpus_id.items()}
            blind_judged[topic["id"]] = list(judgments.values())
        parts.append(Part(name, blind, blind_grades, blind_judged, users, pool, dict(data)))
    return parts


def _cjk_part() -> Part:
    """The hand-written multilingual pool of the `topics` benchmark, every item judged for
    every CJK topic (topics_data/relevance_cjk.json)."""
    ContentItem.objects.all().delete()
    Source.objects.all().delete()
    # The pool's size in the window is kept for minutes (ingest/pool/size.py), under the same
    # fixed NOW: kept from the corpus part, it weighed every CJK word against 8,640 items
    # instead of this pool's 60 (until 2026-11-29).
    cache.clear()
    spec = json.loads(CJK_TOPICS.read_text("utf-8"))
    started = time.perf_counter()
    failed = _ingest([CJK_FEED, CJK_MORE])
    _spread_over_six_days()
    analyze()  # the steady state autovacuum reaches after a bulk load
    load_seconds = time.perf_counter() - started
    pool = _pool()
    slugs = {row["id"]: row["canonical_url"].rstrip("/").rsplit("/", 1)[-1] for row in pool}
    grades, judged = {}, {}
    for topic in spec["topics"]:
        grades[topic["id"]] = {
            item: topic["judgments"].get(slug, spec["unlisted_grade"])
            for item, slug in slugs.items()
        }
        judged[topic["id"]] = list(grades[topic["id"]].values())
    data = {"files": 2, "failed_files": failed, "load_seconds": round(load_seconds, 1)}
    users = _users(t["locale"] for t in spec["topics"])
    return Part("cjk", spec["topics"], grades, judged, users, pool, data)


def run(size: str = "full") -> dict:
    checked(size)
    quiet_client_logs()
    logging.getLogger("bm25s").setLevel(logging.WARNING)
    result = {
        "name": "relevance",
        "size": size,
        "database": connection.vendor,
        "now": NOW.isoformat(),
    }
    if (COLLECTION / "topics.json").is_file() and SHARED_FEEDS.is_dir():
        for part in _corpus_parts(size):
            result[part.name] = _measure(part, REPEATS[size])
    else:
        result["corpus_skipped"] = (
            f"no judged collection at {COLLECTION} (or no feeds at {SHARED_FEEDS})"
        )
    result["cjk"] = _measure(_cjk_part(), REPEATS[size])
    parts = [result[name] for name in ("corpus", *BLIND_SETS, "cjk") if name in result]
    result["ratio"] = parts[0]["ratio"]  # the corpus's when it is there
    result["checks"] = {
        "no feed file failed": all(p["failed_files"] == 0 for p in parts),
        "each topic's preview is the same list every time": all(p["stable"] for p in parts),
        "the fake model was asked once per distinct topic": all(
            p["model_requests"] == asked
            for p, asked in zip(parts, _first_asked(parts), strict=True)
        ),
    }
    result["lists_file"] = str(_write_lists(result))
    return result


def _first_asked(parts: list[dict]) -> list[int]:
    """Per part, its topics not typed before in the run: a topic typed again in the same
    language ("Emacs" of the fourth and seventh sets) is the combination cache's, not the
    model's (digests/subscriptions/interests.py)."""
    seen: set[tuple[str, str]] = set()
    counts = []
    for part in parts:
        keys = [(normalized_topic(o["topic"]), o["locale"]) for o in part["topics"]]
        counts.append(len(set(keys) - seen))
        seen.update(keys)
    return counts


def _grade(grade: int | None) -> str:
    return "U" if grade is None else str(grade)


def _write_lists(result: dict) -> Path:
    folder = Path(settings.BASE_DIR) / "var" / "bench"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"relevance-{result['database']}.txt"
    lines = [
        f"relevance benchmark ({result['size']}) on {result['database']}, now = {result['now']}",
        "grades: 2 clearly about the topic, 1 partly, 0 not relevant, U unjudged",
    ]
    for name in ("corpus", *BLIND_SETS, "cjk"):
        if name not in result:
            continue
        part = result[name]
        lines += ["", f"#### {name}: {part['pool_items']} pool items from {part['files']} files"]
        for outcome in part["topics"]:
            lines += _topic_lines(outcome)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _topic_lines(outcome: dict) -> list[str]:
    lines = [
        "",
        f"== {outcome['id']}: {outcome['topic']}  ({outcome['relevant_in_pool']} items graded "
        f"≥ 1 in the pool, {outcome['judged_in_pool']} judged)",
    ]
    for side, label in (
        ("tidings", "Tidings (no model)"),
        ("bm25", "BM25 (bm25s)"),
        ("model", "model pipeline (fake Messages API, not a model)"),
    ):
        figures = outcome[side]
        extra = f"; interests {figures['interests']}" if "interests" in figures else ""
        lines.append(
            f"-- {label}: nDCG@10 {_figure(figures['ndcg10'])}, precision "
            f"{_figure(figures['precision'])}, judged {_figure(figures['judged_share'])}" + extra
        )
        if side == "tidings":
            lines.append(
                f"   candidates {figures['candidates']}, matched {figures['matched']}, "
                f"above min score {figures['above_min_score']}"
                + (f"; advice: {figures['advice']}" if figures["advice"] else "")
            )
        for rank, entry in enumerate(figures["list"], 1):
            lines.append(f"   {rank:>2}. [{_grade(entry['grade'])}] {entry['title'][:110]}")
    return lines


def _figure(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _table(part: dict) -> list[str]:
    lines = [
        f"  {'topic':<50} {'nDCG@10':>7} {'prec':>5} {'judg':>5} {'p50ms':>6} {'p99ms':>6}"
        f" | {'BM25':>5} {'prec':>5} {'judg':>5}"
    ]
    rows = [(f"{o['id']} {o['topic']}", o["tidings"], o["bm25"]) for o in part["topics"]]
    rows.append(("mean", part["means"]["tidings"], part["means"]["bm25"]))
    for label, t, b in rows:
        lines.append(
            f"  {label[:50]:<50} {_figure(t['ndcg10']):>7} {_figure(t['precision']):>5} "
            f"{_figure(t['judged_share']):>5} {t['p50_ms']:>6} {t['p99_ms']:>6} | "
            f"{_figure(b['ndcg10']):>5} {_figure(b['precision']):>5} "
            f"{_figure(b['judged_share']):>5}"
        )
    m = part["means"]["model"]
    lines += [
        f"  model PIPELINE (the fake Messages API's canned answers — measures the pipeline, not "
        f"a model): mean nDCG@10 {_figure(m['ndcg10'])}, precision {_figure(m['precision'])}, "
        f"judged {_figure(m['judged_share'])}; {part['model_requests']} model requests for "
        f"{len(part['topics'])} topics",
        f"  empty previews: {part['empty_previews']}; ratio (Tidings mean nDCG@10 ÷ BM25's): "
        f"{part['ratio']}",
    ]
    return lines


def describe(result: dict) -> list[str]:
    lines = [
        f"relevance benchmark ({result['size']}) on {result['database']}, now = {result['now']}",
        "  Tidings: the subscription form's draft preview for a new user (topic only, Brief 10 "
        "items, no model key), draft + preview timed per topic; BM25: bm25s over title + "
        "summary of the same pool, the topic's words as the query, in the same run",
    ]
    if "corpus" in result:
        corpus = result["corpus"]
        lines += [
            f"  corpus: {corpus['pool_items']} pool items from {corpus['files']} feed files of "
            f"../shared/corpora/feeds (ingest + date spread {corpus['load_seconds']} s; "
            f"{corpus['pool_items_in_collection']} matched to the collection's "
            f"{corpus['collection_items']}), {len(corpus['topics'])} topics",
            *_table(corpus),
        ]
        for name, path in BLIND_SETS.items():
            blind = result[name]
            lines += [
                f"  {name} set: {len(blind['topics'])} topics over the same pool, judged blind by "
                f"an assessor who never saw the code or the development topics ({path.name})",
                *_table(blind),
            ]
    else:
        lines.append(f"  corpus part skipped: {result['corpus_skipped']}")
    cjk = result["cjk"]
    lines += [
        f"  CJK: {cjk['pool_items']} hand-written items (topics_data/multilingual_feed.json and "
        "relevance_cjk_feed.json), "
        f"{len(cjk['topics'])} Chinese, Japanese and Korean topics, every item judged",
        *_table(cjk),
        f"  ranked lists (titles with grades, U unjudged): {result['lists_file']}",
        f"  ratio (Tidings mean nDCG@10 ÷ BM25's, {'corpus' if 'corpus' in result else 'CJK'}): "
        f"{result['ratio']}",
    ]
    return lines
