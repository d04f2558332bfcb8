"""An item's "why selected", kept as what it is made of and written out when it is shown.

A run stores each delivered item's reasons as parts (RunItem.why): a code and its values —
the matched terms and where, the feedback words, the source's weight, when it was published.
`reason_text` writes them in the active language every time they are shown (Inbox, brief
page, reader, emails, API), so a brief made before the reader switched language reads in the
new one. Only the model's own sentence (`model`) stays in the language it was written in.

Rows written before the parts existed carry only their text (RunItem.reason, in the run's
language); `parse` turns that text back into parts where every piece is recognised
(migration digests 0016), and `reason_text` shows the stored text for any it could not.
"""

from __future__ import annotations

import re
from datetime import datetime

from django.conf import settings
from django.utils import translation
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext

from config.moments import moment
from ingest.text.scores import strengths_in_words

MAX_CHARS = 500  # RunItem.reason's length
# How many of each list a reason names.
TERMS_SHOWN = 4
WORDS_SHOWN = 3
SEPARATOR = "; "


def _listed(words: list[str], limit: int) -> str:
    return ", ".join(words[:limit])


def _weight(value: float) -> str:
    return f"{value:g}"


def _source(name: str) -> str:
    return name or gettext("this source")


# code -> how it reads in the active language. The msgids are the ones the runner always
# used, so the existing translations apply.
def _matches(p: dict) -> str:
    terms = _listed(p["terms"], TERMS_SHOWN)
    if p.get("field") == "title":
        return gettext("matches %(terms)s in the title") % {"terms": terms}
    if p.get("field") == "summary":
        return gettext("matches %(terms)s in the summary") % {"terms": terms}
    return gettext("matches %(terms)s in the text") % {"terms": terms}


def _published(p: dict) -> str:
    at = parse_datetime(p["at"])
    return gettext("published %(when)s") % {"when": moment(at, p.get("zone") or None)}


WRITERS = {
    "model": lambda p: p["text"],
    "matches": _matches,
    "followed_source": lambda p: gettext("from a source you follow"),
    "shares": lambda p: (
        gettext("shares %(words)s with your best matches")
        % {"words": _listed(p["words"], WORDS_SHOWN)}
    ),
    "liked": lambda p: (
        gettext("like items you saved or read (%(words)s)")
        % {"words": _listed(p["words"], WORDS_SHOWN)}
    ),
    "disliked": lambda p: (
        gettext("ranked lower: like items you marked not interested (%(words)s)")
        % {"words": _listed(p["words"], WORDS_SHOWN)}
    ),
    "muted_source": lambda p: (
        gettext("ranked lower: you marked items from %(source)s not interested")
        % {"source": p["source"]}
    ),
    "weighted_up": lambda p: (
        gettext("ranked higher: you weighted %(source)s ×%(weight)s")
        % {"source": _source(p["source"]), "weight": _weight(p["weight"])}
    ),
    "weighted_down": lambda p: (
        gettext("ranked lower: you weighted %(source)s ×%(weight)s")
        % {"source": _source(p["source"]), "weight": _weight(p["weight"])}
    ),
    "source": lambda p: gettext("source: %(name)s") % {"name": p["name"]},
    "strengths": lambda p: (
        gettext("stands out for: %(strengths)s") % {"strengths": strengths_in_words(p["strengths"])}
    ),
    "published": _published,
    "redelivered": lambda p: gettext("delivered before, shown again"),
}


def part(code: str, **values) -> list:
    """One stored part: [code, {values}] (JSON-ready)."""
    return [code, values]


def parts_for(candidate, zone: str | None) -> list[list]:
    """The parts of why a run picked `candidate` (digests.runs.runner.Candidate); its
    publication time is shown in `zone` (the subscription's)."""
    c = candidate
    parts = []
    if c.llm_reason:
        parts.append(part("model", text=c.llm_reason.rstrip(".")))
    elif c.matched:
        parts.append(part("matches", terms=c.matched[:TERMS_SHOWN], field=c.field or "text"))
    elif not c.related:
        parts.append(part("followed_source"))
    if c.related and not c.llm_reason:
        # Feedback words (digests/runs/scoring.py): what the best matches have in common.
        parts.append(part("shares", words=c.related[:WORDS_SHOWN]))
    if c.liked:
        parts.append(part("liked", words=c.liked[:WORDS_SHOWN]))
    if c.disliked:
        parts.append(part("disliked", words=c.disliked[:WORDS_SHOWN]))
    if c.muted_source:
        parts.append(part("muted_source", source=c.muted_source))
    if c.source_weight > 1:
        parts.append(part("weighted_up", source=c.weighted_source, weight=c.source_weight))
    elif c.source_weight < 1:
        parts.append(part("weighted_down", source=c.weighted_source, weight=c.source_weight))
    if c.site_name:
        parts.append(part("source", name=c.site_name))
    if c.strengths:
        parts.append(part("strengths", strengths=c.strengths))
    parts.append(part("published", at=c.published_at.isoformat(), zone=zone or ""))
    if c.redelivery:
        parts.append(part("redelivered"))
    return parts


