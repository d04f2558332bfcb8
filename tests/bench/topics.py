"""`topics`: how many plain-language topics find relevant items, with and without a model.

Data: the labelled topics of tests/bench/topics_data/topics.json (52 topics: English, Chinese,
Japanese, Korean, German, Portuguese), each evaluated on its own pool:

- `demo`: the 40 items of ingest/demo/articles.json (`manage.py demo`'s feeds);
- `multilingual`: 36 short Chinese, Japanese and Korean news items written by hand for this
  benchmark (topics_data/multilingual_feed.json; the shared corpora have no CJK text);
- `feeds`: ../shared/corpora/feeds through the real ingest (285 files, 8,929 items).

Sizes (tests/bench/sizes.py): the demo and multilingual pools are whole at every size; of the
corpus, `full` reads every file, `small` every 4th and `smoke` every 15th (about 600 items). A
topic with no relevant item in the files read is left out (and listed). Without the corpus the
feeds pool is skipped. Checks: the model was asked once per topic; the topic's words find more
topics than the topic as one phrase.

Every item's publication time is spread over the last week (the corpora are years old; this
benchmark is about matching, not freshness). For each topic, three ways to get interests, each
then previewed exactly as the subscription form does (`digests.runs.runner.preview` of an unsaved
topic-only subscription, Brief length: 10 items, the default minimum score):

- `sentence` (the baseline, measured in the same process): the whole topic as one interest
  phrase, as Tidings did before topics were read in plain words;
- `words`: digests/subscriptions/topic_terms.py, what every topic gets without a model key;
- `model`: digests/subscriptions/interests.py through the real `digests/ai/llm.py` path and the
combination
  cache, against the fake Messages API of the tests (tests/digests/fake_anthropic.py), which
  answers each topic with the `model` answer written by hand in topics.json — a stand-in for
  a real model's answer, written by someone who knew the pools, so an optimistic one.

A topic "finds" when at least one of its previewed items is labelled relevant. precision =
relevant previewed items ÷ previewed items; recall = relevant previewed ÷ min(10, relevant in
the pool), averaged over topics. ratio = topics found with `words` ÷ with `sentence`.
"""

from __future__ import annotations

import json
import re
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.db import connection

from digests.models import DEFAULT_MIN_SCORE, Subscription
from digests.runs import runner
from digests.subscriptions import interests
from inbox.accounts import sign_up
from ingest.demo_feeds import write_demo_feeds
from ingest.models import ContentItem, Source
from ingest.refresh.pipeline import refresh_source
from tests.bench.corpus import SHARED_FEEDS, feed_files
from tests.bench.sizes import checked, every_nth
from tests.digests.fake_anthropic import FakeAnthropic, Request, quiet_client_logs

DATA = Path(__file__).parent / "topics_data"
MODES = ("sentence", "words", "model")
BRIEF_ITEMS = 10
WINDOW_HOURS = 160


def _labelled_topics() -> list[dict]:
    return json.loads((DATA / "topics.json").read_text("utf-8"))["topics"]


def _feed_sources(paths: list[Path], now: datetime) -> int:
    failed = 0
    for index, path in enumerate(paths):
        source = Source.objects.create(
            type=Source.Type.FEED,
            config={"file": str(path)},
            config_hash=f"topics-bench-{index:06d}-{path.stem}"[:64],
            title=path.stem,
        )
        failed += not refresh_source(source, now=now).ok
    return failed


def _load_pool(pool: str, size: str, now: datetime, folder: Path) -> dict:
    ContentItem.objects.all().delete()
    Source.objects.all().delete()
    if pool == "demo":
        paths = [path for _feed, path in write_demo_feeds(folder / "demo", now=now)]
    elif pool == "multilingual":
        paths = [DATA / "multilingual_feed.json"]
    else:
        paths = every_nth(feed_files(SHARED_FEEDS), size)
    failed = _feed_sources(paths, now)
    _spread_over_the_week(now)
    return {"files": len(paths), "failed_files": failed, "items": ContentItem.objects.count()}


def _spread_over_the_week(now: datetime) -> None:
    items = list(ContentItem.objects.only("id"))
    for index, item in enumerate(items):
        when = now - timedelta(hours=1 + (index * 37) % WINDOW_HOURS, minutes=index % 60)
        item.published_at = item.first_seen_at = when
    ContentItem.objects.bulk_update(items, ["published_at", "first_seen_at"], batch_size=500)


def _relevant_ids(label: dict, rows: list[dict]) -> set[int]:
    if "urls" in label:
        endings = tuple("/" + slug for slug in label["urls"])
        return {row["id"] for row in rows if row["canonical_url"].endswith(endings)}
    pattern = re.compile(label["pattern"], re.IGNORECASE)
    return {row["id"] for row in rows if pattern.search(f"{row['title']}\n{row['description']}")}


def _preview(user, topic: dict, terms: list[str], negative: list[str], now: datetime):
    draft = Subscription(
        owner=user,
        name="bench",
        topic=topic["topic"],
        interests=terms,
        negative_keywords=negative,
        max_items=BRIEF_ITEMS,
        content_window_hours=WINDOW_HOURS + 8,
    )
    started = time.perf_counter()
    selection = runner.preview(draft, now=now, source_ids=[])
    return selection, time.perf_counter() - started


def _canned(topics: list[dict]):
    answers = {interests.normalized_topic(t["topic"]): t["model"] for t in topics}

    def answer(request: Request) -> dict:
        return answers[interests.normalized_topic(request.payload()["topic"])]

    return answer


