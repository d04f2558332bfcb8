"""Optional LLM relevance: off by default; on, the model re-ranks the top N candidates and
its one-line reason becomes the item's "why selected"."""

from __future__ import annotations

import pytest
from django.test import override_settings

from digests.models import LLMCall
from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from tests.digests import fake_anthropic as fake_api
from tests.digests.fake_anthropic import FakeAnthropic
from tests.factories import add_item


@pytest.fixture
def fake(db):
    with FakeAnthropic.running(LLM_MAX_RETRIES=0) as server:
        yield server


def run_brief(user, now, **data):
    base = {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}
    subscription = create_subscription(user, {**base, **data}, now=now)
    run = request_manual_run(subscription, now=now)
    return runner.execute_run(run.pk, now=now)


def add_stories(now):
    # Newest first scores highest on keywords: story 1, 2, 3, 4.
    for n in range(1, 5):
        add_item(f"PostgreSQL story {n}", now=now, age_hours=n)


def titles(run):
    return list(run.items.order_by("rank").values_list("title", flat=True))


def test_it_is_off_by_default(fake, alice, now):
    add_stories(now)
    run = run_brief(alice, now)
    assert fake.requests_for("score_relevance") == []
    assert titles(run) == [f"PostgreSQL story {n}" for n in (1, 2, 3, 4)]
    assert "matches PostgreSQL in the title" in run.items.get(rank=1).reason


@override_settings(LLM_RELEVANCE_ENABLED=True, LLM_RELEVANCE_TOP_N=3)
def test_the_model_re_ranks_the_top_n_and_explains_why(fake, alice, now):
    add_stories(now)
    run = run_brief(alice, now)
    # The fake rates later items higher (50, 60, 70): the top three are reversed; the fourth,
    # outside the top N, keeps its place.
    assert titles(run) == [f"PostgreSQL story {n}" for n in (3, 2, 1, 4)]
    first = run.items.get(rank=1)
    assert first.reason.startswith("Semantically about PostgreSQL story 3")
    assert first.relevance == 70
    request = fake.requests_for("score_relevance")[0]
    assert request.payload()["subscription"]["interests"] == ["PostgreSQL"]
    assert len(request.payload()["items"]) == 3
    assert LLMCall.objects.filter(purpose="relevance", run=run).count() == 1


@override_settings(LLM_RELEVANCE_ENABLED=True)
def test_a_failure_keeps_the_keyword_ranking(fake, alice, now):
    add_stories(now)
    fake.queue(fake_api.status(429, retry_after="3600"))
    run = run_brief(alice, now)
    assert run.status == "succeeded"
    assert titles(run) == [f"PostgreSQL story {n}" for n in (1, 2, 3, 4)]
    assert "matches PostgreSQL" in run.items.get(rank=1).reason


@override_settings(LLM_RELEVANCE_ENABLED=True)
def test_without_a_key_relevance_stays_keyword_based(alice, now):
    add_stories(now)
    with override_settings(ANTHROPIC_API_KEY=""):
        run = run_brief(alice, now)
    assert titles(run)[0] == "PostgreSQL story 1"
    assert LLMCall.objects.count() == 0


@override_settings(LLM_RELEVANCE_ENABLED=True, LLM_RELEVANCE_TOP_N=3)
def test_two_readers_with_the_same_interests_share_one_model_answer(fake, alice, bob, now):
    # The combination cache: the same items, interests and language are one request, whoever
    # asks; both briefs carry the model's ranking and reasons.
    add_stories(now)
    first, second = run_brief(alice, now), run_brief(bob, now)
    assert len(fake.requests_for("score_relevance")) == 1
    assert titles(first) == titles(second) == [f"PostgreSQL story {n}" for n in (3, 2, 1, 4)]
    assert second.items.get(rank=1).reason.startswith("Semantically about PostgreSQL story 3")


@override_settings(LLM_RELEVANCE_ENABLED=True)
def test_a_malformed_answer_keeps_the_keyword_ranking(fake, alice, now):
    add_stories(now)
    # Asked again once for a usable answer (digests/ai/llm.py), and malformed again.
    for _ in range(2):
        fake.queue(fake_api.tool({"items": [{"ref": 99}]}))
    run = run_brief(alice, now)
    assert run.status == "succeeded"
    assert titles(run) == [f"PostgreSQL story {n}" for n in (1, 2, 3, 4)]
