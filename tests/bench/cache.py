"""`cache`: the combination cache over one daily period of 1,000 simulated users, against the
same narratives written without it.

Users (seed 002 §7.1): 80 % installed the same source pack (12 sources), 10 % that pack with
1-2 sources added (popular ones) or removed, 10 % 5-15 sources of their own. Each user has one
daily subscription (24 h window, 20 items, English, neutral tone) and the same run time.

What is real: each user's item set comes from `digests.runs.runner.preview` — the selection
`execute_run` makes (candidates, scoring, per-user dedup, select), minus its writes — over a
pool of 10,000 items from 200 sources over 7 days; the keys are the narrative writer's
(digests/narrative/writer.py): level one by source set, selection options and period, level
two by the items the narrative is written from — the top ITEMS_SENT (15), each with its
content hash and a digest of title and summary — with the length, the lead and the UTC day;
level three a covering narrative (the same lead, options and day, written only from items the
brief has and covering COVER_MIN_SHARE of its top 15). The walk through the levels is the
writer's own (`writer.cached_narrative`); only the request is the stand-in below. The same
users in the same order are run twice in the same process: the exact levels only (the cache
before the covering level), then the cache as it is, so before/after is one run.
Every miss is logged with its key's parts against the pack's (sources added or removed, items
sent that the pack's brief does not have); `get_or_compute` runs against
the benchmark database with WORKERS threads taking users in a shuffled order, so identical
requests overlap as they would on a cluster; and a miss calls the model through
`digests.ai.llm.call_tool` (the real client, budget reservation and LLMCall row) against the fake
Anthropic server of the test suite on 127.0.0.1, which reports deterministic token usage
(about 4 characters a token). What is not: the narrative request is a stand-in for the
writer's (the narrative prompt and tool; a run's `prepare_texts` calls `write_narrative`,
which walks the same levels); users with a delivery history would select, and so key,
differently.

Baseline: the same narratives written once per user without the cache, in the same process.
ratio = LLM calls without the cache ÷ LLM calls with it (goal >= 10, issue #34; seed: hit rate
> 80 %). ceiling = briefs ÷ (1 + the custom users' distinct item sets): the best an exact
item-set key could do, every pack ± 1-2 user sharing the pack's brief. Check: no brief is
handed a covering narrative written from an item it did not get.
Hit latency: a cached narrative from key computation to value (goal < 100 ms), for every user;
and the whole brief request (selection + key + cache) for a sample.

Sizes (tests/bench/sizes.py): full = 1,000 users over a pool of 10,000 items; small = 100
users, 10,000 items; smoke = 20 users, 2,000 items. Checks: one LLM call per narrative stored
(single flight: no two workers wrote the same narrative), and, with the exact levels only, one
per distinct item set.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import statistics
import string
import threading
import time
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction

from digests.ai import llm, prompts
from digests.ai.combination_cache import combination_key, lookup_first_level
from digests.models import (
    CombinationCacheCounter,
    CombinationCacheEntry,
    LLMCall,
    Subscription,
    SubscriptionSource,
)
from digests.narrative import writer
from digests.runs import runner
from digests.subscriptions.source_sets import refresh_subscriptions, sharing
from ingest.models import ContentItem, ContentItemSource
from tests.bench.generate import TextBank, analyze, make_sources
from tests.digests.fake_anthropic import FakeAnthropic, quiet_client_logs

logger = logging.getLogger(__name__)

SIZES = {"full": 1000, "small": 100, "smoke": 20}
SOURCES = 200
POOL_ITEMS = {"full": 10_000, "small": 10_000, "smoke": 2_000}
POOL_DAYS = 7  # ~1,400 items a day
PACK_SIZE = 12
MAX_ITEMS = 20
MIN_SCORE = 60
WORKERS = 4
FULL_PATH_SAMPLE = 100
NOW = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)
# The writer keys an item set in its UTC day.
ITEM_SET_WINDOW = (datetime(2026, 11, 22, tzinfo=UTC), datetime(2026, 11, 23, tzinfo=UTC))
SEED = 20260225
NARRATIVE_SCHEMA = {
    "type": "object",
    "properties": {
        "narrative_markdown": {"type": "string", "minLength": 1},
        "highlights": {"type": "array", "items": {"type": "string"}, "maxItems": 4},
    },
    "required": ["narrative_markdown", "highlights"],
}


def _add_items(sources, rng: random.Random, count: int) -> None:
    """`count` items over the POOL_DAYS before NOW; a few big sources, a long tail."""
    bank = TextBank()
    weights = [1.0 / (n + 3) for n in range(len(sources))]
    items, seen_by = [], []
    for n in range(count):
        title, description = bank.text(rng)
        source = rng.choices(sources, weights=weights)[0]
        first_seen = NOW - timedelta(seconds=rng.random() * POOL_DAYS * 86400)
        url = f"https://source{source.pk}.example/posts/{n}"
        items.append(
            ContentItem(
                canonical_url=url,
                canonical_url_hash=hashlib.sha256(url.encode()).hexdigest(),
                title=title,
                normalized_title=title.lower()[:500],
                description=description,
                site_name=source.title,
                published_at=first_seen - timedelta(seconds=rng.random() * 7200),
                content_hash=hashlib.sha256(description.encode()).hexdigest(),
                score_impact=rng.randint(30, 80),
                score_quality=rng.randint(30, 90),
                first_seen_at=first_seen,
                last_seen_at=first_seen,
            )
        )
        seen_by.append(source)
    ContentItem.objects.bulk_create(items, batch_size=2000)
    ContentItemSource.objects.bulk_create(
        (
            ContentItemSource(
                item=item,
                source=source,
                entry_id=item.canonical_url,
                first_seen_at=item.first_seen_at,
            )
            for item, source in zip(items, seen_by, strict=True)
        ),
        batch_size=2000,
    )


def _source_sets(count: int, source_ids: list[int], rng: random.Random):
    """(segment, source ids) per user. Sources are listed most popular first."""
    pack = source_ids[:40:3][:PACK_SIZE]  # popular, but not simply the top 12
    popular_extras = [s for s in source_ids[:40] if s not in pack]
    users = []
    for index in range(count):
        share = index / count
        if share < 0.8:
            users.append(("pack", list(pack)))
        elif share < 0.9:
            chosen = set(pack)
            for _ in range(rng.randint(1, 2)):
                if rng.random() < 0.5:
                    chosen.add(rng.choice(popular_extras))
                else:
                    chosen.discard(rng.choice(sorted(chosen)))
            users.append(("pack ± 1-2", sorted(chosen)))
        else:
            users.append(("custom", sorted(rng.sample(source_ids, rng.randint(5, 15)))))
    return users


def _subscribers(source_sets) -> list[Subscription]:
    users = User.objects.bulk_create(
        User(username=f"user{n}@bench.example", email=f"user{n}@bench.example")
        for n in range(len(source_sets))
    )
    subscriptions = Subscription.objects.bulk_create(
        Subscription(
            owner=user,
            name="Morning brief",
            min_score=MIN_SCORE,
            max_items=MAX_ITEMS,
            content_window_hours=24,
            cron="0 8 * * *",
        )
        for user in users
    )
    SubscriptionSource.objects.bulk_create(
        SubscriptionSource(subscription=subscription, source_id=source_id)
        for subscription, (_segment, source_ids) in zip(subscriptions, source_sets, strict=True)
        for source_id in source_ids
    )
    # Seed 002's hash, as the subscription services keep it (bulk_create bypassed them).
    with transaction.atomic():
        refresh_subscriptions([s.pk for s in subscriptions])
    return list(Subscription.objects.filter(pk__in=[s.pk for s in subscriptions]).order_by("pk"))


def _options() -> dict:
    prompt = prompts.load("narrative")
    return {
        "locale": "en",
        "tone": writer.tone_words("neutral"),
        "prompt_version": prompt.version,
        "model": settings.LLM_MODEL_NARRATIVE,
    }


def _sent(selected) -> list:
    """The items the narrative is written from: the writer sends the top ITEMS_SENT (Sources
    still lists every item), so the key covers those and no others."""
    return selected[: writer.ITEMS_SENT]


def _narrative_items(selected) -> list[writer.NarrativeItem]:
    """The brief's items as the writer gets them (every item: Sources lists them all)."""
    return [
        writer.NarrativeItem(
            canonical_url_hash=c.canonical_url_hash,
            content_hash=c.content_hash,
            title=c.title,
            url=c.canonical_url,
            summary=_summary(c),
            source_name=c.site_name,
        )
        for c in selected
    ]


