"""Interests from a topic in plain words (SPEC §5: "interests are derived from the topic and
editable"): the one service the subscription form, the API and `create_subscription` call.

With a model key: one small call through digests/ai/llm.py (tool-schema output), cached in the
combination cache per normalized topic and language, so the same topic typed twice — by one
reader or by a thousand — costs one call. It returns a handful of interests (key phrases,
synonyms, the usual abbreviation) and, rarely, negative keywords. Without a key, when the
caller's allowance of model suggestions is spent, and as the fallback on any failure: the
deterministic extractor of digests/subscriptions/topic_terms.py.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import datetime
from string import Template

from django.conf import settings

from digests.ai import combination_cache, llm, prompts
from digests.models import LLMCall
from digests.narrative.summaries import LANGUAGE_NAMES, normalize_locale
from digests.subscriptions.topic_terms import MAX_TERM_CHARS, MAX_TERMS, extract_terms
from ingest.text.terms import clean_term, same_term_key

logger = logging.getLogger(__name__)

TOOL_NAME = "suggest_interests"
TOOL_DESCRIPTION = "Record the search terms for the reader's topic."
MAX_NEGATIVE = 4
MODEL = "model"
WORDS = "words"


@dataclass(frozen=True)
class Suggestion:
    interests: list[str]
    negative_keywords: list[str] = field(default_factory=list)
    source: str = WORDS  # MODEL or WORDS: who derived them


def normalized_topic(topic: str) -> str:
    """The cache's spelling of a topic: compatibility forms and case folded, spaces collapsed,
    trailing punctuation dropped ("Rust async runtimes." is "rust async runtimes")."""
    return clean_term(topic).casefold().rstrip(" .!?。！？…")


def suggest(topic: str, *, locale: str, now: datetime, use_model: bool = True) -> Suggestion:
    """Interests (and negative keywords) for `topic`. Never raises for the model's sake: any
    failure falls back to the extractor."""
    topic = clean_term(topic)
    if not topic:
        return Suggestion([])
    if use_model and llm.is_configured():
        try:
            return _from_model(topic, locale=normalize_locale(locale), now=now)
        except llm.LLMError as exc:
            logger.warning("interests for a topic: %s; using the extractor", exc)
        except Exception:
            logger.exception("interests for a topic: unexpected failure; using the extractor")
    return Suggestion(extract_terms(topic), [], WORDS)


def _schema() -> dict:
    term = {"type": "string", "minLength": 1, "maxLength": MAX_TERM_CHARS}
    return {
        "type": "object",
        "required": ["interests", "negative_keywords"],
        "properties": {
            "interests": {"type": "array", "minItems": 1, "maxItems": MAX_TERMS, "items": term},
            "negative_keywords": {"type": "array", "maxItems": MAX_NEGATIVE, "items": term},
        },
    }


def clean_terms(terms: list[str], *, limit: int) -> list[str]:
    """Terms as stored: folded forms, one of each singular/plural pair, at most `limit`."""
    kept: dict[str, str] = {}
    for term in terms:
        term = clean_term(term)
        if term and len(term) <= MAX_TERM_CHARS:
            kept.setdefault(same_term_key(term), term)
    return list(kept.values())[:limit]


def _check(data: dict) -> dict:
    interests = clean_terms(data["interests"], limit=MAX_TERMS)
    if not interests:
        raise ValueError("no usable interest")
    taken = {same_term_key(term) for term in interests}
    negative = [
        term
        for term in clean_terms(data["negative_keywords"], limit=MAX_NEGATIVE)
        if same_term_key(term) not in taken  # a term cannot be wanted and excluded at once
    ]
    return {"interests": interests, "negative_keywords": negative}


def _from_model(topic: str, *, locale: str, now: datetime) -> Suggestion:
    prompt = prompts.load("interests")
    model = settings.LLM_MODEL_SUMMARY
    request = llm.ToolRequest(
        purpose=LLMCall.Purpose.INTERESTS,
        model=model,
        prompt_version=prompt.version,
        system=Template(prompt.text).safe_substitute(language=LANGUAGE_NAMES.get(locale, locale)),
        user=json.dumps({"topic": topic}, ensure_ascii=False),
        tool_name=TOOL_NAME,
        tool_description=TOOL_DESCRIPTION,
        input_schema=_schema(),
        max_tokens=400,
    )

    def compute():
        result = llm.call_tool(request, now=now, validate=_check)
        return result.data, result.input_tokens, result.output_tokens

    key = combination_cache.combination_key(
        "interests",
        inputs=[normalized_topic(topic)],
        options={"locale": locale, "prompt_version": prompt.version, "model": model},
        window=None,
    )
    result = combination_cache.get_or_compute(
        "interests", key, compute, now=now, inputs_desc={"topic": topic[:200], "locale": locale}
    )
    value = result.value
    return Suggestion(list(value["interests"]), list(value["negative_keywords"]), MODEL)
