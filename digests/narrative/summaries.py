"""What a brief says without a model (SPEC §7): extractive lead summaries and a template
narrative in the run's language. Both are labelled as such where they are shown
(RunItem.summary_generator = "extractive", Run.narrative_generator = "template")."""

from __future__ import annotations

import re

from django.utils import translation

SUMMARY_MAX_CHARS = 280
SUMMARY_MAX_CHARS_CJK = 160  # a CJK character carries about a word: three lines, not five
EXTRACTIVE = "extractive"
TEMPLATE = "template"

# A sentence ends at . ! ? before a capital, digit or quote (so "e.g. this" and "v2.1" stay
# whole), or right after a CJK full stop, which needs no space.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'“‘(\[A-Z0-9À-Þ])|(?<=[。！？])\s*")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
# Feed boilerplate that says nothing about the item.
_BOILERPLATE = [
    re.compile(r"The post .{1,300}? appeared first on .{1,200}?\.?$", re.IGNORECASE),
    re.compile(
        r"(Continue reading|Read more|Read the full (story|article)|Keep reading)\b[^.!?]{0,80}$"
    ),
    re.compile(r"\s*(\[(…|\.\.\.|&hellip;)\]|\((more|continued)…?\))\s*$", re.IGNORECASE),
    re.compile(r"(Article URL|Comments URL|Points|# Comments):\s*\S*", re.IGNORECASE),
    re.compile(r"https?://\S+"),
]


def clean_text(text: str, *, title: str = "") -> str:
    """Plain text with feed boilerplate, bare URLs and a repeated title removed."""
    text = " ".join((text or "").split())
    for pattern in _BOILERPLATE:
        text = pattern.sub("", text).strip()
    title = " ".join((title or "").split())
    if title and text.lower().startswith(title.lower()):
        rest = text[len(title) :]
        # Only a title followed by a separator is a repeat; "PostgreSQL 18 adds…" is prose.
        if rest[:2].strip()[:1] in (".", ":", "-", "–", "—", "|", "·"):
            text = rest.lstrip(" .:-–—|·")
    return " ".join(text.split())


def _is_cjk(text: str) -> bool:
    return len(_CJK.findall(text)) * 3 > len(text)


def lead_summary(text: str, *, title: str = "", max_chars: int | None = None) -> str:
    """The first one to three whole sentences of `text` that fit in `max_chars`."""
    text = clean_text(text, title=title)
    if max_chars is None:
        max_chars = SUMMARY_MAX_CHARS_CJK if _is_cjk(text) else SUMMARY_MAX_CHARS
    if len(text) <= max_chars:
        return text
    picked: list[str] = []
    length = 0
    for sentence in [s for s in _SENTENCE_END.split(text) if s][:3]:
        if length + len(sentence) + 1 > max_chars:
            break
        picked.append(sentence)
        length += len(sentence) + 1
    if picked:
        return ("" if _is_cjk(text) else " ").join(picked)
    cut = text[: max_chars - 1]
    if not _is_cjk(cut) and " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut + "…"


# The template narrative's fixed phrases per output locale (digests.subscriptions.service
# OUTPUT_LOCALES); anything else reads English.
PHRASES = {
    "en": {
        "lead": "**{title}** leads this issue of {name}{source}.",
        "source": ", from {source}",
        "also": "Also in this issue:",
        "sources": "Sources:",
    },
    "zh-hans": {
        "lead": "本期《{name}》的头条是 **{title}**{source}。",
        "source": "（来源：{source}）",
        "also": "本期还有：",
        "sources": "来源：",
    },
    "ja": {
        "lead": "今号の「{name}」のトップは **{title}**{source}です。",
        "source": "（{source}）",
        "also": "このほかの記事：",
        "sources": "出典：",
    },
    "ko": {
        "lead": "이번 {name} 호의 머리기사는 **{title}**{source}입니다.",
        "source": " ({source})",
        "also": "이번 호의 다른 소식:",
        "sources": "출처:",
    },
}
LANGUAGE_NAMES = {
    "en": "English",
    "zh-hans": "Simplified Chinese (简体中文)",
    "ja": "Japanese (日本語)",
    "ko": "Korean (한국어)",
}


def normalize_locale(locale: str | None) -> str:
    """One spelling per output language: zh-CN, zh_Hans and zh all mean "zh-hans"."""
    code = (locale or "").strip().lower().replace("_", "-")
    if code.startswith("zh"):
        return "zh-hans"
    base = code.split("-")[0]
    return base if base in PHRASES else code or "en"


def phrases_for(locale: str | None) -> dict[str, str]:
    return PHRASES.get(normalize_locale(locale), PHRASES["en"])


def md_escape(text: str) -> str:
    return re.sub(r"([\\`*_\[\]<>#|])", r"\\\1", text)


def _md_url(url: str) -> str:
    return url.replace("(", "%28").replace(")", "%29").replace(" ", "%20")


def sources_block(items: list[dict], locale: str | None = None) -> str:
    """The numbered list of every item's link that follows each narrative."""
    lines = [phrases_for(locale)["sources"]]
    lines.extend(
        f"{number}. [{md_escape(item['title'])}]({_md_url(item['url'])})"
        for number, item in enumerate(items, start=1)
    )
    return "\n".join(lines)


def template_narrative(subscription_name: str, items: list[dict], locale: str | None = None) -> str:
    """A plain narrative built only from the run's items: lead story, others, sources. The
    language is `locale`, or the active translation (callers may `override()` it)."""
    if not items:
        return ""
    locale = locale or translation.get_language()
    words = phrases_for(locale)
    lead = items[0]
    source = words["source"].format(source=md_escape(lead["source_name"]))
    lines = [
        words["lead"].format(
            title=md_escape(lead["title"]),
            name=md_escape(subscription_name),
            source=source if lead.get("source_name") else "",
        )
    ]
    if lead.get("summary"):
        lines += ["", md_escape(lead["summary"])]
    if len(items) > 1:
        lines += ["", words["also"]]
        lines.extend(f"- {md_escape(item['title'])}" for item in items[1:6])
    lines += ["", sources_block(items, locale)]
    return "\n".join(lines)
