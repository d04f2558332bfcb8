"""Content-level scores: global, cheap and deterministic (SPEC §4.7; seed 000 §4.2).

Two numbers per pool item, 0-100, each the sum of named parts so a brief can say why an item
was picked:

- impact = source reputation (allow/deny domain lists, the source's priority) + channel weight
  (the source type), stored at ingest as `score_impact`; freshness decays with time, so it is
  added when a run scores the item (`impact_at`, here: the one formula).
- quality = body length + structure (headings, code, quotes, lists, tables) - penalties for
  listing or navigation pages, items without a title and near-duplicates, stored as
  `score_quality`; recomputed when full text arrives (`with_full_text`, stored by
  ingest/pool/full_text.py) and when dedup settles an item's status (`with_duplicate_penalty`,
  stored by ingest/pool/dedup.py).

The parts are stored in `ContentItem.score_reasons`:

    {"impact": [{"part": "channel", "points": 10, "why": "a publisher's own feed"}, ...],
     "quality": [...],
     "strengths": "well-regarded lwn.net, long article"}

`strengths` names the strongest positive parts in plain words; a run reads only that key
(extracted by the database), so explaining a pick costs no JSON decoding per candidate.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext

from ingest.models import ContentItem

# --- impact -------------------------------------------------------------------------------
IMPACT_BASE = 40
ALLOW_LISTED_POINTS = 20
DENY_LISTED_POINTS = -40
PRIORITY_POINTS_CAP = 20  # Source.priority counts one point per step, within +-20
# A publisher's own feed and a page somebody chose to watch are edited channels; a watched
# listing less so; crawled pages and search hits are whatever the site or engine turned up.
CHANNEL_POINTS = {
    "feed": (10, "a publisher's own feed"),
    "page": (10, "a page chosen to be watched"),
    "list": (5, "a watched listing"),
    "crawl": (0, "found by crawling a site"),
    "search": (0, "found by a search"),
}
FRESHNESS_HALF_LIFE_HOURS = 36.0
FRESHNESS_MAX_POINTS = 50

# --- quality ------------------------------------------------------------------------------
QUALITY_BASE = 30
# (at least this many words, points, why), longest first. A feed item's usual two-sentence
# summary (15-60 words) lands near 42, where a run's default min_score still lets a relevant,
# fresh item through; full text, when extracted, counts instead.
LENGTH_STEPS = (
    (1000, 45, "long article"),
    (400, 35, "full article"),
    (150, 25, "short article"),
    (60, 20, "a few paragraphs"),
    (15, 12, "a summary"),
    (0, 3, "a one-line teaser"),
)
STRUCTURE_POINTS = {  # each kind counts once, however often it appears
    "headings": (re.compile(r"<h[1-6]\b", re.I), 8),
    "code": (re.compile(r"<(?:pre|code)\b", re.I), 8),
    "quotes": (re.compile(r"<blockquote\b", re.I), 5),
    "lists": (re.compile(r"<(?:ul|ol)\b", re.I), 4),
    "tables or figures": (re.compile(r"<(?:table|figure)\b", re.I), 4),
}
STRUCTURE_CAP = 25
LISTING_PENALTY = -35
NO_TITLE_PENALTY = -10
DUPLICATE_PENALTY = -30
_DUPLICATE_WHY = "a duplicate of another item"
SUBSTANTIAL_LENGTH = 35  # points: a full article or longer is worth mentioning
_STANDING_PARTS = ("source_reputation", "source_priority")
MAX_SCANNED_CHARS = 60_000  # the head of a page (thousands of words) shows its length and shape

_TAG = re.compile(r"<[^>]+>")
_LINK = re.compile(r"<a\b[^>]*>(.*?)</a\s*>", re.I | re.S)
# Han and kana: Chinese and Japanese are written without spaces between words.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True)
class ScorePart:
    part: str
    points: int
    why: str


@dataclass(frozen=True)
class ItemScores:
    impact: int  # the stored, time-independent part; a run adds freshness (impact_at)
    quality: int
    reasons: dict

    def fields(self) -> dict:
        """Keyword arguments for a ContentItem."""
        return {
            "score_impact": self.impact,
            "score_quality": self.quality,
            "score_reasons": self.reasons,
        }


def _clamp(value: int) -> int:
    return max(0, min(100, value))


def _host(url: str) -> str:
    try:
        return (urlsplit(url).hostname or "").lower().rstrip(".")
    except ValueError:
        return ""


def _listed(host: str, domains) -> str | None:
    """The entry of `domains` that `host` is, or is a subdomain of."""
    for domain in domains:
        domain = domain.lower().strip().strip(".")
        if domain and (host == domain or host.endswith("." + domain)):
            return domain
    return None


def impact_parts(*, url: str, source) -> list[ScorePart]:
    """The stored part of impact: reputation of the item's domain (or, failing that, its
    source's), the source's priority, and the channel it came through."""
    parts = [ScorePart("base", IMPACT_BASE, "neutral start")]
    hosts = [h for h in (_host(url), _host(source.url or source.site_url or "")) if h]
    deny = next(filter(None, (_listed(h, settings.SOURCE_REPUTATION_DENY) for h in hosts)), None)
    allow = next(filter(None, (_listed(h, settings.SOURCE_REPUTATION_ALLOW) for h in hosts)), None)
    if deny:  # a deny entry wins over an allow entry for the same host
        parts.append(ScorePart("source_reputation", DENY_LISTED_POINTS, f"deny-listed {deny}"))
    elif allow:
        parts.append(ScorePart("source_reputation", ALLOW_LISTED_POINTS, f"well-regarded {allow}"))
    priority = max(-PRIORITY_POINTS_CAP, min(PRIORITY_POINTS_CAP, source.priority or 0))
    if priority:
        why = "a preferred source" if priority > 0 else "a less preferred source"
        parts.append(ScorePart("source_priority", priority, why))
    points, why = CHANNEL_POINTS.get(source.type, (0, f"a {source.type} source"))
    parts.append(ScorePart("channel", points, why))
    return parts


def freshness(published: datetime, now: datetime) -> float:
    """1.0 when just published, halving every FRESHNESS_HALF_LIFE_HOURS."""
    age_hours = max(0.0, (now - published).total_seconds() / 3600)
    return math.pow(0.5, age_hours / FRESHNESS_HALF_LIFE_HOURS)


def impact_at(static_impact: int, published: datetime, now: datetime) -> int:
    """Impact as a run sees it: half the stored part plus up to 50 points of freshness."""
    return round(0.5 * static_impact + FRESHNESS_MAX_POINTS * freshness(published, now))


def freshness_part(published: datetime, now: datetime) -> ScorePart:
    """The run-time part of impact in words, for a brief or a preview to show."""
    hours = max(0.0, (now - published).total_seconds() / 3600)
    age = f"{round(hours)} hours old" if hours < 48 else f"{round(hours / 24)} days old"
    return ScorePart("freshness", round(FRESHNESS_MAX_POINTS * freshness(published, now)), age)


def visible_text(fragment: str) -> str:
    """Text of sanitized HTML, for measuring: tags to spaces, entities decoded once."""
    return " ".join(html.unescape(_TAG.sub(" ", fragment)).split())


def word_count(text: str) -> int:
    """Words in `text`; Chinese and Japanese (no spaces) count one word per two characters."""
    words = len(text.split())
    if words * 12 < len(text):  # long runs without spaces: count the Han and kana in them
        words += len(_CJK.findall(text)) // 2
    return words


def quality_parts(
    *,
    title: str,
    description: str,
    content_html: str,
    full_text: str = "",
    status: str = ContentItem.Status.ACTIVE,
) -> list[ScorePart]:
    html_head = content_html[:MAX_SCANNED_CHARS]
    page_text = _TAG.sub(" ", html_head)  # entities and spacing do not change a word count
    words = max(word_count(full_text[:MAX_SCANNED_CHARS] or page_text), word_count(description))
    parts = [ScorePart("base", QUALITY_BASE, "neutral start")]
    for least, points, why in LENGTH_STEPS:
        if words >= least:
            parts.append(ScorePart("length", points, f"{why} ({words} words)"))
            break
    found = [
        name for name, (pattern, _points) in STRUCTURE_POINTS.items() if pattern.search(html_head)
    ]
    if found:
        points = min(STRUCTURE_CAP, sum(STRUCTURE_POINTS[name][1] for name in found))
        parts.append(ScorePart("structure", points, ", ".join(found)))
    links = _LINK.findall(html_head) if html_head.count("<a ") >= 5 else []
    if len(links) >= 5:
        link_words = word_count(_TAG.sub(" ", " ".join(links)))
        if link_words / max(1, word_count(page_text)) >= 0.5:
            why = f"mostly links ({len(links)} links): a listing or navigation page"
            parts.append(ScorePart("listing_page", LISTING_PENALTY, why))
    if not title.strip():
        parts.append(ScorePart("no_title", NO_TITLE_PENALTY, "no title"))
    if status == ContentItem.Status.FILTERED:
        parts.append(ScorePart("near_duplicate", DUPLICATE_PENALTY, _DUPLICATE_WHY))
    return parts


def _strengths(impact: list[ScorePart], quality: list[ScorePart]) -> str:
    """What makes the item stand out, in plain words: its source's standing (if it has any
    beyond the usual) and the best of its length and structure. Two at most."""
    standing = [p for p in impact if p.part in _STANDING_PARTS and p.points > 0]
    substance = [
        p
        for p in quality
        if p.part == "structure" or (p.part == "length" and p.points >= SUBSTANTIAL_LENGTH)
    ]
    standing.sort(key=lambda p: -p.points)
    substance.sort(key=lambda p: -p.points)
    picked = standing[:1] + substance[: 2 - len(standing[:1])]
    return ", ".join(_plain(p) for p in picked)


def strengths_in_words(strengths: str) -> str:
    """A stored `strengths` text (English, shared by every reader) in the active language:
    the few phrases `_strengths` writes, put together again in translation."""
    if not strengths:
        return ""
    structure_names = {
        "headings": gettext("headings"),
        "code": gettext("code"),
        "quotes": gettext("quotes"),
        "lists": gettext("lists"),
        "tables or figures": gettext("tables or figures"),
    }
    lengths = {
        "long article": gettext("long article"),
        "full article": gettext("full article"),
        "short article": gettext("short article"),
    }
    words, structure = [], []
    for part in strengths.split(", "):
        if structure or part.startswith("has "):
            name = part.removeprefix("has ")
            structure.append(structure_names.get(name, name))
        elif part.startswith("well-regarded "):
            domain = part.removeprefix("well-regarded ")
            words.append(gettext("well-regarded %(domain)s") % {"domain": domain})
        elif part == "a preferred source":
            words.append(gettext("a preferred source"))
        else:
            words.append(lengths.get(part, part))
    if structure:
        words.append(gettext("has %(parts)s") % {"parts": ", ".join(structure)})
    return ", ".join(words)


def _plain(part: ScorePart) -> str:
    if part.part == "length":
        return part.why.split(" (")[0]
    if part.part == "structure":
        return f"has {part.why}"
    return part.why


def _total(parts: list[ScorePart]) -> int:
    return _clamp(sum(p.points for p in parts))


def _as_dicts(parts: list[ScorePart]) -> list[dict]:
    return [{"part": p.part, "points": p.points, "why": p.why} for p in parts]


def _reasons(impact: list[ScorePart], quality: list[ScorePart]) -> dict:
    return {
        "impact": _as_dicts(impact),
        "quality": _as_dicts(quality),
        "strengths": _strengths(impact, quality),
    }


def score_item(
    *,
    url: str,
    title: str,
    description: str,
    content_html: str,
    source,
    full_text: str = "",
    status: str = ContentItem.Status.ACTIVE,
) -> ItemScores:
    """Both content scores of one item with their parts. Pure: the same input gives the same
    output (the allow/deny lists are read from settings)."""
    impact = impact_parts(url=url, source=source)
    quality = quality_parts(
        title=title,
        description=description,
        content_html=content_html,
        full_text=full_text,
        status=status,
    )
    return ItemScores(_total(impact), _total(quality), _reasons(impact, quality))


def score_fields(*, url, title, description, content_html, source) -> dict:
    """`score_impact`, `score_quality` and `score_reasons` for a new pool item."""
    return score_item(
        url=url, title=title, description=description, content_html=content_html, source=source
    ).fields()


def with_duplicate_penalty(reasons: dict, *, filtered: bool) -> tuple[int, dict] | None:
    """Quality and reasons once dedup has settled an item's status: the near-duplicate
    penalty added (`filtered`) or dropped, the other parts as stored. None when the stored
    reasons predate score reasons (nothing to adjust)."""
    if "quality" not in reasons:
        return None
    impact = [ScorePart(**p) for p in reasons.get("impact", [])]
    quality = [ScorePart(**p) for p in reasons["quality"] if p["part"] != "near_duplicate"]
    if filtered:
        quality.append(ScorePart("near_duplicate", DUPLICATE_PENALTY, _DUPLICATE_WHY))
    return _total(quality), _reasons(impact, quality)


def with_full_text(item, full_text: str) -> tuple[int, dict]:
    """Quality and reasons once full text is known (`item` needs its text fields, status and
    score_reasons loaded). Impact does not depend on the body and is kept as stored."""
    impact = [ScorePart(**p) for p in (item.score_reasons or {}).get("impact", [])]
    quality = quality_parts(
        title=item.title,
        description=item.description,
        content_html=item.content_html,
        full_text=full_text,
        status=item.status,
    )
    return _total(quality), _reasons(impact, quality)
