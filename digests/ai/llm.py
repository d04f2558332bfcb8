"""The one module that talks to the language model (SPEC §7).

Every call asks for structured output through one tool with an `input_schema` and checks the
answer again on our side; a malformed answer is asked for once more, then fails as
`MalformedOutput`. Rate limits (429), server errors (5xx) and overload (529) are retried with
backoff, honouring `retry-after` but never waiting longer than MAX_RETRY_WAIT_SECONDS: a
server that asks for more gets no retry, and the caller falls back. The retries are ours, not
the SDK's (the client is built with `max_retries=0`), because the SDK waits as long as the
server asks.

Before each request an upper bound of its tokens is reserved against the platform's daily
budget with one conditional UPDATE (`LLMBudgetDay`), and settled to the real usage after, so
concurrent workers can never overspend by more than one estimate's error. A spent budget
raises `BudgetExhausted`. Every call leaves an `LLMCall` row, and its tokens are added to its
run. Callers catch `LLMError` and fall back to extractive summaries or the template narrative:
an LLM failure never fails a run.
"""

from __future__ import annotations

import email.utils
import json
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import lru_cache
from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models import F

from digests.models import LLMBudgetDay, LLMCall, Run

if TYPE_CHECKING:
    # Imported where it is used: the SDK takes seconds to import, and every process (the web
    # server, each management command, the worker) imports this module at start.
    import anthropic

logger = logging.getLogger(__name__)

MAX_RETRY_WAIT_SECONDS = 20.0
BACKOFF_BASE_SECONDS = 0.5
RETRYABLE_STATUSES = frozenset({408, 409, 429})  # and every 5xx, 529 (overloaded) included
# The reservation's input estimate: two UTF-8 bytes per token over-counts English (about four
# characters a token) and CJK (three bytes a character, about one token), plus what the API
# adds for tool use. The output bound is the request's max_tokens.
BYTES_PER_TOKEN_ESTIMATE = 2
TOOL_USE_OVERHEAD_TOKENS = 500


class LLMError(Exception):
    """The model gave no usable answer; the caller falls back."""

    outcome = LLMCall.Outcome.ERROR


class LLMNotConfigured(LLMError):
    """No ANTHROPIC_API_KEY: nothing was sent."""


class BudgetExhausted(LLMError):
    outcome = LLMCall.Outcome.BUDGET


class MalformedOutput(LLMError):
    outcome = LLMCall.Outcome.MALFORMED


class LLMUnavailable(LLMError):
    """An HTTP error, timeout or connection failure that retries did not cure."""


class SchemaError(ValueError):
    """The tool input does not match its schema (or a caller's own check)."""


@dataclass(frozen=True)
class ToolRequest:
    purpose: str  # LLMCall.Purpose
    model: str
    prompt_version: str
    system: str
    user: str
    tool_name: str
    tool_description: str
    input_schema: dict
    max_tokens: int


@dataclass(frozen=True)
class ToolResult:
    data: dict
    model: str
    input_tokens: int
    output_tokens: int
    attempts: int


def is_configured() -> bool:
    return bool(settings.ANTHROPIC_API_KEY)


@lru_cache(maxsize=4)
def _client(api_key: str, base_url: str) -> anthropic.Anthropic:
    import anthropic

    return anthropic.Anthropic(api_key=api_key, base_url=base_url or None, max_retries=0)


def client() -> anthropic.Anthropic:
    return _client(settings.ANTHROPIC_API_KEY, settings.ANTHROPIC_BASE_URL)


# --- the daily budget ------------------------------------------------------------------


def estimate_tokens(request: ToolRequest) -> int:
    """An upper bound of the tokens one request can use, reserved before it is sent."""
    sent = len(request.system.encode()) + len(request.user.encode())
    sent += len(json.dumps(request.input_schema).encode()) + len(request.tool_description)
    return -(-sent // BYTES_PER_TOKEN_ESTIMATE) + TOOL_USE_OVERHEAD_TOKENS + request.max_tokens


def reserve_budget(tokens: int, *, now: datetime) -> date:
    """Reserve `tokens` of today's budget or raise BudgetExhausted. Returns the day to settle
    against (a request that crosses midnight settles on the day it reserved)."""
    day = now.astimezone(UTC).date()
    limit = settings.LLM_DAILY_TOKEN_BUDGET - tokens
    within_budget = LLMBudgetDay.objects.filter(day=day, tokens_used__lte=limit)
    reserved = within_budget.update(tokens_used=F("tokens_used") + tokens)
    if not reserved:
        # The day's first call (or a spent budget): make sure the row exists, try once more.
        LLMBudgetDay.objects.get_or_create(day=day)
        reserved = within_budget.update(tokens_used=F("tokens_used") + tokens)
    if reserved:
        return day
    raise BudgetExhausted(
        f"The daily LLM budget of {settings.LLM_DAILY_TOKEN_BUDGET} tokens is spent "
        f"(this request needed up to {tokens})."
    )


def settle_budget(day: date, *, reserved: int, used: int) -> None:
    if used != reserved:
        LLMBudgetDay.objects.filter(day=day).update(tokens_used=F("tokens_used") + used - reserved)


# --- output checks ---------------------------------------------------------------------

_JSON_TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
}