def render(parts: list[list]) -> str:
    """The parts in the active language, as one line; "" when a part is not understood."""
    try:
        text = SEPARATOR.join(WRITERS[code](values) for code, values in parts)
    except (KeyError, TypeError, ValueError, AttributeError):
        return ""
    return text[:MAX_CHARS]


def reason_text(why: list | None, stored: str) -> str:
    """Why an item was selected, as shown now: its parts in the active language, or, for a
    row kept only as text (written before the parts existed, or imported), that text."""
    return (render(why) if why else "") or stored


# Old rows: the stored text back into parts.


def _pattern(template: str, **groups: str) -> re.Pattern:
    """A gettext template with its %(name)s placeholders as named groups."""
    pattern = re.escape(template)
    for name, group in groups.items():
        pattern = pattern.replace(re.escape(f"%({name})s"), f"(?P<{name}>{group})")
    return re.compile(pattern)


def _patterns() -> list[tuple[re.Pattern, object]]:
    """(pattern, to_part) for every piece a reason may hold, in the active language."""
    words = r".+"

    def split(text: str) -> list[str]:
        return text.split(", ")

    def weighted(code):
        def to_part(m):
            source = m["source"]
            return part(
                code,
                source="" if source == gettext("this source") else source,
                weight=float(m["weight"]),
            )

        return to_part

    return [
        (
            _pattern(gettext("matches %(terms)s in the title"), terms=words),
            lambda m: part("matches", terms=split(m["terms"]), field="title"),
        ),
        (
            _pattern(gettext("matches %(terms)s in the summary"), terms=words),
            lambda m: part("matches", terms=split(m["terms"]), field="summary"),
        ),
        (
            _pattern(gettext("matches %(terms)s in the text"), terms=words),
            lambda m: part("matches", terms=split(m["terms"]), field="text"),
        ),
        (_pattern(gettext("from a source you follow")), lambda m: part("followed_source")),
        (
            _pattern(gettext("shares %(words)s with your best matches"), words=words),
            lambda m: part("shares", words=split(m["words"])),
        ),
        (
            _pattern(gettext("like items you saved or read (%(words)s)"), words=words),
            lambda m: part("liked", words=split(m["words"])),
        ),
        (
            _pattern(
                gettext("ranked lower: like items you marked not interested (%(words)s)"),
                words=words,
            ),
            lambda m: part("disliked", words=split(m["words"])),
        ),
        (
            _pattern(
                gettext("ranked lower: you marked items from %(source)s not interested"),
                source=words,
            ),
            lambda m: part("muted_source", source=m["source"]),
        ),
        (
            _pattern(
                gettext("ranked higher: you weighted %(source)s ×%(weight)s"),
                source=words,
                weight=r"[0-9.]+",
            ),
            weighted("weighted_up"),
        ),
        (
            _pattern(
                gettext("ranked lower: you weighted %(source)s ×%(weight)s"),
                source=words,
                weight=r"[0-9.]+",
            ),
            weighted("weighted_down"),
        ),
        (
            _pattern(gettext("source: %(name)s"), name=words),
            lambda m: part("source", name=m["name"]),
        ),
        (_pattern(gettext("delivered before, shown again")), lambda m: part("redelivered")),
    ]


def _parse_in_active_language(
    text: str, *, published_at: datetime | None, zone: str, strengths: str
) -> list[list] | None:
    pieces = text.split(SEPARATOR)
    patterns = _patterns()
    published = _pattern(gettext("published %(when)s"), when=r".+")
    stands_out = _pattern(gettext("stands out for: %(strengths)s"), strengths=r".+")
    parts: list[list] = []
    unknown: list[str] = []  # leading pieces no pattern knows: the model's sentence
    for piece in pieces:
        found = None
        if published.fullmatch(piece):
            if published_at is None:
                return None
            found = part("published", at=published_at.isoformat(), zone=zone)
        elif stands_out.fullmatch(piece):
            if not strengths:
                return None
            found = part("strengths", strengths=strengths)
        else:
            for pattern, to_part in patterns:
                match = pattern.fullmatch(piece)
                if match:
                    found = to_part(match)
                    break
        if found is None:
            if parts:  # only the first piece may be the model's
                return None
            unknown.append(piece)
            continue
        if unknown:
            parts.append(part("model", text=SEPARATOR.join(unknown)))
            unknown = []
        parts.append(found)
    if unknown or not parts or parts[-1][0] not in ("published", "redelivered"):
        return None  # cut at 500 characters, or not a runner's reason at all
    return parts


def parse(
    text: str, *, published_at: datetime | None, zone: str, strengths: str = ""
) -> list[list] | None:
    """A stored reason's parts, read in any language we ship; None when any piece is not
    recognised (the text is then shown as stored)."""
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            parts = _parse_in_active_language(
                text, published_at=published_at, zone=zone, strengths=strengths
            )
        if parts is not None:
            return parts
    return None
