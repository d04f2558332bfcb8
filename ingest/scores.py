"""Content-level scores: global, cheap and deterministic (SPEC §4.7).

`score_quality` and the static part of `score_impact` are stored at ingest; freshness decays
with time, so the scoring of a run adds it (see digests/scoring.py).
"""

from __future__ import annotations

import re

_STRUCTURE = re.compile(r"<(h[1-6]|pre|code|blockquote|ul|ol|table|figure)\b", re.IGNORECASE)


def quality_score(*, title: str, description: str, content_html: str) -> int:
    """0-100 from body length and structure, with penalties for empty or link-only items."""
    text_length = max(len(description), len(re.sub(r"<[^>]+>", "", content_html)))
    if text_length >= 3000:
        score = 70
    elif text_length >= 1000:
        score = 60
    elif text_length >= 300:
        score = 50
    elif text_length >= 80:
        score = 40
    else:
        score = 25
    score += min(20, 5 * len(_STRUCTURE.findall(content_html)))
    if not title:
        score -= 15
    link_count = content_html.lower().count("<a ")
    if link_count > 15 and text_length < 200 * link_count:
        score -= 20  # a listing or navigation page, not an article
    return max(0, min(100, score))


def static_impact_score(*, source_priority: int) -> int:
    """The source part of impact: reputation via priority (-50..50) around a neutral 50."""
    return max(0, min(100, 50 + source_priority))
