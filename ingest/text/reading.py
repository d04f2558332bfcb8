"""Reading level of pool items: L1 (easy), L2 (intermediate), L3 (advanced), with a 0-100
score and the rules that fired (seed 003 §7: rules first, a model later).

Korean text (mostly Hangul) gets the seed's two signals, and the level is the higher of them:

- a section prior from the item itself: a tag opening the title ("[사설]", "[포토]"), else a
  section in its address (donga.com/news/Economy/…, mk.co.kr/news/sports/…), else what its
  site publishes (it.donga.com is IT; hankyung.com is an economic daily whose new addresses
  carry no section). 정치/경제/사설/오피니언/과학 → L3, 사회/국제/IT → L2,
  생활/문화/연예/스포츠 → L1.
- a text score from sentence length, the share of long sentences (over 70 characters), the
  density of written connectives (그러나, 또한, 반면 …), of numbers and proper nouns, and the
  share of words outside a small list of everyday words (ingest/text/reading_words/).

Other languages get a simpler estimate without a prior: LIX (words per sentence plus the share
of words longer than six letters) for languages written with spaces, sentence length in
characters for Chinese and Japanese.

The result is one `ContentEnrichment` row per item (prompt_version "reading-1", generator
"rules", locale = the item's language, else "ko" for Korean text, else "und"), computed
once: in bulk for the new items of a refresh, again when full text arrives. Storing and
querying the ratings is ingest/pool/levels.py; this module only rates text.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlsplit

from django.utils.translation import gettext_lazy as _

from ingest.models import ContentItem
from ingest.text.scores import visible_text
from ingest.text.word_lists import word_list

logger = logging.getLogger(__name__)

PROMPT_VERSION = "reading-1"
GENERATOR = "rules"
LEVELS = ("L1", "L2", "L3")
LEVEL_CHOICES = [
    ("L1", _("L1 · easy")),
    ("L2", _("L2 · intermediate")),
    ("L3", _("L3 · advanced")),
]
MAX_ANALYZED_CHARS = 3000  # the opening of an article says as much about its level as all of it
WORDS_DIR = Path(__file__).with_name("reading_words")


def level_for_score(score: int) -> str:
    """Seed 003 §7.2: 0-33 L1, 34-66 L2, 67-100 L3."""
    return "L1" if score <= 33 else "L2" if score <= 66 else "L3"


# --- section prior (Korean) ---------------------------------------------------------------
SECTION_LEVELS = {
    "L3": (
        "politics political economy economic finance financial money stock stocks market "
        "markets realestate estate business industry opinion opinions editorial editorials "
        "column columns science "
        "정치 경제 금융 증권 증시 부동산 산업 사설 오피니언 칼럼 시론 논평 과학"
    ),
    "L2": "society national world international inter global it tech technology "
    "사회 국제 세계 IT 테크",
    "L1": (
        "life living lifestyle culture entertainment entertain ent sports sport travel food "
        "people weather photo 생활 문화 연예 스포츠 여행 날씨 포토 라이프"
    ),
}
SECTION_LEVEL = {
    word.casefold(): level for level, words in SECTION_LEVELS.items() for word in words.split()
}
# Sites of the Korean pack (ingest/library/packs.py) whose addresses often carry no section.
SITE_SECTIONS = {
    "it.donga.com": ("IT", "L2"),
    "hankyung.com": ("economic daily", "L2"),
}
_TITLE_TAG = re.compile(r"^\s*[\[【〔<＜]([^\]】〕>＞]{1,16})[\]】〕>＞]")


@dataclass(frozen=True)
class SectionPrior:
    section: str
    level: str
    found_in: str  # "title", "address" or "site"


def section_prior(*, title: str, url: str) -> SectionPrior | None:
    tag = _TITLE_TAG.match(title or "")
    if tag:
        words = [w for w in re.split(r"[\s/·,]+", tag.group(1).casefold()) if w]
        hits = [(SECTION_LEVEL[w], w) for w in words if w in SECTION_LEVEL]
        if hits:
            level, word = max(hits)
            return SectionPrior(word, level, "title")
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    for segment in parts.path.casefold().split("/"):
        for word in (segment, *re.split(r"[-_]", segment)):
            if word in SECTION_LEVEL:
                return SectionPrior(word, SECTION_LEVEL[word], "address")
    host = (parts.hostname or "").removeprefix("www.")
    if host in SITE_SECTIONS:
        section, level = SITE_SECTIONS[host]
        return SectionPrior(section, level, "site")
    return None


# --- Korean text features -----------------------------------------------------------------
LONG_SENTENCE_CHARS = 70
CONNECTIVES = frozenset(
    (
        "그러나", "또한", "반면", "반면에", "따라서", "한편", "게다가", "아울러", "더불어",
        "나아가", "그럼에도", "이에", "즉", "다만", "결국", "오히려", "이른바", "이로써",
        "그러므로", "그렇지만", "이처럼", "특히", "동시에", "뿐만 아니라", "이와 함께",
    )
)  # fmt: skip
_CONNECTIVE_STARTS = frozenset(c.split()[0] for c in CONNECTIVES if " " in c)
TITLE_WORDS = frozenset(
    (
        "대통령", "총리", "장관", "차관", "의원", "대표", "회장", "부회장", "사장", "위원장",
        "총재", "청장", "원장", "시장", "지사", "교수", "대변인", "본부장", "실장", "국장",
        "의장", "판사", "검사", "변호사", "연구원", "애널리스트", "이사", "대사",
    )
)  # fmt: skip
ORG_SUFFIXES = (
    "위원회", "은행", "그룹", "공사", "공단", "협회", "연구원", "연구소", "재단", "전자",
    "증권", "자동차", "거래소", "대학교", "홀딩스", "보험", "카드", "건설", "화학", "제약",
    "통신", "부처", "재정부", "교육부", "법원", "검찰청", "경찰청",
)  # fmt: skip
# (feature, weight, value at 0 points, value at 100 points)
KOREAN_FEATURES = (
    ("avg_sentence_chars", 0.25, 25.0, 85.0),
    ("long_sentence_share", 0.20, 0.0, 0.6),
    ("connectives_per_100_words", 0.15, 0.0, 3.0),
    ("names_and_numbers_share", 0.20, 0.04, 0.25),
    ("rare_word_share", 0.20, 0.15, 0.60),
)
# One character class first: Python's re scans for it quickly (an alternation is 3x slower).
_SENTENCE_END = re.compile(r"[.!?。！？\n][\"'”’)\]]*\s+")
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_HANGUL_RUN = re.compile(r"[\uac00-\ud7a3]+")
_LATIN = re.compile(r"[A-Za-z]")
_DIGIT = re.compile(r"\d")


def _word_file(name: str) -> frozenset[str]:
    return word_list(WORDS_DIR / name)


@cache
def _ending_lengths() -> tuple[int, ...]:
    return tuple(sorted({len(e) for e in _word_file("ko_endings.txt")}, reverse=True))


_JONGSEONG_SS, _JONGSEONG_COUNT, _JUNGSEONG_COUNT = 20, 28, 21
# Past-tense contractions: 렸 = 리+었, 봤 = 보+았, 배웠 = 배우+었, 됐 = 되+었.
_CONTRACTED_VOWEL = {6: 20, 9: 8, 14: 13, 10: 11}  # ㅕ→ㅣ, ㅘ→ㅗ, ㅝ→ㅜ, ㅙ→ㅚ


def _without_final(syllable: str) -> str:
    """The syllable without its final consonant, undoing a past-tense contraction."""
    code = ord(syllable) - 0xAC00
    final = code % _JONGSEONG_COUNT
    if not 0 <= code < 11172 or final == 0:
        return syllable
    medial = (code // _JONGSEONG_COUNT) % _JUNGSEONG_COUNT
    initial = code // (_JONGSEONG_COUNT * _JUNGSEONG_COUNT)
    if final == _JONGSEONG_SS:
        medial = _CONTRACTED_VOWEL.get(medial, medial)
    return chr(0xAC00 + (initial * _JUNGSEONG_COUNT + medial) * _JONGSEONG_COUNT)


@lru_cache(maxsize=65536)
def _stripped(word: str) -> tuple[str, ...]:
    """`word` and what is left of it as particles and endings are stripped off, longest
    ending first (경제성장률을 → 경제성장률; 발표했습니다 → 발표)."""
    endings = _word_file("ko_endings.txt")
    forms = [word]
    for _round in range(3):
        size = next((n for n in _ending_lengths() if n < len(word) and word[-n:] in endings), None)
        if size is None:
            break
        word = word[:-size]
        forms.append(word)
    return tuple(forms)


@lru_cache(maxsize=65536)
def is_common_korean(word: str) -> bool:
    """Whether a Hangul word is everyday vocabulary: its stem is listed (also with the last
    syllable's final consonant removed, for endings fused into it: 합 → 하, 내렸 → 내리), or
    it is an ending itself, or what is left of it is a single syllable."""
    common = _word_file("ko_common.txt")
    if word in _word_file("ko_endings.txt"):
        return True
    forms = _stripped(word)
    return (
        len(forms[-1]) <= 1
        or any(f in common for f in forms)
        or any(f[:-1] + _without_final(f[-1]) in common for f in forms)
    )


@lru_cache(maxsize=65536)
def _word_kind(word: str) -> tuple[str, str]:
    """("name", "common", "rare" or "other", the word's Hangul) for a space-separated word.
    Names are numbers, Latin-script names (KOSPI, AI, 삼성SDI), organisations (…은행,
    …위원회) and people's titles (총재, 장관), which follow a name."""
    hangul = "".join(_HANGUL_RUN.findall(word))
    if _DIGIT.search(word) or _LATIN.search(word):
        return "name", hangul
    if not hangul:
        return "other", hangul
    if any(f in TITLE_WORDS or f.endswith(ORG_SUFFIXES) for f in _stripped(hangul)):
        return "name", hangul
    return ("common" if is_common_korean(hangul) else "rare"), hangul


def sentences(text: str) -> list[str]:
    """Sentences end at . ! ? (and their CJK forms) before a space, and at line breaks."""
    pieces = _SENTENCE_END.split(text.replace("\n", "\n\n"))
    return [s.strip() for s in pieces if len(s.strip()) >= 2]


@dataclass
class Estimate:
    score: int
    method: str
    reasons: list[dict] = field(default_factory=list)


def _points(value: float, easy: float, hard: float) -> int:
    return round(max(0.0, min(1.0, (value - easy) / (hard - easy))) * 100)


def korean_text_score(text: str) -> Estimate:
    found = sentences(text) or [text]
    lengths = [len(s) for s in found]
    words = text.split()
    kinds = [_word_kind(word) for word in words]
    counts = Counter(kind for kind, _hangul in kinds)
    connectives = 0
    for index, (_kind, hangul) in enumerate(kinds):
        if hangul in CONNECTIVES or (
            hangul in _CONNECTIVE_STARTS
            and index + 1 < len(kinds)
            and f"{hangul} {kinds[index + 1][1]}" in CONNECTIVES
        ):
            connectives += 1
    names_and_numbers, rare = counts["name"], counts["rare"]
    hangul_words = counts["common"] + rare
    values = {
        "avg_sentence_chars": sum(lengths) / len(lengths),
        "long_sentence_share": sum(n > LONG_SENTENCE_CHARS for n in lengths) / len(lengths),
        "connectives_per_100_words": 100 * connectives / max(1, len(words)),
        "names_and_numbers_share": names_and_numbers / max(1, len(words)),
        "rare_word_share": rare / max(1, hangul_words),
    }
    reasons, total = [], 0.0
    for name, weight, easy, hard in KOREAN_FEATURES:
        points = _points(values[name], easy, hard)
        total += weight * points
        reasons.append({"tag": name, "value": round(values[name], 2), "points": points})
    if len(found) < 3:
        reasons.append({"tag": "little_text", "value": len(found), "points": 0})
    return Estimate(round(total), "korean_rules", reasons)


# --- other languages ----------------------------------------------------------------------
# Runs of 7+ letters in Latin, Greek and Cyrillic script (ranges, which re matches quickly).
_LONG_WORD = re.compile(r"[A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]{7,}")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
LIX_EASY, LIX_HARD = 25.0, 65.0  # LIX 25 is a children's book, 65 a legal text
CJK_EASY, CJK_HARD = 15.0, 55.0  # characters per sentence


def lix_score(text: str) -> Estimate:
    words = len(text.split())
    found = sentences(text) or [text]
    per_sentence = words / len(found)
    long_share = len(_LONG_WORD.findall(text)) / max(1, words)
    lix = per_sentence + 100 * long_share
    reasons = [
        {"tag": "avg_sentence_words", "value": round(per_sentence, 1), "points": 0},
        {"tag": "long_word_share", "value": round(long_share, 2), "points": 0},
        {"tag": "lix", "value": round(lix, 1), "points": _points(lix, LIX_EASY, LIX_HARD)},
    ]
    return Estimate(_points(lix, LIX_EASY, LIX_HARD), "lix", reasons)


def cjk_score(text: str) -> Estimate:
    found = [s for s in re.split(r"[。！？!?\n]+", text) if s.strip()] or [text]
    average = sum(len(s.strip()) for s in found) / len(found)
    points = _points(average, CJK_EASY, CJK_HARD)
    reasons = [{"tag": "avg_sentence_chars", "value": round(average, 1), "points": points}]
    return Estimate(points, "cjk_sentence_length", reasons)


# --- the level of one item ----------------------------------------------------------------
@dataclass(frozen=True)
class ReadingLevel:
    level: str
    score: int
    reasons: list[dict]
    korean: bool


def script_share(text: str, pattern: re.Pattern) -> float:
    """The share of `text`'s non-space characters that `pattern` matches."""
    visible = len("".join(text.split()))
    return len(pattern.findall(text)) / visible if visible else 0.0


def estimate(*, text: str, title: str = "", url: str = "") -> ReadingLevel:
    """The reading level of `text` (the body; the title when there is no body)."""
    text = (text or title or "")[:MAX_ANALYZED_CHARS]
    sample = text[:800]  # enough to tell the script
    korean = script_share(sample, _HANGUL) >= 0.3
    if korean:
        result = korean_text_score(text)
    elif script_share(sample, _CJK) >= 0.3:
        result = cjk_score(text)
    else:
        result = lix_score(text)
    reasons = [{"tag": "method", "value": result.method}, *result.reasons]
    level = level_for_score(result.score)
    if korean:
        prior = section_prior(title=title, url=url)
        if prior:
            reasons.append(
                {
                    "tag": "section_prior",
                    "value": prior.section,
                    "level": prior.level,
                    "found_in": prior.found_in,
                }
            )
            if prior.level > level:
                level = prior.level
                reasons.append({"tag": "level_from_section", "value": prior.level})
    return ReadingLevel(level, result.score, reasons, korean)


class ItemText(NamedTuple):
    """What rating an item reads. Plain data: the bulk path builds thousands of these, where
    model instances would cost more than the rating itself."""

    item_id: int
    url: str
    title: str
    description: str
    content_html: str
    full_text: str
    language: str

    @classmethod
    def of(cls, item: ContentItem) -> ItemText:
        return cls(
            item.pk,
            item.canonical_url,
            item.title,
            item.description,
            item.content_html,
            item.full_text,
            item.language,
        )

    @property
    def body(self) -> str:
        head = self.content_html[: MAX_ANALYZED_CHARS * 2]  # markup and all: enough for the cap
        return self.full_text or visible_text(head) or self.description

    @property
    def locale(self) -> str:
        """The item's language when known, else "ko" for Hangul text, else "und"."""
        if self.language:
            return self.language.lower()[:16]
        sample = f"{self.title} {self.description}"[:800]
        return "ko" if script_share(sample, _HANGUL) >= 0.3 else "und"

    def rate(self, text: str = "") -> ReadingLevel:
        return estimate(text=text or self.body, title=self.title, url=self.url)


def item_locale(item: ContentItem) -> str:
    return ItemText.of(item).locale


class ReadingLevelError(ValueError):
    pass


def clean_reading_levels(value) -> list[str]:
    """["L1", "L3"] from a list or a comma-separated string; empty means any level."""
    if value in (None, ""):
        return []
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ReadingLevelError(_("Must be a list of reading levels: L1, L2, L3 (empty = any)."))
    wanted = {v.strip().upper() for v in value if v.strip()}
    unknown = sorted(wanted - set(LEVELS))
    if unknown:
        raise ReadingLevelError(
            _("Unknown reading level %(level)r: choose from L1, L2, L3 (empty = any).")
            % {"level": unknown[0][:20]}
        )
    return sorted(wanted)