def _fingerprints(selected) -> list[str]:
    """The writer's fingerprint of each item sent: hash, content hash, title and summary."""
    return [writer.fingerprint(i) for i in _narrative_items(_sent(selected))]


def _summary(candidate) -> str:
    return candidate.description[:280]


def _item_options(selected, options: dict) -> dict:
    """The writer's per-brief options: the length its item count asks for, and the lead."""
    return {
        **options,
        "length": writer.length_for(len(selected))[0],
        "lead": selected[0].canonical_url_hash,
    }


def _key(selected, options: dict) -> str:
    return combination_key(
        "narrative",
        inputs=_fingerprints(selected),
        options=_item_options(selected, options),
        window=ITEM_SET_WINDOW,
    )


def _first_key(subscription, selected, options: dict) -> tuple[str, datetime]:
    """Level one (seed 002): the subscription's source-set hash, its selection options and
    its digest period in its time zone — as digests.narrative.writer keys it."""
    combination = runner.combination_of(subscription, now=NOW)
    key = combination_key(
        "narrative",
        inputs=[f"sources:{combination.source_set_hash}"],
        options={
            **_item_options(selected, options),
            "selection": combination.selection,
            "period": combination.period,
        },
        window=combination.window,
    )
    return key, combination.window[1]


def _levels(subscription, selected, options, compute):
    """The writer's own walk through the cache (digests.narrative.writer.cached_narrative):
    source set and period, item set, a covering narrative of the same lead, else a call."""
    return writer.cached_narrative(
        _narrative_items(selected),
        options=_item_options(selected, options),
        compute=compute,
        now=NOW,
        combination=runner.combination_of(subscription, now=NOW),
        inputs_desc={"locale": options["locale"], "tone": options["tone"]},
    )


