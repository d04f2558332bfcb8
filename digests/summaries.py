"""Extractive fallbacks used when no LLM is configured (SPEC §7): lead sentences for item
summaries and a template narrative. Both are labelled as such where they are shown."""

from __future__ import annotations

import re

SUMMARY_MAX_CHARS = 280
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+")


def lead_summary(text: str, *, max_chars: int = SUMMARY_MAX_CHARS) -> str:
    """The first one to three sentences of `text` that fit in `max_chars`."""
    text = " ".join((text or "").split())
    if len(text) <= max_chars:
        return text
    picked: list[str] = []
    length = 0
    for sentence in _SENTENCE_END.split(text)[:3]:
        if length + len(sentence) + 1 > max_chars:
            break
        picked.append(sentence)
        length += len(sentence) + 1
    if picked:
        return " ".join(picked)
    cut = text[: max_chars - 1].rsplit(" ", 1)[0]
    return cut + "…"


def _md_escape(text: str) -> str:
    return re.sub(r"([\\`*_\[\]<>#|])", r"\\\1", text)


def template_narrative(subscription_name: str, items: list[dict]) -> str:
    """A plain narrative built only from the run's items: lead story, others, sources."""
    if not items:
        return ""
    lead = items[0]
    lines = [
        f"**{_md_escape(lead['title'])}** leads this issue of {_md_escape(subscription_name)}"
        + (f", from {_md_escape(lead['source_name'])}." if lead.get("source_name") else "."),
    ]
    if lead.get("summary"):
        lines.append("")
        lines.append(_md_escape(lead["summary"]))
    if len(items) > 1:
        lines.append("")
        lines.append("Also in this issue:")
        lines.extend(f"- {_md_escape(item['title'])}" for item in items[1:6])
    lines.append("")
    lines.append("Sources:")
    lines.extend(
        f"{number}. [{_md_escape(item['title'])}]({item['url']})"
        for number, item in enumerate(items, start=1)
    )
    return "\n".join(lines)