def _evaluate(user, topic: dict, relevant: set[int], now: datetime) -> dict:
    outcome = {"topic": topic["topic"], "locale": topic["locale"], "relevant": len(relevant)}
    for mode in MODES:
        if mode == "sentence":
            terms, negative = [topic["topic"]], []
        else:
            suggestion = interests.suggest(
                topic["topic"], locale=topic["locale"], now=now, use_model=mode == "model"
            )
            assert suggestion.source == ("model" if mode == "model" else "words"), suggestion
            terms, negative = suggestion.interests, suggestion.negative_keywords
        selection, seconds = _preview(user, topic, terms, negative, now)
        picked = [c.item_id for c in selection.selected]
        hits = sum(item_id in relevant for item_id in picked)
        outcome[mode] = {
            "interests": terms,
            "previewed": len(picked),
            "relevant_previewed": hits,
            "found": hits > 0,
            "recall": round(hits / min(BRIEF_ITEMS, len(relevant)), 3),
            "ms": round(seconds * 1000, 1),
            "advice": selection.advice,
        }
    return outcome


def _summary(outcomes: list[dict]) -> dict:
    summary = {"topics": len(outcomes)}
    for mode in MODES:
        runs = [o[mode] for o in outcomes]
        previewed = sum(r["previewed"] for r in runs)
        summary[mode] = {
            "found": sum(r["found"] for r in runs),
            "empty": sum(r["previewed"] == 0 for r in runs),
            "precision": round(sum(r["relevant_previewed"] for r in runs) / previewed, 3)
            if previewed
            else None,
            "recall": round(statistics.fmean(r["recall"] for r in runs), 3) if runs else None,
            "preview_ms_p50": round(statistics.median(r["ms"] for r in runs), 1) if runs else None,
        }
    return summary


def run(size: str = "full") -> dict:
    checked(size)
    quiet_client_logs()
    now = datetime.now(UTC).replace(microsecond=0)
    topics = _labelled_topics()
    user = sign_up(email="bench@tidings.local", password="bench-only-" + "x" * 20, now=now)
    pools = ["demo", "multilingual"] + (["feeds"] if SHARED_FEEDS.is_dir() else [])
    outcomes: list[dict] = []
    loaded: dict[str, dict] = {}
    skipped: list[str] = []
    with tempfile.TemporaryDirectory() as folder, FakeAnthropic.running() as fake:
        fake.default_answer = _canned(topics)
        for pool in pools:
            started = time.perf_counter()
            loaded[pool] = _load_pool(pool, size, now, Path(folder))
            loaded[pool]["load_seconds"] = round(time.perf_counter() - started, 1)
            rows = list(
                ContentItem.objects.filter(status=ContentItem.Status.ACTIVE).values(
                    "id", "canonical_url", "title", "description"
                )
            )
            for topic in (t for t in topics if t["pool"] == pool):
                relevant = _relevant_ids(topic["relevant"], rows)
                if not relevant:
                    skipped.append(topic["topic"])  # nothing to find in this pool's size
                    continue
                outcome = _evaluate(user, topic, relevant, now)
                outcome["pool"] = pool
                outcomes.append(outcome)
        model_requests = len(fake.requests_for("suggest_interests"))
    by_pool = {pool: _summary([o for o in outcomes if o["pool"] == pool]) for pool in pools}
    languages = sorted({o["locale"] for o in outcomes})
    by_language = {
        lang: _summary([o for o in outcomes if o["locale"] == lang]) for lang in languages
    }
    overall = _summary(outcomes)
    return {
        "name": "topics",
        "size": size,
        "database": connection.vendor,
        "pools": loaded,
        "overall": overall,
        "by_pool": by_pool,
        "by_language": by_language,
        "skipped_topics": skipped,
        "model_requests": model_requests,
        "outcomes": outcomes,
        "ratio": round(overall["words"]["found"] / max(1, overall["sentence"]["found"]), 2),
        "checks": {
            "the model was asked once per topic": model_requests == overall["topics"],
            "the words find more topics than one phrase": overall["words"]["found"]
            > overall["sentence"]["found"],
        },
    }


def _line(label: str, summary: dict) -> str:
    parts = [f"  {label:<14} {summary['topics']:>3} topics"]
    for mode in MODES:
        figures = summary[mode]
        precision = "—" if figures["precision"] is None else f"{figures['precision']:.2f}"
        parts.append(
            f"{mode} {figures['found']:>2} found / {figures['empty']:>2} empty, "
            f"precision {precision}, recall {figures['recall']:.2f}"
        )
    return " | ".join(parts)


def describe(result: dict) -> list[str]:
    pools = ", ".join(
        f"{name} {info['items']} items from {info['files']} files ({info['load_seconds']} s)"
        for name, info in result["pools"].items()
    )
    overall = result["overall"]
    lines = [
        f"topics benchmark ({result['size']}) on {result['database']} — {pools}",
        f"  a topic is found when its preview (Brief, 10 items, min score {DEFAULT_MIN_SCORE}) "
        "holds a relevant "
        "item; `model` answers come from the fake Messages API (hand-written answers)",
        _line("all", overall),
    ]
    lines += [_line(f"pool {name}", summary) for name, summary in result["by_pool"].items()]
    lines += [_line(f"lang {name}", summary) for name, summary in result["by_language"].items()]
    lines.append(
        "  preview p50: "
        + ", ".join(f"{mode} {overall[mode]['preview_ms_p50']} ms" for mode in MODES)
        + f"; model requests {result['model_requests']} for {overall['topics']} topics"
    )
    if result["skipped_topics"]:
        lines.append(f"  no relevant item at this size: {len(result['skipped_topics'])} topics")
    lines.append(
        f"  ratio (topics found from the words ÷ found as one phrase): {result['ratio']}; "
        f"with the model: {overall['model']['found']} of {overall['topics']}"
    )
    return lines