def _writer(selected, options: dict):
    """A stand-in for the narrative writer: one tool call with the narrative prompt."""
    prompt = prompts.load("narrative")
    system = string.Template(prompt.text).safe_substitute(
        language="English", tone=options["tone"], paragraphs="two to three", max_words=250
    )
    payload = {
        "items": [
            {
                "url": c.canonical_url,
                "title": c.title,
                "source": c.site_name,
                "summary": _summary(c),
            }
            for c in _sent(selected)
        ]
    }
    request = llm.ToolRequest(
        purpose="narrative",
        model=options["model"],
        prompt_version=options["prompt_version"],
        system=system,
        user=json.dumps(payload, ensure_ascii=False),
        tool_name="write_narrative",
        tool_description="Record the digest's overview.",
        input_schema=NARRATIVE_SCHEMA,
        max_tokens=1500,
    )

    def compute():
        result = llm.call_tool(request, now=NOW)
        return result.data, result.input_tokens, result.output_tokens

    return compute


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _select(subscriptions) -> tuple[list[list], list[float]]:
    selections, times = [], []
    for subscription in subscriptions:
        started = time.perf_counter()
        selections.append(runner.preview(subscription, now=NOW).selected)
        times.append(time.perf_counter() - started)
    return selections, times


def _without_cache(fake, selections, options) -> dict:
    calls_before, usage_before = len(fake.requests), dict(fake.usage)
    started = time.perf_counter()
    for selected in selections:
        if selected:
            _writer(selected, options)()
    elapsed = time.perf_counter() - started
    calls = len(fake.requests) - calls_before
    return {
        "llm_calls": calls,
        "tokens": sum(fake.usage[k] - usage_before[k] for k in fake.usage),
        "seconds": round(elapsed, 2),
        "ms_per_call_against_fake": _ms(elapsed / max(calls, 1)),
    }