def check_schema(value, schema: dict, path: str = "$") -> None:
    """The subset of JSON Schema our tools use: type, properties, required, items, enum,
    min/maxLength, min/maxItems, minimum/maximum. Raises SchemaError naming the path."""
    kind = schema.get("type")
    if kind:
        expected = _JSON_TYPES[kind]
        if not isinstance(value, expected) or (kind in ("integer", "number") and value is True):
            raise SchemaError(f"{path}: expected {kind}, got {type(value).__name__}")
    if "enum" in schema and value not in schema["enum"]:
        raise SchemaError(f"{path}: {value!r} is not one of {schema['enum']}")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            raise SchemaError(f"{path}: shorter than {schema['minLength']} characters")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            raise SchemaError(f"{path}: longer than {schema['maxLength']} characters")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            raise SchemaError(f"{path}: below {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            raise SchemaError(f"{path}: above {schema['maximum']}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            raise SchemaError(f"{path}: fewer than {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            raise SchemaError(f"{path}: more than {schema['maxItems']} items")
        for index, element in enumerate(value):
            check_schema(element, schema.get("items", {}), f"{path}[{index}]")
    if isinstance(value, dict):
        for name in schema.get("required", []):
            if name not in value:
                raise SchemaError(f"{path}: '{name}' is missing")
        for name, subschema in schema.get("properties", {}).items():
            if name in value:
                check_schema(value[name], subschema, f"{path}.{name}")


def _tool_input(message, request: ToolRequest) -> dict:
    if getattr(message, "stop_reason", None) == "max_tokens":
        raise SchemaError(f"the answer was cut off at max_tokens={request.max_tokens}")
    for block in message.content or []:
        if getattr(block, "type", None) == "tool_use" and block.name == request.tool_name:
            data = block.input
            check_schema(data, request.input_schema)
            return data
    raise SchemaError(f"the answer did not call the {request.tool_name} tool")


# --- retries ---------------------------------------------------------------------------


def retry_after_seconds(headers) -> float | None:
    """What the server asked us to wait (`retry-after-ms`, or `retry-after` in seconds or as
    an HTTP date), or None."""
    if headers is None:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        raw = headers.get(name)
        if raw is None:
            continue
        try:
            return max(0.0, float(raw) * scale)
        except ValueError:
            pass
        if name == "retry-after":
            try:
                when = email.utils.parsedate_to_datetime(raw)
            except (TypeError, ValueError):
                return None
            if when.tzinfo is None:
                return None
            return max(0.0, (when - datetime.now(UTC)).total_seconds())
    return None


def _backoff(retry_number: int) -> float:
    return BACKOFF_BASE_SECONDS * 2**retry_number * (1 - 0.25 * random.random())  # noqa: S311


def _retryable_status(status: int) -> bool:
    return status in RETRYABLE_STATUSES or status >= 500


@dataclass
class _Tally:
    attempts: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


def _send(request, user_text, tally, *, now, deadline, sleep):
    import anthropic

    """One answer from the model, through retries of transient failures."""
    last_problem = ""
    for retry_number in range(settings.LLM_MAX_RETRIES + 1):
        timeout = float(settings.LLM_TIMEOUT_SECONDS)
        if deadline is not None:
            timeout = min(timeout, deadline - time.monotonic())
            if timeout < 0.5:
                raise LLMUnavailable(f"no time left for the model ({last_problem or 'deadline'})")
        estimate = estimate_tokens(request)
        day = reserve_budget(estimate, now=now)
        tally.attempts += 1
        wait = None
        try:
            message = client().messages.create(
                model=request.model,
                max_tokens=request.max_tokens,
                system=request.system,
                messages=[{"role": "user", "content": user_text}],
                tools=[
                    {
                        "name": request.tool_name,
                        "description": request.tool_description,
                        "input_schema": request.input_schema,
                    }
                ],
                tool_choice={"type": "tool", "name": request.tool_name},
                timeout=timeout,
            )
        except anthropic.APIStatusError as exc:
            settle_budget(day, reserved=estimate, used=0)
            last_problem = f"HTTP {exc.status_code}"
            if not _retryable_status(exc.status_code):
                raise LLMUnavailable(f"{last_problem}: {exc.message}"[:500]) from exc
            wait = retry_after_seconds(exc.response.headers)
            if wait is not None and wait > MAX_RETRY_WAIT_SECONDS:
                raise LLMUnavailable(f"{last_problem}; asked to wait {wait:.0f} s") from exc
        except anthropic.APITimeoutError:
            # The model may have worked on it: the reservation stands as the cost.
            last_problem = f"timed out after {timeout:.1f} s"
        except anthropic.APIConnectionError as exc:
            settle_budget(day, reserved=estimate, used=0)
            last_problem = f"connection failed: {exc}"
        except anthropic.AnthropicError as exc:  # e.g. an answer the SDK could not parse
            settle_budget(day, reserved=estimate, used=0)
            raise LLMUnavailable(f"{type(exc).__name__}: {exc}"[:500]) from exc
        else:
            usage = message.usage
            used_in, used_out = usage.input_tokens or 0, usage.output_tokens or 0
            settle_budget(day, reserved=estimate, used=used_in + used_out)
            tally.input_tokens += used_in
            tally.output_tokens += used_out
            return message
        if retry_number == settings.LLM_MAX_RETRIES:
            break
        wait = _backoff(retry_number) if wait is None else wait
        if deadline is not None and time.monotonic() + wait > deadline:
            break
        logger.info("LLM %s: %s; retrying in %.2f s", request.purpose, last_problem, wait)
        sleep(wait)
    raise LLMUnavailable(f"{last_problem} (after {tally.attempts} attempts)"[:500])


def call_tool(
    request: ToolRequest,
    *,
    now: datetime,
    run_id: int | None = None,
    validate: Callable[[dict], dict] | None = None,
    deadline: float | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> ToolResult:
    """Ask the model to answer by calling `request`'s tool; return the checked tool input.

    `validate(data)` may clean the data and return it, or raise ValueError: like a schema
    mismatch, that asks the model once more, then raises MalformedOutput. `deadline` is a
    `time.monotonic()` value no retry may pass. Raises an LLMError subclass on failure."""
    if not is_configured():
        raise LLMNotConfigured("ANTHROPIC_API_KEY is not set.")
    started = time.monotonic()
    tally = _Tally()
    outcome, error = LLMCall.Outcome.OK, ""
    try:
        user_text = request.user
        for answer_number in range(2):
            message = _send(request, user_text, tally, now=now, deadline=deadline, sleep=sleep)
            try:
                data = _tool_input(message, request)
                if validate is not None:
                    data = validate(data)
            except ValueError as exc:
                error = str(exc)[:500]
                logger.info("LLM %s answer %d rejected: %s", request.purpose, answer_number, exc)
                user_text = (
                    f"{request.user}\n\nYour previous answer was rejected ({error}). "
                    f"Answer again by calling the {request.tool_name} tool, following every rule."
                )
                continue
            return ToolResult(
                data=data,
                model=getattr(message, "model", "") or request.model,
                input_tokens=tally.input_tokens,
                output_tokens=tally.output_tokens,
                attempts=tally.attempts,
            )
        raise MalformedOutput(f"The model's answer was rejected twice: {error}")
    except LLMError as exc:
        outcome, error = exc.outcome, str(exc)[:500]
        raise
    except Exception as exc:
        outcome, error = LLMCall.Outcome.ERROR, f"{type(exc).__name__}: {exc}"[:500]
        raise
    finally:
        _record(request, tally, outcome, error, run_id=run_id, now=now, started=started)


def _record(request, tally, outcome, error, *, run_id, now, started) -> None:
    LLMCall.objects.create(
        purpose=request.purpose,
        model=request.model[:100],
        prompt_version=request.prompt_version[:32],
        run_id=run_id,
        outcome=outcome,
        input_tokens=tally.input_tokens,
        output_tokens=tally.output_tokens,
        attempts=tally.attempts,
        duration_ms=int((time.monotonic() - started) * 1000),
        error=error if outcome != LLMCall.Outcome.OK else "",
        created_at=now,
    )
    if run_id and (tally.input_tokens or tally.output_tokens):
        Run.objects.filter(pk=run_id).update(
            input_tokens=F("input_tokens") + tally.input_tokens,
            output_tokens=F("output_tokens") + tally.output_tokens,
        )
