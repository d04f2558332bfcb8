"""digests.ai.llm: the real anthropic client against a fake Messages API on loopback."""

from __future__ import annotations

import threading
from datetime import timedelta
from email.utils import format_datetime

import pytest
from django.db import connection
from django.test import override_settings

from digests.ai import llm
from digests.models import LLMBudgetDay, LLMCall, Run
from digests.subscriptions.service import create_subscription, request_manual_run
from tests.digests import fake_anthropic as fake_api
from tests.digests.fake_anthropic import FakeAnthropic

SCHEMA = {
    "type": "object",
    "required": ["answer", "score"],
    "properties": {
        "answer": {"type": "string", "minLength": 1, "maxLength": 50},
        "score": {"type": "integer", "minimum": 0, "maximum": 100},
    },
}
GOOD = {"answer": "forty-two", "score": 42}


def ask(now, *, run_id=None, sleep=None, validate=None, deadline=None):
    request = llm.ToolRequest(
        purpose=LLMCall.Purpose.SUMMARY,
        model="fake-haiku",
        prompt_version="test.v1",
        system="Answer with the tool.",
        user='{"question": "What is six times seven?"}',
        tool_name="answer",
        tool_description="Record the answer.",
        input_schema=SCHEMA,
        max_tokens=200,
    )
    waits = []
    result = llm.call_tool(
        request,
        now=now,
        run_id=run_id,
        validate=validate,
        deadline=deadline,
        sleep=sleep or waits.append,
    )
    return result, waits


@pytest.fixture
def fake(db):
    with FakeAnthropic.running(LLM_MAX_RETRIES=2, LLM_TIMEOUT_SECONDS=5) as server:
        yield server


