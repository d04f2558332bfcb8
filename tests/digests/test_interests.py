"""Interests from a topic in plain words (digests/subscriptions/interests.py): one cached model
call with a key, the extractor without one and whenever the model fails."""

from __future__ import annotations

import pytest

from digests.models import CombinationCacheEntry, LLMCall
from digests.runs import runner
from digests.subscriptions.service import create_subscription, interests, update_subscription
from tests.digests import fake_anthropic as fake_api
from tests.digests.fake_anthropic import FakeAnthropic
from tests.factories import add_item


@pytest.fixture
def fake(db):
    with FakeAnthropic.running(LLM_MAX_RETRIES=0) as server:
        yield server


def answer(interests_, negative=()):
    return fake_api.tool({"interests": list(interests_), "negative_keywords": list(negative)})


def test_without_a_key_the_extractor_answers(db, now):
    suggestion = interests.suggest("keeping up with Rust async runtimes", locale="en", now=now)
    assert suggestion.source == "words"
    assert suggestion.interests == ["Rust async runtimes", "async runtimes"]
    assert LLMCall.objects.count() == 0


def test_with_a_key_one_model_call_serves_every_spelling_of_a_topic(fake, now):
    fake.queue(answer(["async runtime", "Tokio", "async Rust"], ["rust removal"]))
    first = interests.suggest("Rust async runtimes", locale="en", now=now)
    again = interests.suggest("  rust ASYNC runtimes. ", locale="en", now=now)
    assert first == again
    assert first.source == "model"
    assert first.interests == ["async runtime", "Tokio", "async Rust"]
    assert first.negative_keywords == ["rust removal"]
    assert len(fake.requests_for("suggest_interests")) == 1
    assert fake.requests_for("suggest_interests")[0].payload() == {"topic": "Rust async runtimes"}
    assert CombinationCacheEntry.objects.get().kind == "interests"
    assert LLMCall.objects.get().purpose == "interests"


def test_another_language_is_another_call(fake, now):
    interests.suggest("electric vehicles", locale="en", now=now)
    interests.suggest("electric vehicles", locale="zh-hans", now=now)
    requests = fake.requests_for("suggest_interests")
    assert len(requests) == 2
    assert "Simplified Chinese" in requests[1].body["system"]


def test_the_answer_is_cleaned_before_it_is_kept(fake, now):
    fake.queue(answer(["language models", "Language Model", "ＬＬＭ", " "], ["LLM", "crypto"]))
    suggestion = interests.suggest("language models", locale="en", now=now)
    # Empty terms dropped, one of each singular/plural pair, full width folded, and nothing
    # both wanted and excluded.
    assert suggestion.interests == ["language models", "LLM"]
    assert suggestion.negative_keywords == ["crypto"]


@pytest.mark.parametrize(
    "failure",
    [fake_api.status(500), fake_api.text_only(), answer([])],
    ids=["server error", "no tool call", "no interest"],
)
def test_any_failure_falls_back_to_the_extractor_and_is_not_cached(fake, now, failure):
    fake.queue(failure, failure)
    suggestion = interests.suggest("open-source databases and PostgreSQL", locale="en", now=now)
    assert suggestion.source == "words"
    assert suggestion.interests == ["open-source databases", "PostgreSQL"]
    assert not CombinationCacheEntry.objects.filter(state="ready").exists()
    fake.script.clear()
    fake.queue(answer(["PostgreSQL", "open-source database"]))
    assert (
        interests.suggest("open-source databases and PostgreSQL", locale="en", now=now).source
        == "model"
    )


def test_a_caller_out_of_model_allowance_gets_the_extractor(fake, now):
    suggestion = interests.suggest("heat pumps", locale="en", now=now, use_model=False)
    assert (suggestion.source, suggestion.interests) == ("words", ["heat pumps"])
    assert fake.requests == []


def test_a_subscription_with_only_a_topic_gets_derived_interests_and_a_brief(alice, now):
    add_item("Tokio 2.0 ships a faster async runtime", now=now)
    add_item("Gardening in November", now=now)
    subscription = create_subscription(
        alice,
        {"name": "Rust", "topic": "keeping up with Rust async runtimes", "cron": "0 8 * * *"},
        now=now,
    )
    assert subscription.interests == ["Rust async runtimes", "async runtimes"]
    selection = runner.preview(subscription, now=now)
    assert [c.title for c in selection.selected] == ["Tokio 2.0 ships a faster async runtime"]


def test_given_interests_are_kept_and_existing_ones_never_rewritten(alice, now):
    subscription = create_subscription(
        alice,
        {"name": "DB", "topic": "databases", "interests": ["SQLite"], "cron": "0 8 * * *"},
        now=now,
    )
    assert subscription.interests == ["SQLite"]
    update_subscription(subscription, {"topic": "open-source databases and PostgreSQL"}, now=now)
    subscription.refresh_from_db()
    assert subscription.interests == ["SQLite"]
