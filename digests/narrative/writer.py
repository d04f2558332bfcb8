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
import math
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
# A narrative cached for another brief with the same lead, options and day serves this one when
# it was written only from items this brief has and covers at least this share of the items
# this brief's narrative would be written from (12 of 15). The rest still appear in Sources.
COVER_MIN_SHARE = 0.8
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
    # Which level of the cache answered: "source set", "item set", "covering", or "" (a call).
    cache_level: str = ""


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
            body, model, level = _model_body(
                items,
                locale=locale,
                tone=tone,
                now=now,
                run_id=run_id,
                deadline=deadline,
                combination=combination,
            )
            markdown = f"{body}\n\n{sources_block([i.as_dict() for i in items], locale)}"
            return Narrative(markdown, model[:64], cache_hit=bool(level), cache_level=level)
        except llm.LLMError as exc:
            logger.warning("narrative: %s; using the template", exc)
        except Exception:
            # The narrative is optional (SPEC §6 step 7): whatever broke, the run goes on.
            logger.exception("narrative: unexpected failure; using the template")
    markdown = template_narrative(title, [item.as_dict() for item in items], locale)
    return Narrative(markdown, TEMPLATE)


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:16]


def fingerprint(item) -> str:
    """What the cache knows an item sent to the model by: its URL hash, its content hash and a
    digest of the title and summary the model reads (any change is another item)."""
    return f"{item.canonical_url_hash}:{item.content_hash}:{_digest(item.title, item.summary)}"


def min_covered(sent_count: int) -> int:
    return math.ceil(COVER_MIN_SHARE * sent_count)


def _model_body(
    items, *, locale, tone, now, run_id, deadline, combination=None
) -> tuple[str, str, str]:
    """(body, model, the cache level that answered or "" for a call)."""
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
        # Links only to the items the model was given: the value may serve another brief
        # that has these items (and not necessarily this one's others).
        data["narrative_markdown"] = clean_narrative(data["narrative_markdown"], sent)
        return data

    def compute():
        result = llm.call_tool(request, now=now, run_id=run_id, validate=check, deadline=deadline)
        value = {"markdown": result.data["narrative_markdown"], "model": result.model}
        return value, result.input_tokens, result.output_tokens

    options = {
        "locale": locale,
        "length": length,
        "tone": tone_text,
        "prompt_version": prompt.version,
        "model": model,
        "lead": sent[0].canonical_url_hash,
    }
    result, level = cached_narrative(
        items,
        options=options,
        compute=compute,
        now=now,
        combination=combination,
        inputs_desc={"locale": locale, "tone": tone_text, "length": length},
    )
    return result.value["markdown"], result.value.get("model") or model, level


def cached_narrative(
    items,
    *,
    options: dict,
    compute: combination_cache.Compute,
    now: datetime,
    combination: Combination | None = None,
    inputs_desc: dict | None = None,
) -> tuple[combination_cache.CacheResult, str]:
    """The combination cache's answer for a narrative written from `items[:ITEMS_SENT]` (lead
    first) with `options` (locale, length, tone, prompt version, model, lead), or `compute()`'s
    (stored for the others); and which level answered ("" for a call):

    1. "source set" (seed 002, with a `combination`): the subscription's source-set hash, the
       options and its digest period — only when written for exactly these items.
    2. "item set": exactly these items in the UTC day.
    3. "covering": another brief's narrative with the same lead, options and day, written only
       from items this brief has (`items`, all of them — the narrative never speaks of an item
       the reader did not get) and covering at least COVER_MIN_SHARE of the items it would be
       written from. The items it leaves out are still in the brief and its Sources. Asked
       only when nobody is computing this exact item set (then its result is awaited).
    4. Otherwise one call under the item-set key (single flight), filed under the lead's group.
    """
    sent = items[:ITEMS_SENT]
    fingerprints = [fingerprint(i) for i in sent]
    day = datetime.combine(now.astimezone(UTC).date(), time.min, tzinfo=UTC)
    window = (day, day + timedelta(days=1))
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
            return found, "source set"
    key = combination_cache.combination_key(
        "narrative", inputs=fingerprints, options=options, window=window
    )
    group = combination_cache.combination_key(
        "narrative", inputs=[f"lead:{fingerprints[0]}"], options=options, window=window
    )
    level = "item set"
    result, computing = combination_cache.lookup("narrative", key, now=now)
    if result is None and not computing:
        level = "covering"
        result = combination_cache.lookup_covering(
            "narrative",
            group,
            have=[_digest(fingerprint(i)) for i in items],
            wanted=[_digest(f) for f in fingerprints],
            min_covered=min_covered(len(sent)),
            now=now,
        )
    if result is None:
        result = combination_cache.get_or_compute(
            "narrative",
            key,
            compute,
            now=now,
            group=group,
            inputs_desc={
                **(inputs_desc or {}),
                "items": len(sent),
                "item_digests": sorted(_digest(f) for f in fingerprints),
            },
        )
        level = "item set" if result.hit else ""
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
    return result, level