@pytest.fixture
def run(alice, now):
    subscription = create_subscription(
        alice, {"name": "PG", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    return request_manual_run(subscription, now=now)


def spent_today(now) -> int:
    row = LLMBudgetDay.objects.filter(day=now.date()).first()
    return row.tokens_used if row else 0


def test_a_well_formed_answer_is_returned_and_its_usage_recorded(fake, run, now):
    fake.queue(fake_api.tool(GOOD))
    result, waits = ask(now, run_id=run.pk)
    assert result.data == GOOD
    assert (result.attempts, waits) == (1, [])
    usage = fake.usage
    assert (result.input_tokens, result.output_tokens) == (
        usage["input_tokens"],
        usage["output_tokens"],
    )
    call = LLMCall.objects.get()
    assert (call.outcome, call.model, call.prompt_version, call.run_id) == (
        "ok",
        "fake-haiku",
        "test.v1",
        run.pk,
    )
    assert (call.input_tokens, call.output_tokens) == (result.input_tokens, result.output_tokens)
    run.refresh_from_db()
    assert (run.input_tokens, run.output_tokens) == (result.input_tokens, result.output_tokens)
    # The reservation was settled to what the call really used.
    assert spent_today(now) == result.input_tokens + result.output_tokens
    sent = fake.requests[0].body
    assert sent["tool_choice"] == {"type": "tool", "name": "answer"}
    assert sent["tools"][0]["input_schema"] == SCHEMA


def test_a_malformed_answer_is_asked_for_once_more(fake, now):
    fake.queue(fake_api.text_only(), fake_api.tool(GOOD))
    result, _waits = ask(now)
    assert result.data == GOOD
    assert result.attempts == 2
    assert "previous answer was rejected" in fake.requests[1].user_text
    call = LLMCall.objects.get()
    assert (call.outcome, call.attempts) == ("ok", 2)
    # Both answers cost tokens, and both are counted.
    assert call.input_tokens == fake.usage["input_tokens"]


def test_two_malformed_answers_are_a_typed_failure(fake, now):
    fake.queue(fake_api.tool({"answer": "x", "score": "high"}), fake_api.tool({"answer": ""}))
    with pytest.raises(llm.MalformedOutput, match="rejected twice"):
        ask(now)
    call = LLMCall.objects.get()
    assert call.outcome == "malformed"
    assert "score" in call.error or "answer" in call.error
    assert len(fake.requests) == 2


def test_our_own_check_rejects_an_answer_the_schema_allows(fake, now):
    fake.queue(fake_api.tool({"answer": "seven", "score": 7}), fake_api.tool(GOOD))

    def must_be_42(data):
        if data["score"] != 42:
            raise ValueError("wrong score")
        return data

    result, _waits = ask(now, validate=must_be_42)
    assert result.data == GOOD
    assert "wrong score" in fake.requests[1].user_text


def test_an_answer_cut_off_at_max_tokens_is_malformed(fake, now):
    fake.queue(fake_api.tool(GOOD, stop_reason="max_tokens"), fake_api.tool(GOOD))
    result, _waits = ask(now)
    assert result.attempts == 2


def test_a_429_is_retried_after_the_time_the_server_asked_for(fake, now):
    fake.queue(fake_api.status(429, retry_after="3"), fake_api.tool(GOOD))
    result, waits = ask(now)
    assert result.data == GOOD
    assert waits == [3.0]
    assert LLMCall.objects.get().attempts == 2
    # The refused request cost nothing: the budget holds only the answered one.
    assert spent_today(now) == result.input_tokens + result.output_tokens


def test_retry_after_ms_and_http_dates_are_understood(now):
    assert llm.retry_after_seconds({"retry-after-ms": "250"}) == 0.25
    assert llm.retry_after_seconds({"retry-after": "7"}) == 7.0
    soon = format_datetime(llm.datetime.now(llm.UTC) + timedelta(seconds=30), usegmt=True)
    assert 25 <= llm.retry_after_seconds({"retry-after": soon}) <= 30
    assert llm.retry_after_seconds({"retry-after": "whenever"}) is None
    assert llm.retry_after_seconds({}) is None


def test_a_server_asking_for_too_long_a_wait_gets_no_retry(fake, now):
    fake.queue(fake_api.status(429, retry_after="600"), fake_api.tool(GOOD))
    with pytest.raises(llm.LLMUnavailable, match="asked to wait 600 s"):
        ask(now)
    assert len(fake.requests) == 1
    assert LLMCall.objects.get().outcome == "error"


def test_server_errors_and_overload_are_retried_with_growing_backoff(fake, now):
    fake.queue(fake_api.status(529), fake_api.status(503), fake_api.tool(GOOD))
    result, waits = ask(now)
    assert result.data == GOOD
    assert result.attempts == 3
    assert len(waits) == 2
    assert 0.37 <= waits[0] <= 0.5
    assert 0.75 <= waits[1] <= 1.0


def test_retries_stop_after_the_configured_number(fake, now):
    fake.queue(*[fake_api.status(529)] * 5)
    with pytest.raises(llm.LLMUnavailable, match="HTTP 529"):
        ask(now)
    assert len(fake.requests) == 3  # LLM_MAX_RETRIES=2
    assert LLMCall.objects.get().attempts == 3


def test_a_client_error_is_not_retried(fake, now):
    fake.queue(fake_api.status(400), fake_api.tool(GOOD))
    with pytest.raises(llm.LLMUnavailable, match="HTTP 400"):
        ask(now)
    assert len(fake.requests) == 1


def test_a_timeout_is_retried_then_gives_up(fake, now):
    fake.queue(fake_api.stall(1.5), fake_api.tool(GOOD))
    with override_settings(LLM_TIMEOUT_SECONDS=0.3):
        result, waits = ask(now)
    assert result.data == GOOD
    assert result.attempts == 2
    assert len(waits) == 1
    fake.queue(fake_api.stall(1.5))
    with (
        override_settings(LLM_TIMEOUT_SECONDS=0.3, LLM_MAX_RETRIES=0),
        pytest.raises(llm.LLMUnavailable, match="timed out"),
    ):
        ask(now)


def test_no_retry_starts_past_the_deadline(fake, now):
    fake.queue(fake_api.status(429, retry_after="5"), fake_api.tool(GOOD))
    # Room for the first attempt on a loaded machine (2 s was not, under `-n 2`), none for the
    # retry the answer asks for 5 s later.
    deadline = llm.time.monotonic() + 4
    with pytest.raises(llm.LLMUnavailable):
        ask(now, deadline=deadline)
    assert len(fake.requests) == 1


def test_a_spent_budget_refuses_the_call_before_anything_is_sent(fake, run, now):
    LLMBudgetDay.objects.create(day=now.date(), tokens_used=999_900)
    with (
        override_settings(LLM_DAILY_TOKEN_BUDGET=1_000_000),
        pytest.raises(llm.BudgetExhausted, match="budget"),
    ):
        ask(now, run_id=run.pk)
    assert fake.requests == []
    call = LLMCall.objects.get()
    assert (call.outcome, call.attempts, call.input_tokens) == ("budget", 0, 0)
    assert spent_today(now) == 999_900
    # Tomorrow is another day.
    fake.queue(fake_api.tool(GOOD))
    result, _waits = ask(now + timedelta(days=1))
    assert result.data == GOOD


def test_a_budget_of_zero_turns_the_model_off(fake, now):
    with override_settings(LLM_DAILY_TOKEN_BUDGET=0), pytest.raises(llm.BudgetExhausted):
        ask(now)
    assert fake.requests == []


def test_without_a_key_nothing_is_sent_or_recorded(db, now):
    with override_settings(ANTHROPIC_API_KEY=""), pytest.raises(llm.LLMNotConfigured):
        ask(now)
    assert LLMCall.objects.count() == 0


def test_reservations_never_overspend(db, now):
    with override_settings(LLM_DAILY_TOKEN_BUDGET=1000):
        day = llm.reserve_budget(600, now=now)
        with pytest.raises(llm.BudgetExhausted):
            llm.reserve_budget(600, now=now)
        llm.settle_budget(day, reserved=600, used=100)
        llm.reserve_budget(600, now=now)
    assert spent_today(now) == 700


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_reservations_never_overspend(now):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL")
    barrier = threading.Barrier(8)
    granted, refused, errors = [], [], []

    def reserve():
        try:
            barrier.wait()
            llm.reserve_budget(300, now=now)
            granted.append(1)
        except llm.BudgetExhausted:
            refused.append(1)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    with override_settings(LLM_DAILY_TOKEN_BUDGET=1000):
        threads = [threading.Thread(target=reserve) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    assert errors == []
    assert (len(granted), len(refused)) == (3, 5)
    assert spent_today(now) == 900


def test_the_schema_check_names_the_path():
    schema = {
        "type": "object",
        "required": ["items"],
        "properties": {
            "items": {
                "type": "array",
                "maxItems": 2,
                "items": {"type": "object", "properties": {"n": {"type": "integer"}}},
            }
        },
    }
    llm.check_schema({"items": [{"n": 1}]}, schema)
    with pytest.raises(llm.SchemaError, match=r"\$\.items\[1\]\.n: expected integer"):
        llm.check_schema({"items": [{"n": 1}, {"n": True}]}, schema)
    with pytest.raises(llm.SchemaError, match="more than 2 items"):
        llm.check_schema({"items": [{}, {}, {}]}, schema)
    with pytest.raises(llm.SchemaError, match="'items' is missing"):
        llm.check_schema({}, schema)


def test_run_token_totals_add_up_over_calls(fake, run, now):
    fake.queue(fake_api.tool(GOOD), fake_api.tool({"answer": "a longer answer", "score": 1}))
    ask(now, run_id=run.pk)
    ask(now, run_id=run.pk)
    run = Run.objects.get(pk=run.pk)
    assert run.input_tokens == fake.usage["input_tokens"]
    assert run.output_tokens == fake.usage["output_tokens"]
    assert LLMCall.objects.filter(run=run).count() == 2
