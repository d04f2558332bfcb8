"""Optional LLM relevance (SPEC §6 step 3, seed 000 §4.4.2): the model re-scores the top
LLM_RELEVANCE_TOP_N candidates of the keyword ranking against the subscription, with a
one-line reason shown as the item's "why selected". Off unless LLM_RELEVANCE_ENABLED.

The model's relevance replaces the keyword relevance in the overall score
(0.5·relevance + 0.3·impact + 0.2·quality) and the top N are re-sorted; nothing below them
moves and nothing is dropped. Identical requests (same items, interests, language) share one
answer through the combination cache. Any failure leaves the keyword ranking as it was.
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from datetime import UTC, datetime, time, timedelta
from string import Template

from django.conf import settings

from digests.ai import combination_cache, llm, prompts
from digests.models import LLMCall, Subscription
from digests.narrative.summaries import LANGUAGE_NAMES, clean_text, normalize_locale

logger = logging.getLogger(__name__)

TEXT_CHARS = 600
REASON_MAX_CHARS = 200
TOOL_NAME = "score_relevance"
TOOL_DESCRIPTION = "Record how relevant each item is to the subscription, with a reason."


def _schema(count: int) -> dict:
    return {
        "type": "object",
        "required": ["items"],
        "properties": {
            "items": {
                "type": "array",
                "minItems": 1,
                "maxItems": count,
                "items": {
                    "type": "object",
                    "required": ["ref", "relevance", "reason"],
                    "properties": {
                        "ref": {"type": "integer", "minimum": 1, "maximum": count},
                        "relevance": {"type": "integer", "minimum": 0, "maximum": 100},
                        "reason": {"type": "string", "minLength": 1, "maxLength": 400},
                    },
                },
            }
        },
    }


def is_enabled() -> bool:
    return settings.LLM_RELEVANCE_ENABLED and llm.is_configured()


def rerank(
    subscription: Subscription,
    scored: list,
    *,
    locale: str,
    now: datetime,
    run_id: int | None = None,
    deadline: float | None = None,
) -> list:
    """`scored` (runner Candidates, best first) with the top N re-scored by the model."""
    if not scored or not is_enabled():
        return scored
    top, rest = scored[: settings.LLM_RELEVANCE_TOP_N], scored[settings.LLM_RELEVANCE_TOP_N :]
    try:
        verdicts = _verdicts(
            subscription, top, locale=locale, now=now, run_id=run_id, deadline=deadline
        )
    except llm.LLMError as exc:
        logger.warning("LLM relevance: %s; keeping the keyword ranking", exc)
        return scored
    except Exception:
        logger.exception("LLM relevance: unexpected failure; keeping the keyword ranking")
        return scored
    rescored = []
    for ref, candidate in enumerate(top, start=1):
        verdict = verdicts.get(str(ref))
        if verdict is None:
            rescored.append(candidate)
            continue
        relevance = verdict["relevance"]
        total = max(0, round(candidate.ranking_score + 0.5 * (relevance - candidate.relevance)))
        rescored.append(
            replace(
                candidate,
                relevance=relevance,
                overall=min(100, total),
                ranking=total,
                llm_reason=verdict["reason"][:REASON_MAX_CHARS],
            )
        )
    rescored.sort(key=lambda c: c.order_key())
    return rescored + rest


def _verdicts(subscription, top, *, locale, now, run_id, deadline) -> dict[str, dict]:
    """{ref (as a string, as JSON keeps it): {"relevance", "reason"}}."""
    prompt = prompts.load("relevance")
    locale = normalize_locale(locale)
    model = settings.LLM_MODEL_SUMMARY
    reader = {
        "topic": subscription.topic,
        "interests": sorted(subscription.interests or []),
        "excluded": sorted(subscription.negative_keywords or []),
    }
    payload = {
        "subscription": reader,
        "items": [
            {
                "ref": ref,
                "title": c.title,
                "source": c.site_name,
                "text": clean_text(c.description, title=c.title)[:TEXT_CHARS],
            }
            for ref, c in enumerate(top, start=1)
        ],
    }
    request = llm.ToolRequest(
        purpose=LLMCall.Purpose.RELEVANCE,
        model=model,
        prompt_version=prompt.version,
        system=Template(prompt.text).safe_substitute(language=LANGUAGE_NAMES.get(locale, locale)),
        user=json.dumps(payload, ensure_ascii=False),
        tool_name=TOOL_NAME,
        tool_description=TOOL_DESCRIPTION,
        input_schema=_schema(len(top)),
        max_tokens=100 + 60 * len(top),
    )

    def check(data: dict) -> dict:
        refs = [entry["ref"] for entry in data["items"]]
        if len(set(refs)) != len(refs):
            raise ValueError("an item appears twice")
        for entry in data["items"]:
            entry["reason"] = " ".join(entry["reason"].split())
        return data

    def compute():
        result = llm.call_tool(request, now=now, run_id=run_id, validate=check, deadline=deadline)
        verdicts = {
            str(entry["ref"]): {"relevance": entry["relevance"], "reason": entry["reason"]}
            for entry in result.data["items"]
        }
        return {"verdicts": verdicts}, result.input_tokens, result.output_tokens

    day = datetime.combine(now.astimezone(UTC).date(), time.min, tzinfo=UTC)
    key = combination_cache.combination_key(
        "relevance",
        # Refs are positions, so the order is part of the input.
        inputs=[f"{ref}:{c.canonical_url_hash}:{c.content_hash}" for ref, c in enumerate(top, 1)],
        options={
            **reader,
            "locale": locale,
            "prompt_version": prompt.version,
            "model": model,
        },
        window=(day, day + timedelta(days=1)),
    )
    result = combination_cache.get_or_compute(
        "relevance", key, compute, now=now, inputs_desc={"items": len(top), "locale": locale}
    )
    return result.value["verdicts"]
