"""An article's section and tags (seed 003 §3.1, §4: `section <- feed category 或 URL path 推断`).

Sections are the Korean newspaper sections the seed names (정치/경제/사회/국제/문화 …), one
stable value each, whatever the feed's language: a feed category ("Politics", "정치",
"뉴스 > 경제") is tried first, then the article address's path (donga.com/news/Economy/…,
mk.co.kr/news/sports/…, khan.co.kr/politics/…), then the site when the whole site is one section
(it.donga.com is IT). Nothing found: no section (""). A search result (NAVER) has no stable
section field, so the seed leaves it empty until a feed carries the same article.

Tags are the feed's categories as plain text, deduplicated, at most MAX_TAGS of MAX_TAG_CHARS.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.utils.translation import gettext_lazy as _

# The stored values, in the order forms list them, with their labels for the UI.
SECTIONS: dict[str, object] = {
    "정치": _("Politics (정치)"),
    "경제": _("Economy (경제)"),
    "사회": _("Society (사회)"),
    "국제": _("World (국제)"),
    "문화": _("Culture (문화)"),
    "생활": _("Life (생활)"),
    "연예": _("Entertainment (연예)"),
    "스포츠": _("Sports (스포츠)"),
    "IT": _("IT and technology (IT)"),
    "과학": _("Science (과학)"),
    "오피니언": _("Opinion (오피니언)"),
}
_WORDS = {
    "정치": "politics political politic 정치 국회 외교 북한 청와대 대통령실",
    "경제": (
        "economy economic economics finance financial money business market markets stock "
        "stocks realestate estate industry 경제 금융 증권 증시 부동산 산업 재테크 기업"
    ),
    "사회": "society social national local 사회 사건 사고 사건사고 전국 지역 교육 노동",
    "국제": "world international inter global foreign 국제 세계 해외",
    "문화": "culture cultural arts art books book 문화 책 공연 전시 학술",
    "생활": "life living lifestyle health travel food 생활 건강 여행 라이프 레저 날씨",
    "연예": "entertainment entertain ent celebrity 연예 방송 연예가",
    "스포츠": "sports sport baseball soccer football golf 스포츠 야구 축구 골프",
    "IT": "it tech technology digital ict science-it it과학 테크 디지털 IT",
    "과학": "science 과학",
    "오피니언": "opinion opinions editorial editorials column columns 오피니언 사설 칼럼 시론 논평",
}
SECTION_OF_WORD = {
    word.casefold(): section for section, words in _WORDS.items() for word in words.split()
}
# Sites that are one section throughout, where addresses carry none.
SITE_SECTIONS = {"it.donga.com": "IT"}
MAX_TAGS = 10
MAX_TAG_CHARS = 64
_SEPARATORS = re.compile(r"[\s/·,>|:;]+")


def _section_of_words(text: str) -> str:
    for word in _SEPARATORS.split(text.casefold()):
        parts = re.split(r"[-_]", word)
        # "real-estate" or "it_science" name a section; "what-it-means" is a slug.
        for part in (word, *(parts if len(parts) <= 2 else ())):
            section = SECTION_OF_WORD.get(part)
            if section:
                return section
    return ""


def section_of(*, categories: list[str], url: str) -> str:
    """The section of an article: its feed categories, else its address, else its site."""
    for category in categories:
        section = _section_of_words(category)
        if section:
            return section
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    for segment in parts.path.split("/"):
        section = _section_of_words(segment) if segment and not segment.isdigit() else ""
        if section:
            return section
    return SITE_SECTIONS.get((parts.hostname or "").removeprefix("www."), "")


def clean_tags(categories: list[str]) -> list[str]:
    tags: list[str] = []
    folded: set[str] = set()
    for category in categories:
        tag = " ".join(str(category).split())[:MAX_TAG_CHARS]
        if tag and tag.casefold() not in folded:
            folded.add(tag.casefold())
            tags.append(tag)
        if len(tags) == MAX_TAGS:
            break
    return tags


class SectionError(ValueError):
    pass


def clean_sections(value) -> list[str]:
    """["경제", "IT"] from a list or a comma-separated string; empty means every section."""
    if value in (None, ""):
        return []
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise SectionError(
            _("Must be a list of sections: %(sections)s (empty = any).")
            % {"sections": ", ".join(SECTIONS)}
        )
    wanted = {v.strip() for v in value if v.strip()}
    unknown = sorted(wanted - set(SECTIONS))
    if unknown:
        raise SectionError(
            _("Unknown section %(section)r: choose from %(sections)s (empty = any).")
            % {"section": unknown[0][:20], "sections": ", ".join(SECTIONS)}
        )
    return [section for section in SECTIONS if section in wanted]