LEVELS = ("source set", "item set", "covering", "")  # "": the brief's narrative made a call


def _with_cache(fake, subscriptions, selections, source_sets, options, order) -> dict:
    calls_before, usage_before = len(fake.requests), dict(fake.usage)
    results, levels, errors, lock = {}, {}, [], threading.Lock()

    def worker(slot: int):
        try:
            for n in order[slot::WORKERS]:
                result, level = _levels(
                    subscriptions[n], selections[n], options, _writer(selections[n], options)
                )
                with lock:
                    results[n] = result
                    levels[n] = level
        except Exception as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    started = time.perf_counter()
    threads = [threading.Thread(target=worker, args=(slot,)) for slot in range(WORKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    if errors:
        raise errors[0]
    counter = CombinationCacheCounter.objects.get(kind="narrative")
    requests = counter.hits + counter.misses
    by_segment: dict[str, dict[str, int]] = {}
    for n, level in levels.items():
        figures = by_segment.setdefault(source_sets[n][0], dict.fromkeys(LEVELS, 0))
        figures[level] += 1
    return {
        "requests": requests,
        "hits": counter.hits,
        "misses": counter.misses,
        "hit_rate": round(counter.hits / requests, 4),
        "first_level_hits": sum(1 for level in levels.values() if level == "source set"),
        "second_level_hits": sum(1 for level in levels.values() if level == "item set"),
        "covering_hits": sum(1 for level in levels.values() if level == "covering"),
        "levels_by_segment": {
            name: {level or "call": count for level, count in figures.items()}
            for name, figures in by_segment.items()
        },
        "waited_for_another_worker": sum(r.waited for r in results.values()),
        "llm_calls": len(fake.requests) - calls_before,
        "tokens": sum(fake.usage[k] - usage_before[k] for k in fake.usage),
        "tokens_saved": counter.tokens_saved,
        "seconds": round(elapsed, 2),
        "served_items_not_in_the_brief": _served_items_not_in_the_brief(
            results, levels, selections
        ),
        "missed_users": sorted(n for n, level in levels.items() if not level),
    }


def _served_items_not_in_the_brief(results, levels, selections) -> int:
    """Briefs handed a covering narrative written from an item they did not get (must be 0).
    The other levels match the items exactly by construction."""
    made_from = dict(
        CombinationCacheEntry.objects.filter(
            key__in=[r.key for n, r in results.items() if levels[n] == "covering"]
        ).values_list("key", "inputs")
    )
    wrong = 0
    for n, result in results.items():
        if levels[n] != "covering":
            continue
        have = {writer._digest(writer.fingerprint(i)) for i in _narrative_items(selections[n])}
        wrong += not set(made_from[result.key]["item_digests"]) <= have
    return wrong


@contextmanager
def _exact_levels_only():
    """The cache before the covering level: a covering narrative never qualifies."""
    share = writer.COVER_MIN_SHARE
    writer.COVER_MIN_SHARE = 2.0
    try:
        yield
    finally:
        writer.COVER_MIN_SHARE = share


def _clear_cache() -> None:
    CombinationCacheEntry.objects.all().delete()
    CombinationCacheCounter.objects.all().delete()


def _misses(missed_users, source_sets, selections) -> dict:
    """Why each miss missed: its key's parts against the pack's (the sources added to or
    removed from the pack, the items sent that the pack's brief does not have). Each is
    logged; the result counts them by segment and by how many items differ."""
    pack_sources = next(set(ids) for segment, ids in source_sets if segment == "pack")
    pack_user = next(n for n, (segment, _ids) in enumerate(source_sets) if segment == "pack")
    pack_items = set(_fingerprints(selections[pack_user]))
    by_segment: dict[str, dict] = {}
    for n in missed_users:
        segment, ids = source_sets[n]
        sent = _fingerprints(selections[n])
        differing = len(set(sent) - pack_items)
        logger.info(
            "miss: user %s (%s), sources +%s -%s, %d of %d items sent not in the pack's brief, "
            "lead %s the pack's",
            n,
            segment,
            sorted(set(ids) - pack_sources),
            sorted(pack_sources - set(ids)),
            differing,
            len(sent),
            "is" if sent[0] in pack_items else "is not",
        )
        figures = by_segment.setdefault(segment, {"misses": 0, "items_not_in_pack": {}})
        figures["misses"] += 1
        counts = figures["items_not_in_pack"]
        counts[differing] = counts.get(differing, 0) + 1
    for figures in by_segment.values():
        figures["items_not_in_pack"] = dict(sorted(figures["items_not_in_pack"].items()))
    return by_segment


def _hit_latency(subscriptions, selections, options) -> dict:
    def never():
        raise AssertionError("a cached narrative was computed again")

    key_to_value = []
    for selected in selections:
        if not selected:
            continue
        started = time.perf_counter()
        result, _level = writer.cached_narrative(
            _narrative_items(selected),
            options=_item_options(selected, options),
            compute=never,
            now=NOW,
        )
        key_to_value.append(time.perf_counter() - started)
        assert result.hit
    first_level = []
    for subscription, selected in zip(subscriptions, selections, strict=True):
        if not selected:
            continue
        started = time.perf_counter()
        first_key, _end = _first_key(subscription, selected, options)
        lookup_first_level(first_key, _fingerprints(selected), now=NOW)
        first_level.append(time.perf_counter() - started)
    full_path = []
    for subscription in subscriptions[:: max(1, len(subscriptions) // FULL_PATH_SAMPLE)]:
        started = time.perf_counter()
        selected = runner.preview(subscription, now=NOW).selected
        if selected:
            _levels(subscription, selected, options, never)
            full_path.append(time.perf_counter() - started)
    return {
        "key_to_value_p50_ms": _ms(statistics.median(key_to_value)),
        "key_to_value_p95_ms": _ms(_percentile(key_to_value, 0.95)),
        "key_to_value_max_ms": _ms(max(key_to_value)),
        "key_to_value_requests": len(key_to_value),
        "source_set_lookup_p50_ms": _ms(statistics.median(first_level)),
        "source_set_lookup_p95_ms": _ms(_percentile(first_level, 0.95)),
        "brief_request_p50_ms": _ms(statistics.median(full_path)),
        "brief_request_p95_ms": _ms(_percentile(full_path, 0.95)),
        "brief_request_sample": len(full_path),
    }


def run(size: str = "full") -> dict:
    quiet_client_logs()  # one INFO line per request otherwise
    rng = random.Random(SEED)
    users = SIZES[size]
    started = time.perf_counter()
    sources = make_sources(SOURCES)
    _add_items(sources, rng, POOL_ITEMS[size])
    analyze()
    source_sets = _source_sets(users, [s.pk for s in sources], rng)
    subscriptions = _subscribers(source_sets)
    generate_seconds = time.perf_counter() - started
    with FakeAnthropic.running(LLM_DAILY_TOKEN_BUDGET=10**12) as fake:
        options = _options()
        selections, select_times = _select(subscriptions)
        baseline = _without_cache(fake, selections, options)
        LLMCall.objects.all().delete()
        order = [n for n, selected in enumerate(selections) if selected]
        rng.shuffle(order)
        # Before: the exact levels only (the cache as it was before the covering level), in
        # the same process, the same order; then the cache as it is.
        with _exact_levels_only():
            exact = _with_cache(fake, subscriptions, selections, source_sets, options, order)
        exact_misses = _misses(exact.pop("missed_users"), source_sets, selections)
        _clear_cache()
        LLMCall.objects.all().delete()
        cached = _with_cache(fake, subscriptions, selections, source_sets, options, order)
        misses = _misses(cached.pop("missed_users"), source_sets, selections)
        latency = _hit_latency(subscriptions, selections, options)
    shared = sharing(limit=3)
    # The item-set entries; level one's entries only point at them.
    entries = [
        value
        for inputs, value in CombinationCacheEntry.objects.values_list("inputs", "value")
        if inputs.get("level") != "source set"
    ]
    segments = {}
    for (segment, source_ids), selected in zip(source_sets, selections, strict=True):
        figures = segments.setdefault(segment, {"users": 0, "source_sets": set(), "keys": set()})
        figures["users"] += 1
        figures["source_sets"].add(tuple(source_ids))
        if selected:
            figures["keys"].add(_key(selected, options))
    # Each segment alone: its users' briefs without the cache ÷ its distinct item sets.
    segment_ratios = {
        name: round(
            sum(
                1
                for (seg, _ids), s in zip(source_sets, selections, strict=True)
                if seg == name and s
            )
            / max(len(figures["keys"]), 1),
            2,
        )
        for name, figures in segments.items()
    }
    custom_keys = segments["custom"]["keys"] if "custom" in segments else set()
    unique_keys = len({k for figures in segments.values() for k in figures["keys"]})
    with_items = [len(s) for s in selections if s]
    return {
        "name": "cache",
        "database": connection.vendor,
        "size": size,
        "users": users,
        "sources": SOURCES,
        "pool_items": POOL_ITEMS[size],
        "pack_size": PACK_SIZE,
        "workers": WORKERS,
        "generate_seconds": round(generate_seconds, 1),
        "segments": {
            name: {
                "users": figures["users"],
                "distinct_source_sets": len(figures["source_sets"]),
                "distinct_item_sets": len(figures["keys"]),
                "ratio": segment_ratios[name],
            }
            for name, figures in segments.items()
        },
        "source_set_hashes": {
            "distinct": shared["distinct_subscription_hashes"],
            "most_shared_users": [row["users"] for row in shared["subscriptions"]],
        },
        "users_with_a_brief": len(with_items),
        "items_per_brief_mean": round(statistics.mean(with_items), 1),
        "selection_p50_ms": _ms(statistics.median(select_times)),
        "unique_keys": unique_keys,
        "cache_entries": len(entries),
        "entry_value_bytes_mean": round(
            statistics.mean(len(json.dumps(v, ensure_ascii=False).encode()) for v in entries)
        ),
        "without_cache": baseline,
        "exact_levels_only": exact,
        "exact_levels_only_misses": exact_misses,
        "exact_levels_only_ratio": round(baseline["llm_calls"] / exact["llm_calls"], 2),
        "with_cache": cached,
        # Single flight: one call per narrative stored (no two workers wrote the same one).
        "single_flight": cached["llm_calls"] == len(entries),
        "hit_latency": latency,
        "misses": misses,
        # An exact item-set key cannot do better than one call per custom user (each picked
        # their own sources, so their items are theirs alone) plus one for everybody else.
        "ceiling_ratio": round(len(with_items) / (1 + len(custom_keys)), 2),
        "goal_hit_rate_gt_80": cached["hit_rate"] > 0.8,
        "goal_hit_latency_lt_100ms": latency["key_to_value_p95_ms"] < 100,
        "ratio": round(baseline["llm_calls"] / cached["llm_calls"], 2),
        "checks": {
            "one LLM call per narrative stored": cached["llm_calls"] == len(entries),
            "exact levels: one LLM call per distinct item set": exact["llm_calls"] == unique_keys,
            "no brief served a narrative of an item it did not get": (
                cached["served_items_not_in_the_brief"] == 0
            ),
        },
    }


def describe(result: dict) -> list[str]:
    without, cached, latency = result["without_cache"], result["with_cache"], result["hit_latency"]
    lines = [
        f"cache benchmark on {result['database']} ({result['size']}): {result['users']} users, "
        f"one daily period; {result['sources']} sources, {result['pool_items']:,} pool items; "
        f"pack of {result['pack_size']} sources; {result['workers']} worker threads; "
        f"data generated in {result['generate_seconds']} s",
    ]
    for name, figures in result["segments"].items():
        lines.append(
            f"  {name:>10}: {figures['users']} users, {figures['distinct_source_sets']} distinct "
            f"source sets -> {figures['distinct_item_sets']} distinct item sets "
            f"(this segment alone: ratio {figures['ratio']})"
        )
    hashes = result["source_set_hashes"]
    lines.append(
        f"  seed 002 hashes: {hashes['distinct']} distinct subscription source sets; the most "
        f"shared are held by {', '.join(map(str, hashes['most_shared_users']))} users"
    )
    lines += [
        f"  {result['users_with_a_brief']} briefs with {result['items_per_brief_mean']} items on "
        f"average (selection p50 {result['selection_p50_ms']} ms)",
        f"  without the cache: {without['llm_calls']} LLM calls, {without['tokens']:,} tokens "
        f"({without['ms_per_call_against_fake']} ms a call against the local fake)",
        *_describe_run("before (exact levels only)", result["exact_levels_only"], result),
        *_describe_run("with the cache", cached, result),
        f"  cached narrative, key to value: p50 {latency['key_to_value_p50_ms']} ms, p95 "
        f"{latency['key_to_value_p95_ms']} ms, max {latency['key_to_value_max_ms']} ms over "
        f"{latency['key_to_value_requests']} requests (goal < 100 ms: "
        f"{result['goal_hit_latency_lt_100ms']}); source-set lookup p50 "
        f"{latency['source_set_lookup_p50_ms']} ms, p95 {latency['source_set_lookup_p95_ms']} ms; "
        f"whole brief request (selection + key + "
        f"cache) p50 {latency['brief_request_p50_ms']} ms, p95 "
        f"{latency['brief_request_p95_ms']} ms over {latency['brief_request_sample']}",
        f"  {result['cache_entries']} cache entries, {result['entry_value_bytes_mean']} bytes of "
        "value each on average",
        "  misses before, by segment (items sent not in the pack's brief: users): "
        + _describe_misses(result["exact_levels_only_misses"]),
        "  misses by segment (items sent not in the pack's brief: users): "
        + _describe_misses(result["misses"]),
        f"  ratio (LLM calls without ÷ with the cache): before {result['exact_levels_only_ratio']}"
        f", now {result['ratio']} (goal >= 10; an exact item-set key's ceiling in this mix: "
        f"{result['ceiling_ratio']})",
        "  checks: " + ", ".join(f"{name}: {ok}" for name, ok in result["checks"].items()),
    ]
    return lines


def _describe_run(label: str, cached: dict, result: dict) -> list[str]:
    return [
        f"  {label}: {cached['llm_calls']} LLM calls, {cached['tokens']:,} tokens; "
        f"{cached['hits']} hits / {cached['misses']} misses = hit rate "
        f"{cached['hit_rate'] * 100:.1f} % (goal > 80 %: {cached['hit_rate'] > 0.8}); hits by "
        f"level: source set + period {cached['first_level_hits']}, item set "
        f"{cached['second_level_hits']}, covering {cached['covering_hits']}; "
        f"{cached['waited_for_another_worker']} requests waited for another worker; "
        f"tokens saved {cached['tokens_saved']:,}; covering narratives with an item the brief "
        f"does not have: {cached['served_items_not_in_the_brief']}",
        "    by segment (source set / item set / covering / call): "
        + "; ".join(
            f"{name} {figures['source set']}/{figures['item set']}/{figures['covering']}/"
            f"{figures['call']}"
            for name, figures in cached["levels_by_segment"].items()
        ),
    ]


def _describe_misses(misses: dict) -> str:
    return "; ".join(
        f"{name} {figures['misses']} ({figures['items_not_in_pack']})"
        for name, figures in misses.items()
    )
