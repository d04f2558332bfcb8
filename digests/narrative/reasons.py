"""An item's "why selected", kept as what it is made of and written out when it is shown.

A run stores each delivered item's reasons as parts (RunItem.why): a code and its values —
the matched terms and where, the feedback words, the source's weight, when it was published.
`reason_text` writes them in the active language every time they are shown (Inbox, brief
page, reader, emails, API), so a brief made before the reader switched language reads in the
new one. Only the model's own sentence (`model`) stays in the language it was written in.

Rows written before the parts existed carry only their text (RunItem.reason, in the run's
language); `parse` turns that text back into parts where every piece is recognised
(migration digests 0017), and `reason_text` shows the stored text for any it could not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.utils import translation
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext, gettext_noop

from config.moments import moment
from ingest.text.scores import strengths_in_words

MAX_CHARS = 500  # RunItem.reason's length
# How many of each list a reason names.
TERMS_SHOWN = 4
WORDS_SHOWN = 3
SEPARATOR = "; "


@dataclass(frozen=True)
class Phrase:
    """How one part reads: its gettext msgid (the ones the runner always used, so the existing
    translations apply), and the stored values that pick it among its code's phrases."""

    code: str
    msgid: str
    when: tuple[tuple[str, str], ...] = ()


PHRASES = (
    Phrase("matches", gettext_noop("matches %(terms)s in the title"), (("field", "title"),)),
    Phrase("matches", gettext_noop("matches %(terms)s in the summary"), (("field", "summary"),)),
    Phrase("matches", gettext_noop("matches %(terms)s in the text"), (("field", "text"),)),
    Phrase("followed_source", gettext_noop("from a source you follow")),
    Phrase("shares", gettext_noop("shares %(words)s with your best matches")),
    Phrase("meaning", gettext_noop("close in meaning to your topic")),
    Phrase("liked", gettext_noop("like items you saved or read (%(words)s)")),
    Phrase(
        "disliked", gettext_noop("ranked lower: like items you marked not interested (%(words)s)")
    ),
    Phrase(
        "muted_source",
        gettext_noop("ranked lower: you marked items from %(source)s not interested"),
    ),
    Phrase("weighted_up", gettext_noop("ranked higher: you weighted %(source)s ×%(weight)s")),
    Phrase("weighted_down", gettext_noop("ranked lower: you weighted %(source)s ×%(weight)s")),
    Phrase("source", gettext_noop("source: %(name)s")),
    Phrase("strengths", gettext_noop("stands out for: %(strengths)s")),
    Phrase("published", gettext_noop("published %(when)s")),
    Phrase("redelivered", gettext_noop("delivered before, shown again")),
)
MODEL = "model"  # the model's own sentence: shown as written

# A placeholder as shown, from the part's stored values.
SHOWN = {
    "terms": lambda v: ", ".join(v["terms"][:TERMS_SHOWN]),
    "words": lambda v: ", ".join(v["words"][:WORDS_SHOWN]),
    "source": lambda v: v["source"] or gettext("this source"),
    "weight": lambda v: f"{v['weight']:g}",
    "name": lambda v: v["name"],
    "strengths": lambda v: strengths_in_words(v["strengths"]),
    "when": lambda v: moment(parse_datetime(v["at"]), v.get("zone") or None),
}
_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _phrase(code: str, values: dict) -> Phrase:
    return next(p for p in PHRASES if p.code == code and all(values.get(k) == v for k, v in p.when))


def part(code: str, **values) -> list:
    """One stored part: [code, {values}] (JSON-ready)."""
    return [code, values]


