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
- The last word of a Cyrillic term matches its other case forms: Russian (and its neighbours)
  inflect where English adds an "s", so "Оренбурга" (of Orenburg) must find "в Оренбурге" (in
  Orenburg). The word's ending is taken off when the stem left is long enough, and the stem
  matches with any noun or adjective ending — "Москвы" matches "Москва", "Москве", "Москвой",
  "Оренбурга" also "Оренбургской" (the place's adjective: its region, its people).
  Short words, acronyms ("ЖКХ") and names in mixed case match only as written.
- An English possessive is the word it is said of: the interest "Japan's" is the word Japan
  (`without_possessives`), and the scorer finds a phrase's words with or without one.
- A word written with hyphens is also that word written closed, for the scorer: "Cease-Fire"
  is ceasefire, "e-mail" email (`closed_compounds`); folding alone makes it two words.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

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

# Noun and adjective case endings of Russian, which its neighbours' endings mostly share.
_CASE_ENDINGS = {
    *("а", "я", "о", "е", "ё", "ы", "и", "у", "ю", "ь", "й"),
    *("ой", "ей", "ою", "ею", "ом", "ем", "ём", "ам", "ям", "ах", "ях", "ов", "ев", "ёв"),
    *("ами", "ями", "ий", "ый", "ая", "яя", "ое", "ее", "ые", "ие", "ую", "юю", "ым", "им"),
    *("ых", "их", "ого", "его", "ому", "ему", "ыми", "ими"),
}
# A stem also matches as the adjective of a place or a name ("Оренбургская область" is
# Orenburg's region); a word is not cut back to such a stem ("новосибирский" keeps its "ск").
_PLACE_ADJECTIVE_ENDINGS = {
    *("ский", "ская", "ское", "ские", "ского", "ской", "скому", "ском", "ским", "ских"),
    *("скими", "скую"),
}
# Longest first (a word's ending is the longest that leaves a stem), then none.
_STRIPPED_ENDINGS = (*sorted(_CASE_ENDINGS, key=lambda ending: (-len(ending), ending)), "")
CYRILLIC_ENDINGS = (
    *sorted(_CASE_ENDINGS | _PLACE_ADJECTIVE_ENDINGS, key=lambda ending: (-len(ending), ending)),
    "",
)
MIN_CYRILLIC_WORD = 5
MIN_CYRILLIC_STEM = 4


def fold(text: str) -> str:
    """Compatibility forms folded (full-width letters and digits, ideographic spaces), then
    case, and hyphens made spaces. ASCII text skips the normalization: it has nothing to fold."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    return text.casefold().replace("-", " ")


# Letters joined by hyphens (either sign), no digit: "covid-19" is not a word written closed.
_HYPHENATED = re.compile(r"[^\W\d_]+(?:[-‐][^\W\d_]+)+")
_HYPHENS = str.maketrans("", "", "-‐")


def closed_compounds(text: str) -> tuple[str, ...]:
    """Each word `text` writes with hyphens between letters, folded and written closed
    ("Cease-Fire" → ceasefire), in order; its parts stay words of the folded text."""
    if "-" not in text and "‐" not in text:
        return ()
    return tuple(fold(word.translate(_HYPHENS)) for word in _HYPHENATED.findall(text))


_POSSESSIVE = re.compile(r"(?<=\w)['’][sS](?!\w)")


MIN_STEM = 4  # "coping" is not "cop", "gaming" not "gam"; "mapping" is "mapp", then map


@lru_cache(maxsize=65536)
def inflection_stem(word: str) -> str:
    """A folded Latin word without its inflection, the same for each of its forms: plural
    "-s", "-ing", "-ed", a final "e" ("regulate", "regulated", "regulating": regulat;
    "mapping", "maps": map; "recordings": record). Derivations stay apart ("automation" is not
    "automate", "productive" not "product"): they often name something else."""
    if word in NOT_PLURAL or len(word) < MIN_PLURAL_WORD:
        return word
    stem = word
    if stem.endswith("s") and not stem.endswith(_SINGULAR_S_ENDINGS):
        if stem.endswith("ies"):
            stem = stem[:-3] + "y"
        elif stem.endswith("es") and stem[:-2].endswith(_SIBILANT_ENDINGS):
            stem = stem[:-2]
        else:
            stem = stem[:-1]
    for ending in ("ing", "ed"):
        rest = stem[: -len(ending)]
        if (
            stem.endswith(ending)
            and len(rest) >= MIN_STEM
            and _VOWELS.intersection(rest)
            and not stem.endswith("eed")  # "speed", "need"
        ):
            stem = rest
            if rest[-1] == rest[-2] and rest[-1] not in "aeiouslz":
                stem = rest[:-1]  # "mapping": map
            break
    if stem.endswith("e") and len(stem) > MIN_STEM:
        stem = stem[:-1]
    if stem.endswith("y"):
        stem = stem[:-1] + "i"  # "carries", "carried", "carry"
    return stem


def without_possessives(text: str) -> str:
    """`text` with each English possessive taken off its word (Japan's → Japan), either
    apostrophe; a contraction of a longer word (can't) is left alone."""
    return _POSSESSIVE.sub("", text)


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
    if _is_cyrillic_word(last):
        return _cyrillic_form(folded, last)
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


def _is_cyrillic_word(word: str) -> bool:
    return word.isalpha() and all("\u0400" <= char <= "\u04ff" for char in word)


def _cyrillic_form(folded: str, last: str) -> TermForm:
    """The last word's stem with every case ending; as written when short, an acronym or a
    name in mixed case ("ВКонтакте")."""
    if len(last) < MIN_CYRILLIC_WORD or any(char.isupper() for char in last[1:]):
        return TermForm(folded, ("",))
    lowered = last.casefold()
    head = folded[: len(folded) - len(lowered)]
    for ending in _STRIPPED_ENDINGS:
        if lowered.endswith(ending) and len(lowered) - len(ending) >= MIN_CYRILLIC_STEM:
            return TermForm(head + lowered[: len(lowered) - len(ending)], CYRILLIC_ENDINGS)
    return TermForm(folded, ("",))


def shared_part(term: str) -> str:
    """The start of a term that every form of it begins with, as typed (case kept): the term
    itself, or for a Cyrillic term its stem ("Оренбурга" → "Оренбург"). What a substring
    search looks for, so that it finds every form the scorer accepts."""
    display = clean_term(term).replace("-", " ")
    form = term_form(term)
    if form.endings == CYRILLIC_ENDINGS and len(display.casefold()) == len(display):
        return display[: len(form.stem)]
    return clean_term(term)


def same_term_key(term: str) -> str:
    """One key for the forms of a term, so "language model" and "Language Models" count as
    one interest."""
    return term_form(term).stem
