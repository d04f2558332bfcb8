"""The writer (SPEC §7, seed 000 §4.3): a run's narrative in its language and tone.

The model sees only the items' titles, sources, URLs and summaries, never who the reader is,
so one narrative serves every subscription with the same items, language, tone and length:
it goes through the combination cache (seed 002) and identical requests make one call.

What the model wrote is checked before it is used: links to anything but the run's items are
removed (their text is kept), images, HTML and a list of sources it may have added are
dropped, and an answer that is empty, too long or mentions no item is rejected (asked once
more, then the template narrative is used). The Sources list is always ours, appended after.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from string import Template

from django.conf import settings

from digests.ai import combination_cache, llm, prompts
from digests.models import LLMCall
from digests.narrative.summaries import (
    LANGUAGE_NAMES,
    TEMPLATE,
    normalize_locale,
    sources_block,
    template_narrative,
)

logger = logging.getLogger(__name__)

MAX_NARRATIVE_CHARS = 5000
ITEMS_SENT = 15  # the narrative is about the top stories; Sources still lists every item
TOOL_NAME = "write_narrative"
TOOL_DESCRIPTION = "Record the digest's overview as Markdown, with a few highlights."
SCHEMA = {
    "type": "object",
    "required": ["narrative_markdown"],
    "properties": {
        "narrative_markdown": {"type": "string", "minLength": 1, "maxLength": 8000},
        "highlights": {"type": "array", "maxItems": 6, "items": {"type": "string"}},
    },
}
TONES = {
    "neutral": "neutral, matter-of-fact",
    "casual": "friendly, conversational",
    "friendly": "friendly, conversational",
    "formal": "formal, precise",
    "editorial": "editorial, opinionated but fair",
    "concise": "terse, to-the-point",
}
CJK_LOCALES = {"zh-hans", "ja", "ko"}


@dataclass(frozen=True)
class NarrativeItem:
    canonical_url_hash: str
    content_hash: str
    title: str
    url: str
    summary: str
    source_name: str = ""

    def as_dict(self) -> dict:
        return {
            "title": self.title,
            "url": self.url,
            "summary": self.summary,
            "source_name": self.source_name,
        }


@dataclass(frozen=True)
class Narrative:
    markdown: str
    generator: str  # "template", the model's name, or "" when there is nothing to say
    cache_hit: bool = False


def tone_words(tone: str) -> str:
    """The tone as prompt words: a known tone's description, or the user's own word(s)
    stripped to letters so it cannot smuggle instructions into the prompt."""
    tone = (tone or "").strip().lower()
    if tone in TONES:
        return TONES[tone]
    words = re.sub(r"[^\w\s-]", " ", tone)
    words = " ".join(words.split())[:32]
    return words or TONES["neutral"]


def length_for(item_count: int) -> tuple[str, int]:
    """(label, words) for a narrative over `item_count` items."""
    if item_count <= 5:
        return "short", 120
    if item_count <= 15:
        return "medium", 200
    return "long", 280


# --- checking what the model wrote -----------------------------------------------------

_HTML_TAG = re.compile(r"</?[a-zA-Z][^>]*>")
_IMAGE = re.compile(r"!\[([^\]\n]*)\]\([^)\n]*\)")
_REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]\n]+\]:\s*\S+.*$", re.MULTILINE)
_REFERENCE_LINK = re.compile(r"\[([^\[\]\n]+)\]\[[^\]\n]*\]")
# [text](url "title"), the URL allowed one level of balanced parentheses.
_LINK = re.compile(
    r"\[([^\[\]\n]+)\]\(\s*<?((?:[^\s()<>]|\([^\s()<>]*\))+)>?(?:\s+\"[^\"\n]*\")?\s*\)"
)
_AUTOLINK = re.compile(r"<(https?://[^>\s]+)>")
_BARE_URL = re.compile(r"(?<![(\[\w])(?:https?://|www\.)[^\s)\]>]+")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s*", re.MULTILINE)
_SOURCES_HEADING = re.compile(
    r"^\s*(#{1,6}\s*)?[*_]*(sources?|references|links|来源|來源|参考|出典|출처)[*_]*\s*[:：]?[*_]*\s*$",
    re.IGNORECASE | re.MULTILINE,
)


def _url_key(url: str) -> str:
    # A trailing slash is the one liberty models take with a URL they were given.
    return url.strip().rstrip("/")


def _md_url(url: str) -> str:
    return url.replace("(", "%28").replace(")", "%29").replace(" ", "%20")


def clean_narrative(markdown: str, items: list[NarrativeItem]) -> str:
    """The model's Markdown with every link that is not one of `items` removed (its text
    kept), no images, HTML, headings or sources list. Raises ValueError when what is left is
    empty, too long, or mentions none of the items."""
    allowed = {_url_key(item.url): item.url for item in items}
    # <https://…> autolinks become ordinary links first, so the HTML stripping spares them.
    text = _AUTOLINK.sub(lambda m: f"[{m.group(1)}]({m.group(1)})", markdown or "")
    text = _HTML_TAG.sub("", text)
    text = _IMAGE.sub(lambda m: m.group(1), text)
    text = _REFERENCE_DEFINITION.sub("", text)
    text = _REFERENCE_LINK.sub(lambda m: m.group(1), text)
    if heading := _SOURCES_HEADING.search(text):
        text = text[: heading.start()]
    kept = 0

    def link(match):
        nonlocal kept
        url = allowed.get(_url_key(match.group(2)))
        if url is None:
            return match.group(1)
        kept += 1
        return f"[{match.group(1)}]({_md_url(url)})"

    text = _LINK.sub(link, text)
    text = _BARE_URL.sub("", text)
    text = _HEADING.sub("", text)
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(line.rstrip() for line in text.split("\n")))
    text = text.strip()
    if not text:
        raise ValueError("the narrative is empty")
    if len(text) > MAX_NARRATIVE_CHARS:
        raise ValueError(f"the narrative is {len(text)} characters; at most {MAX_NARRATIVE_CHARS}")
    folded = text.casefold()
    if not kept and not any(item.title.casefold()[:40] in folded for item in items if item.title):
        raise ValueError("the narrative mentions none of the items")
    return text


# --- writing ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Combination:
    """What seed 002's first level is keyed on: the subscription's source-set hash, the options
    that decide its selection, and its digest type's period window (digests/ai/periods.py)."""

    source_set_hash: str
    selection: dict
    period: str
    window: tuple[datetime, datetime]


