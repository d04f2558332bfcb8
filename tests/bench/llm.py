"""`llm`: tokens per run and per item summary on the demo data, with the fake Anthropic server
(usage: about four characters a token of what is sent and returned — tests/digests/
fake_anthropic.py), and what the caches save.

Data: `manage.py demo`'s offline content (the shipped demo feeds) and its four subscriptions,
run once by the demo user (cold caches), then once more by a second user with the same
subscriptions (warm). Baseline in the same process: the same runs with no API key (extractive
summaries, template narrative). ratio = tokens of the warm round ÷ tokens of the cold round.

Sizes (tests/bench/sizes.py): the demo data is small, so full, small and smoke are the same
(40 pool items, 4 subscriptions, three rounds of their runs). Checks: every run succeeded;
the warm round cost fewer tokens than the cold one.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

from django.db import connection
from django.db.models import Count, Sum
from django.test import override_settings

from billing import tiers
from billing.accounts import ensure_account
from billing.models import Tier
from digests.demo import CUSTOM_SUBSCRIPTION, DEMO_TEMPLATES, set_up_demo
from digests.models import LLMCall, Run, Subscription
from digests.runs import runner
from digests.subscriptions import service as subscriptions
from inbox.accounts import sign_up
from ingest.models import ContentEnrichment, ContentItem, UserSource
from tests.digests.fake_anthropic import FakeAnthropic, quiet_client_logs


def _round(user, now) -> list[Run]:
    runs = []
    for subscription in Subscription.objects.alive().filter(owner=user).order_by("id"):
        run = subscriptions.request_manual_run(subscription, now=now)
        runs.append(runner.execute_run(run.pk, now=now))
    return runs


def _copy_subscriptions(user, demo_user, now) -> None:
    source_ids = list(UserSource.objects.filter(user=demo_user).values_list("source_id", flat=True))
    for source_id in source_ids:
        UserSource.objects.get_or_create(user=user, source_id=source_id)
    for key in DEMO_TEMPLATES:
        subscriptions.create_from_template(
            user, key, now=now, timezone="UTC", source_ids=source_ids
        )
    subscriptions.create_subscription(user, CUSTOM_SUBSCRIPTION, now=now)


def _usage(runs: list[Run]) -> dict:
    ids = [run.pk for run in runs]
    runs = list(Run.objects.filter(pk__in=ids))
    calls = LLMCall.objects.filter(run_id__in=ids)
    by_purpose = {
        row["purpose"]: row
        for row in calls.values("purpose").annotate(
            calls=Count("id"), input=Sum("input_tokens"), output=Sum("output_tokens")
        )
    }
    items = sum(run.delivered_count for run in runs)
    tokens = sum(run.input_tokens + run.output_tokens for run in runs)
    return {
        "runs": len(runs),
        "items": items,
        "input_tokens": sum(run.input_tokens for run in runs),
        "output_tokens": sum(run.output_tokens for run in runs),
        "tokens": tokens,
        "tokens_per_run": round(tokens / max(1, len(runs))),
        "calls": {purpose: row["calls"] for purpose, row in by_purpose.items()},
        "by_purpose": {
            purpose: {"input": row["input"], "output": row["output"]}
            for purpose, row in by_purpose.items()
        },
    }


def _user_like_demo(email: str, demo_user, now):
    user = sign_up(email=email, password="bench-only-" + "x" * 20, now=now)
    # The demo user's plan: a Free account stops at three subscriptions.
    tiers.change_tier(ensure_account(user, now=now).pk, Tier.PRO, now=now)
    _copy_subscriptions(user, demo_user, now)
    return user


def run(size: str = "full") -> dict:
    quiet_client_logs()  # one INFO line per request otherwise
    now = datetime.now(UTC).replace(microsecond=0)
    with override_settings(ANTHROPIC_API_KEY=""):
        demo = set_up_demo(now=now)
        demo_user = Subscription.objects.get(name=CUSTOM_SUBSCRIPTION["name"]).owner
        plain_user = _user_like_demo("plain@tidings.local", demo_user, now)
        started = time.perf_counter()
        plain = _round(plain_user, now)
        baseline_seconds = time.perf_counter() - started
    with FakeAnthropic.running() as fake:
        first = _user_like_demo("first@tidings.local", demo_user, now)
        started = time.perf_counter()
        cold = _round(first, now)
        cold_seconds = time.perf_counter() - started
        second = _user_like_demo("second@tidings.local", demo_user, now)
        started = time.perf_counter()
        warm = _round(second, now)
        warm_seconds = time.perf_counter() - started
        requests = len(fake.requests)
        fake_usage = dict(fake.usage)
    cold_usage, warm_usage = _usage(cold), _usage(warm)
    summary = cold_usage["by_purpose"].get("summary", {"input": 0, "output": 0})
    summarized = ContentEnrichment.objects.filter(prompt_version__startswith="item_summary.")
    summarized = summarized.count()
    return {
        "name": "llm",
        "database": connection.vendor,
        "size": size,
        "pool_items": ContentItem.objects.count(),
        "demo_runs": demo.runs_made,
        "cold": cold_usage,
        "cold_seconds": round(cold_seconds, 3),
        "warm": warm_usage,
        "warm_seconds": round(warm_seconds, 3),
        "fake_requests": requests,
        "fake_usage": fake_usage,
        "baseline_runs_without_key": len(plain),
        "baseline_seconds_without_key": round(baseline_seconds, 3),
        "items_summarized": summarized,
        "summary_tokens_per_item": {
            "input": round(summary["input"] / max(1, summarized)),
            "output": round(summary["output"] / max(1, summarized)),
        },
        "ratio": round(warm_usage["tokens"] / max(1, cold_usage["tokens"]), 3),
        "checks": {
            "every run succeeded": all(
                run.status == Run.Status.SUCCEEDED for run in (*plain, *cold, *warm)
            ),
            "the warm round costs fewer tokens": warm_usage["tokens"] < cold_usage["tokens"],
        },
    }


def describe(result: dict) -> list[str]:
    cold, warm = result["cold"], result["warm"]
    per_item = result["summary_tokens_per_item"]
    narrative = cold["by_purpose"].get("narrative", {"input": 0, "output": 0})
    return [
        f"llm benchmark on {result['database']} ({result['size']}) — demo data, fake Anthropic "
        "API (≈4 chars/token)",
        f"  data: {result['pool_items']} pool items, {cold['runs']} subscriptions, "
        f"{cold['items']} items delivered per round",
        f"  cold round (first user, empty caches): {cold['tokens']} tokens "
        f"({cold['input_tokens']} in / {cold['output_tokens']} out) = "
        f"{cold['tokens_per_run']} per run; calls {cold['calls']}; {result['cold_seconds']} s",
        f"  per item summary: {per_item['input']} in / {per_item['output']} out "
        f"({result['items_summarized']} items summarized, batched)",
        f"  narratives: {narrative['input']} in / {narrative['output']} out over {cold['runs']} "
        "runs",
        f"  warm round (second user, same subscriptions): {warm['tokens']} tokens, calls "
        f"{warm['calls']}; {result['warm_seconds']} s",
        f"  baseline without a key: {result['baseline_runs_without_key']} runs in "
        f"{result['baseline_seconds_without_key']} s (extractive + template, 0 tokens)",
        f"  ratio (warm tokens ÷ cold tokens): {result['ratio']}",
    ]