def parts_for(candidate, zone: str | None) -> list[list]:
    """The parts of why a run picked `candidate` (digests.runs.runner.Candidate); its
    publication time is shown in `zone` (the subscription's)."""
    c = candidate
    parts = []
    if c.llm_reason:
        parts.append(part(MODEL, text=c.llm_reason.rstrip(".")))
    elif c.matched:
        # Only what the title says is said to be in it, first; the rest is found with the
        # summary's help (and the body's, for a short summary the ranker completed from it).
        in_title = [term for term in c.matched if term in c.in_title][:TERMS_SHOWN]
        rest = [term for term in c.matched if term not in in_title]
        rest = rest[: TERMS_SHOWN - len(in_title)]
        if in_title:
            parts.append(part("matches", terms=in_title, field="title"))
        if rest:
            field = "text" if c.summary_from_body else "summary"
            parts.append(part("matches", terms=rest, field=field))
    elif not c.related:
        parts.append(part("followed_source"))
    if c.related and not c.llm_reason:
        # Feedback words (digests/runs/scoring.py): what the best matches have in common.
        parts.append(part("shares", words=c.related[:WORDS_SHOWN]))
    if c.close_in_meaning and not c.llm_reason:
        parts.append(part("meaning"))
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


def _written(code: str, values: dict) -> str:
    if code == MODEL:
        return values["text"]
    template = gettext(_phrase(code, values).msgid)
    shown = {name: SHOWN[name](values) for name in _PLACEHOLDER.findall(template)}
    return template % shown if shown else template


def render(parts: list[list]) -> str:
    """The parts in the active language, as one line; "" when a part is not understood."""
    try:
        text = SEPARATOR.join(_written(code, values) for code, values in parts)
    except (KeyError, TypeError, ValueError, AttributeError, StopIteration):
        return ""
    return text[:MAX_CHARS]


def why_selected(run_item) -> str:
    """A RunItem's reason as shown now (reason_text of its parts and its stored text)."""
    return reason_text(run_item.why, run_item.reason)


def reason_text(why: list | None, stored: str) -> str:
    """Why an item was selected, as shown now: its parts in the active language, or, for a
    row kept only as text (written before the parts existed, or imported), that text."""
    return (render(why) if why else "") or stored


# Old rows: the stored text back into parts.


@dataclass(frozen=True)
class _Row:
    """What a stored row knows beside its text: when the item was published (and the zone
    it was shown in), and the item's strengths (its pool row's)."""

    published_at: datetime | None
    zone: str
    strengths: str


# A placeholder as read back: its pattern, and the stored values it gives (None: unknown).
READ = {
    "terms": (r".+", lambda text, row: {"terms": text.split(", ")}),
    "words": (r".+", lambda text, row: {"words": text.split(", ")}),
    "source": (
        r".+",
        lambda text, row: {"source": "" if text == gettext("this source") else text},
    ),
    "weight": (r"[0-9]+(?:\.[0-9]+)?", lambda text, row: {"weight": float(text)}),
    "name": (r".+", lambda text, row: {"name": text}),
    "strengths": (
        r".+",
        lambda text, row: {"strengths": row.strengths} if row.strengths else None,
    ),
    "when": (
        r".+",
        lambda text, row: (
            {"at": row.published_at.isoformat(), "zone": row.zone} if row.published_at else None
        ),
    ),
}


def _pattern(template: str) -> re.Pattern:
    """A translated msgid with its %(name)s placeholders as named groups."""
    pattern = re.escape(template)
    for name in _PLACEHOLDER.findall(template):
        group = READ[name][0]
        pattern = pattern.replace(re.escape(f"%({name})s"), f"(?P<{name}>{group})")
    return re.compile(pattern)


def _read_piece(piece: str, row: _Row) -> list | None:
    for phrase in PHRASES:
        match = _pattern(gettext(phrase.msgid)).fullmatch(piece)
        if match is None:
            continue
        values = dict(phrase.when)
        for name, text in match.groupdict().items():
            read = READ[name][1](text, row)
            if read is None:
                return None
            values |= read
        return part(phrase.code, **values)
    return None


def _parse_in_active_language(text: str, row: _Row) -> list[list] | None:
    parts: list[list] = []
    unknown: list[str] = []  # leading pieces no phrase reads: the model's sentence
    for piece in text.split(SEPARATOR):
        found = _read_piece(piece, row)
        if found is None:
            if parts:  # only the first pieces may be the model's
                return None
            unknown.append(piece)
            continue
        if unknown:
            parts.append(part(MODEL, text=SEPARATOR.join(unknown)))
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
    row = _Row(published_at, zone, strengths)
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            parts = _parse_in_active_language(text, row)
        if parts is not None:
            return parts
    return None