def write_narrative(
    items: list[NarrativeItem],
    *,
    title: str,
    locale: str,
    tone: str = "",
    now: datetime,
    run_id: int | None = None,
    deadline: float | None = None,
    combination: Combination | None = None,
) -> Narrative:
    """The narrative for `items` (lead story first). `title` names the brief in the template
    narrative only; it is never sent to the model. With a `combination`, the cache is asked
    by source set and period first, then by item set."""
    if not items:
        return Narrative("", "")
    locale = normalize_locale(locale)
    if llm.is_configured():
        try:
            body, model, hit = _model_body(
                items,
                locale=locale,
                tone=tone,
                now=now,
                run_id=run_id,
                deadline=deadline,
                combination=combination,
            )
            markdown = f"{body}\n\n{sources_block([i.as_dict() for i in items], locale)}"
            return Narrative(markdown, model[:64], cache_hit=hit)
        except llm.LLMError as exc:
            logger.warning("narrative: %s; using the template", exc)
        except Exception:
            # The narrative is optional (SPEC §6 step 7): whatever broke, the run goes on.
            logger.exception("narrative: unexpected failure; using the template")
    markdown = template_narrative(title, [item.as_dict() for item in items], locale)
    return Narrative(markdown, TEMPLATE)


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:16]


def _model_body(
    items, *, locale, tone, now, run_id, deadline, combination=None
) -> tuple[str, str, bool]:
    prompt = prompts.load("narrative")
    sent = items[:ITEMS_SENT]
    length, words = length_for(len(items))
    tone_text = tone_words(tone)
    model = settings.LLM_MODEL_NARRATIVE
    limit = f"{words * 2} characters" if locale in CJK_LOCALES else f"{words} words"
    system = Template(prompt.text).safe_substitute(
        language=LANGUAGE_NAMES.get(locale, locale),
        tone=tone_text,
        paragraphs={"short": "one or two", "medium": "two or three"}.get(length, "three or four"),
        max_words=limit,
    )
    payload = {
        "items": [
            {"url": i.url, "title": i.title, "source": i.source_name, "summary": i.summary}
            for i in sent
        ]
    }
    request = llm.ToolRequest(
        purpose=LLMCall.Purpose.NARRATIVE,
        model=model,
        prompt_version=prompt.version,
        system=system,
        user=json.dumps(payload, ensure_ascii=False),
        tool_name=TOOL_NAME,
        tool_description=TOOL_DESCRIPTION,
        input_schema=SCHEMA,
        max_tokens=400 + words * 4,
    )

    def check(data: dict) -> dict:
        data["narrative_markdown"] = clean_narrative(data["narrative_markdown"], items)
        return data

    def compute():
        result = llm.call_tool(request, now=now, run_id=run_id, validate=check, deadline=deadline)
        value = {"markdown": result.data["narrative_markdown"], "model": result.model}
        return value, result.input_tokens, result.output_tokens

    day = datetime.combine(now.astimezone(UTC).date(), time.min, tzinfo=UTC)
    fingerprints = [
        f"{i.canonical_url_hash}:{i.content_hash}:{_digest(i.title, i.summary)}" for i in sent
    ]
    options = {
        "locale": locale,
        "length": length,
        "tone": tone_text,
        "prompt_version": prompt.version,
        "model": model,
        "lead": sent[0].canonical_url_hash,
    }
    first_key = None
    if combination is not None and combination.source_set_hash:
        # Level one (seed 002): the source set, the options and the digest type's period.
        first_key = combination_cache.combination_key(
            "narrative",
            inputs=[f"sources:{combination.source_set_hash}"],
            options={**options, "selection": combination.selection, "period": combination.period},
            window=combination.window,
        )
        found = combination_cache.lookup_first_level(first_key, fingerprints, now=now)
        if found is not None:
            return found.value["markdown"], found.value.get("model") or model, True
    # Level two: the item set in the UTC day.
    key = combination_cache.combination_key(
        "narrative",
        inputs=fingerprints,
        options=options,
        window=(day, day + timedelta(days=1)),
    )
    result = combination_cache.get_or_compute(
        "narrative",
        key,
        compute,
        now=now,
        inputs_desc={"items": len(sent), "locale": locale, "tone": tone_text, "length": length},
    )
    if first_key is not None:
        combination_cache.remember_first_level(
            "narrative",
            first_key,
            fingerprints,
            result,
            now=now,
            window_end=combination.window[1],
            inputs_desc={
                "source_set_hash": combination.source_set_hash,
                "period": combination.period,
                "items": len(sent),
            },
        )
    return result.value["markdown"], result.value.get("model") or model, result.hit
