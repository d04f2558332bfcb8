"""How an interest term meets text: the normalization both sides share and the light plural
rule, used by the scorer (digests/runs/scoring.py) and by the pool's full-text recall step
(ingest/pool/search_index.py), so the index never returns less than the scorer keeps.

- Full-width and compatibility forms are folded (NFKC: "ＡＩ" is "AI", "ＬＬＭ" is "LLM", an
  ideographic space is a space), then case; a hyphen is a space ("supply-chain" is "supply
  chain", as the pool's word index has always seen it).
- The last word of a Latin term also matches its plural or singular: "language models"
  matches "language model" and the other way round, "LLMs" matches "LLM", "batteries"
  matches "battery". Not for words where dropping an "s" makes another word ("news" is not
  "new", "Windows" is not "window") and not for short words, where the forms collide ("bus").
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

# Words whose final "s" is not a plural ending (or whose singular is another word).
NOT_PLURAL = frozenset(
    {
        "news",
        "windows",
        "kubernetes",
        "postgres",
        "express",
        "always",
        "perhaps",
        "series",
        "species",
        "analytics",
        "physics",
        "economics",
        "mathematics",
        "politics",
        "ethics",
        "robotics",
        "electronics",
        "logistics",
        "graphics",
        "genetics",
        "linguistics",
        "statistics",
        "athletics",
        "olympics",
        "aws",
        "ios",
        "macos",
        "tvos",
        "watchos",
        "ipados",
        "chaos",
        "canvas",
        "atlas",
        "alias",
        "bias",
        "gas",
        "lens",
        "thanks",
        "whereas",
        "sometimes",
        "nevertheless",
        "headquarters",
        "means",
        "mars",
        "paris",
        "texas",
        "brussels",
        "athens",
        "wales",
    }
)
# Endings that are not a plural "s": "class", "status", "analysis", "famous".
_SINGULAR_S_ENDINGS = ("ss", "us", "is", "ous")
_SIBILANT_ENDINGS = ("s", "x", "z", "ch", "sh")
_VOWELS = frozenset("aeiou")
MIN_PLURAL_WORD = 4


def fold(text: str) -> str:
    """Compatibility forms folded (full-width letters and digits, ideographic spaces), then
    case, and hyphens made spaces. ASCII text skips the normalization: it has nothing to fold."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    return text.casefold().replace("-", " ")


def clean_term(term: str) -> str:
    """A term as stored and shown: compatibility forms folded, spaces collapsed; case kept
    (the user's "PostgreSQL" stays readable, matching folds it)."""
    return " ".join(unicodedata.normalize("NFKC", term or "").split())


@dataclass(frozen=True)
class TermForm:
    """A folded term split for matching: `stem` followed by one of `endings` (longest first),
    then a word boundary. A term without plural tolerance has the one ending ""."""

    stem: str
    endings: tuple[str, ...]


def _is_acronym_plural(word: str) -> bool:
    return len(word) >= 3 and word.endswith("s") and word[:-1].isupper() and word[:-1].isalpha()


def term_form(term: str) -> TermForm:
    """The stem and endings of a term: plural tolerance on the last word of Latin terms."""
    display = clean_term(term).replace("-", " ")
    folded = display.casefold()
    last = display.rsplit(" ", 1)[-1]
    if not folded.isascii() or not last.isalpha():
        return TermForm(folded, ("",))
    if _is_acronym_plural(last):  # LLMs, APIs, GPUs
        return TermForm(folded[:-1], ("s", ""))
    if last.isupper() and len(last) >= 2:  # LLM, GPU
        return TermForm(folded, ("s", ""))
    mixed_case = any(c.isupper() for c in last[1:])  # iOS, macOS, LLM: names, not plurals
    lowered = last.casefold()
    if mixed_case or lowered in NOT_PLURAL or len(lowered) < MIN_PLURAL_WORD:
        return TermForm(folded, ("",))
    head = folded[: len(folded) - len(lowered)]
    if lowered.endswith("ies") and len(lowered) > MIN_PLURAL_WORD:
        return TermForm(head + lowered[:-3], ("ies", "ie", "y"))  # policies, movies
    if lowered.endswith("y") and lowered[-2] not in _VOWELS:
        return TermForm(head + lowered[:-1], ("ies", "y"))  # policy
    if lowered.endswith("es") and lowered[:-2].endswith(_SIBILANT_ENDINGS):
        # patches (patch), databases (database), caches (cache): the "e" may be the word's.
        return TermForm(head + lowered[:-2], ("es", "e", ""))
    if lowered.endswith(_SIBILANT_ENDINGS + _SINGULAR_S_ENDINGS) and not (
        lowered.endswith("s") and not lowered.endswith(_SINGULAR_S_ENDINGS)
    ):
        return TermForm(folded, ("es", ""))  # box, patch, class, status
    if lowered.endswith("s"):
        return TermForm(folded[:-1], ("s", ""))  # models, runtimes
    return TermForm(folded, ("s", ""))  # model, cache


def same_term_key(term: str) -> str:
    """One key for the forms of a term, so "language model" and "Language Models" count as
    one interest."""
    return term_form(term).stem
