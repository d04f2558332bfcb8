"""Scoring for one subscription (SPEC §6 steps 3-4), small and explicit.

    overall = 0.5 * relevance + 0.3 * impact + 0.2 * quality

Relevance comes from the subscription's interests matched in the item's fields (title counts
most, then summary, then body); a negative keyword anywhere in title or summary excludes the
item. Impact adds freshness (half-life 36 h) to the item's stored, source-based impact
(ingest.text.scores.impact_at).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Impact is a content-level score (SPEC §4.7): its one formula, freshness included, lives with
# the stored parts in ingest/text/scores.py.
from ingest.text.scores import impact_at as impact  # noqa: F401
from ingest.text.terms import fold, term_form

FIELD_BASE = {"title": 85, "summary": 70, "body": 55}
EXTRA_TERM_BONUS = 5
SOURCE_ONLY_RELEVANCE = 70


@dataclass(frozen=True)
class Interests:
    terms: tuple[str, ...]
    negative: tuple[str, ...]
    _patterns: tuple[_TermPattern, ...] = field(default=(), compare=False, repr=False)
    _negative_patterns: tuple[_TermPattern, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def build(cls, terms, negative) -> Interests:
        clean = tuple(dict.fromkeys(t.strip() for t in terms if t and t.strip()))
        clean_negative = tuple(dict.fromkeys(t.strip() for t in negative if t and t.strip()))
        return cls(
            terms=clean,
            negative=clean_negative,
            _patterns=tuple(_term_pattern(t) for t in clean),
            _negative_patterns=tuple(_term_pattern(t) for t in clean_negative),
        )


class _TermPattern:
    """Whole words on folded text for Latin terms, the last word in its singular or plural
    (ingest/text/terms.py: "language models" matches "language model"); a plain substring for
    CJK ones (no spaces between words) — found with str.find, which is many times faster than
    a regex on the ~1,000 candidates of a run."""

    __slots__ = ("endings", "stem", "whole_word")

    def __init__(self, term: str):
        form = term_form(term)
        self.stem, self.endings = form.stem, form.endings
        self.whole_word = form.stem.isascii()

    def search(self, text: str) -> bool:
        stem, size = self.stem, len(self.stem)
        start = text.find(stem)
        if not self.whole_word:
            return start != -1
        while start != -1:
            if start == 0 or not _is_word_char(text[start - 1]):
                end = start + size
                for ending in self.endings:
                    after = end + len(ending)
                    if text.startswith(ending, end) and (
                        after == len(text) or not _is_word_char(text[after])
                    ):
                        return True
            start = text.find(stem, start + 1)
        return False


# Latin words run into Chinese, Japanese and Korean text without a space ("AI芯片", "LLMの",
# "AI가"): a letter from those scripts ends a Latin word as a space would.
_CJK_START = 0x2E80


def _is_word_char(char: str) -> bool:
    return (char.isalnum() or char == "_") and (ord(char) < _CJK_START or not char.isalpha())


def _term_pattern(term: str) -> _TermPattern:
    return _TermPattern(term)


@dataclass
class Relevance:
    score: int
    matched: list[str]
    field: str | None
    excluded_by: str | None = None


def relevance(interests: Interests, *, title: str, summary: str, body: str = "") -> Relevance:
    fields = {"title": fold(title), "summary": fold(summary), "body": fold(body)}
    for term, pattern in zip(interests.negative, interests._negative_patterns, strict=True):
        if pattern.search(fields["title"]) or pattern.search(fields["summary"]):
            return Relevance(score=0, matched=[], field=None, excluded_by=term)
    if not interests.terms:
        return Relevance(score=SOURCE_ONLY_RELEVANCE, matched=[], field=None)
    matched: list[str] = []
    best_field: str | None = None
    for term, pattern in zip(interests.terms, interests._patterns, strict=True):
        for name in ("title", "summary", "body"):
            if pattern.search(fields[name]):
                matched.append(term)
                if best_field is None or FIELD_BASE[name] > FIELD_BASE[best_field]:
                    best_field = name
                break
    if not matched:
        return Relevance(score=0, matched=[], field=None)
    score = FIELD_BASE[best_field] + EXTRA_TERM_BONUS * (len(matched) - 1)
    return Relevance(score=min(100, score), matched=matched, field=best_field)


def overall(relevance_score: int, impact_score: int, quality_score: int) -> int:
    return round(0.5 * relevance_score + 0.3 * impact_score + 0.2 * quality_score)
