"""Words of Chinese, Japanese and Korean text, which put no space between words (Korean puts
them between phrases): the one segmentation shared by the interest extractor
(digests/subscriptions/topic_terms.py), the scorer (digests/runs/scoring.py, whose words are
also what the pool's full-text recall is asked for, so recall and scoring agree) and the
relevance benchmark's BM25 baseline (tests/bench/relevance_metrics.py).

- Chinese: jieba's dictionary and part-of-speech tags, through `rjieba` (jieba-rs); the
  dictionary is inside the wheel. 0.2 s and ~35 MB on first use.
- Japanese (text with kana, or `japanese=True`, or kanji that jieba can only cut into single
  characters, as 電気自動車): MeCab with UniDic-lite, through `fugashi` and
  `unidic-lite` (the dictionary is inside the wheel). ~0.01 s and ~70 MB on first use. UniDic
  cuts short units: a suffix (業 of 観光業, 車 of 自動車) or a prefix (大 of 大規模) is marked
  `affix`, so a caller can join it to its neighbour.
- Korean: rule-based. Words are separated by spaces; a particle (ko_particles.txt) is split
  from the end of a word when two syllables or more remain (반도체를 → 반도체 + 를).
  kiwipiepy's bundled model was measured at 2.5 s and ~500 MB per process on first use, and
  it cuts compounds apart (전기차 → 전기 + 차), which is worse for matching, not better.

Each segmenter is loaded on first use, so a deployment that never sees such text pays
nothing. Text without any of these scripts is never segmented here.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from ingest.text.word_lists import word_list

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_KANA = "\u3040-\u30ff\u31f0-\u31ff"
_HANGUL = "\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"
CJK_CHAR = re.compile(f"[{_HAN}{_KANA}{_HANGUL}]")
_KANA_CHAR = re.compile(f"[{_KANA}]")
_HANGUL_RUN = re.compile(f"[{_HANGUL}]+")
_PARTICLES = Path(__file__).parent / "segment_words" / "ko_particles.txt"

CONTENT, FUNCTION, AFFIX = "content", "function", "affix"
# jieba's tags for particles, prepositions, conjunctions, pronouns, adverbs, modal and
# onomatopoeic words, punctuation and unknown symbols.
_ZH_FUNCTION_TAGS = frozenset({"p", "c", "r", "d", "y", "e", "o", "x", "w", "zg"})
# UniDic's first-level parts of speech that end a noun phrase.
_JA_FUNCTION_POS = frozenset(
    {
        "助詞",
        "助動詞",
        "補助記号",
        "記号",
        "空白",
        "接続詞",
        "感動詞",
        "動詞",
        "形容詞",
        "副詞",
        "連体詞",
        "代名詞",
    }
)
_JA_AFFIX_POS = frozenset({"接尾辞", "接頭辞"})
# Names: jieba's tags for people, places, organizations and other proper nouns, and UniDic's
# proper noun; jieba's abbreviations (央行, 美联储, 欧盟) are names wherever they stand, as an
# English acronym is (ECB, EU).
_ZH_NAME_TAGS = frozenset({"nr", "nrt", "nrfg", "ns", "nt", "nz"})
_ZH_ABBREVIATION_TAG = "j"
NAME, ABBREVIATION = "name", "abbreviation"

_lock = threading.Lock()


@dataclass(frozen=True)
class Word:
    text: str
    kind: str  # CONTENT, FUNCTION (particle, conjunction, punctuation…) or AFFIX
    name: str = ""  # NAME, ABBREVIATION (a content word's part of speech says so) or ""


def has_cjk(text: str) -> bool:
    return not text.isascii() and CJK_CHAR.search(text) is not None


@cache
def _chinese():
    with _lock:
        import rjieba  # loaded on first Chinese text only

        return rjieba


@cache
def _japanese():
    with _lock:
        import fugashi  # loaded on first Japanese text only

        return fugashi.Tagger()


@cache
def korean_particles() -> tuple[str, ...]:
    """Korean particles, longest first."""
    return tuple(sorted(word_list(_PARTICLES), key=len, reverse=True))


def _chinese_words(text: str) -> list[Word]:
    words = []
    for piece, tag in _chinese().tag(text):
        if piece.isspace():
            continue
        function = tag.startswith("u") or tag in _ZH_FUNCTION_TAGS
        name = ABBREVIATION if tag == _ZH_ABBREVIATION_TAG else NAME if tag in _ZH_NAME_TAGS else ""
        words.append(Word(piece, FUNCTION if function else CONTENT, "" if function else name))
    return words


def _japanese_words(text: str) -> list[Word]:
    words = []
    for node in _japanese()(text):
        pos = node.feature.pos1
        kind = FUNCTION if pos in _JA_FUNCTION_POS else AFFIX if pos in _JA_AFFIX_POS else CONTENT
        name = NAME if kind == CONTENT and node.feature.pos2 == "固有名詞" else ""
        words.append(Word(node.surface, kind, name))
    return words


def _korean_words(word: str) -> list[Word]:
    """One space-separated Korean word: its stem, and its particle apart."""
    for particle in korean_particles():
        if word.endswith(particle) and len(word) - len(particle) >= 2:
            return [Word(word[: -len(particle)], CONTENT), Word(particle, FUNCTION)]
    return [Word(word, CONTENT)]


@lru_cache(maxsize=4096)
def segment(text: str, *, japanese: bool | None = None) -> tuple[Word, ...]:
    """The words of `text` in order, spaces dropped. Korean runs are cut by rule; the rest by
    the Japanese segmenter when the text has kana (or `japanese`), else the Chinese one."""
    if japanese is None:
        japanese = _KANA_CHAR.search(text) is not None
    words: list[Word] = []
    for chunk in text.split():
        position = 0
        for match in _HANGUL_RUN.finditer(chunk):
            words += _other_words(chunk[position : match.start()], japanese=japanese)
            words += _korean_words(match.group())
            position = match.end()
        words += _other_words(chunk[position:], japanese=japanese)
    return tuple(words)


def _other_words(text: str, *, japanese: bool) -> list[Word]:
    if not text:
        return []
    if not has_cjk(text):
        return [Word(text, CONTENT)]
    if japanese:
        return _japanese_words(text)
    words = _chinese_words(text)
    # Japanese written in kanji alone (電気自動車): jieba's dictionary does not know its forms
    # and falls apart into single characters; MeCab's does.
    if _KANA_CHAR.search(text) is None and len(words) >= 3 and all(len(w.text) == 1 for w in words):
        return _japanese_words(text)
    return words


@lru_cache(maxsize=4096)
def chinese_word_ends(text: str) -> dict[int, int]:
    """Where each word of a Chinese `text` starts, and where it ends: jieba's cut without the
    parts of speech `segment` asks for (about 3 µs for a 30-character summary instead of
    250). Empty for text with kana or Hangul: Japanese words are UniDic's short units
    (自動 + 化), Korean ones are cut by rule."""
    if _KANA_CHAR.search(text) or _HANGUL_RUN.search(text):
        return {}
    ends: dict[int, int] = {}
    position = 0
    for piece in _chinese().cut(text):
        ends[position] = position + len(piece)
        position += len(piece)
    return ends


def match_words(term: str, *, japanese: bool | None = None) -> tuple[str, ...]:
    """The words a CJK term is matched by, in order: its content words of two characters or
    more (one character alone — 大, 车, 業 — says too little, and is found inside every word
    that has it). A term without such a word is matched as itself."""
    words = segment(term, japanese=japanese)
    kept = tuple(dict.fromkeys(w.text for w in words if w.kind == CONTENT and len(w.text) >= 2))
    return kept or (term,)
