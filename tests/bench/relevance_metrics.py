"""The `relevance` benchmark's measuring parts, kept apart so they are tested on their own
(tests/test_relevance_metrics.py): which judged item a pool item is, and how good a ranked
list is against graded judgments (TREC-style; ../shared/corpora/relevance/README.md).

- A pool item is a judged item when their links agree once the scheme, `www.`, the fragment,
  a trailing slash and `utm_*` parameters are set aside (several items with one link — a page's
  dated entries, a feed that links every episode to its home page — are told apart by title);
  failing that, when their titles agree
  with case and whitespace folded (a title several items share goes to the one from the same
  feed file, else the first).
- nDCG@10 is taken over the *condensed* list: unjudged items are dropped, the rest keep their
  order; gain 2^grade − 1, discount log2(rank + 1); the ideal list is the topic's judged grades,
  best first. precision = judged items with grade ≥ 1 ÷ judged items returned; judged share =
  judged items returned ÷ items returned. A list with no judged item has no precision (None),
  and one with nothing returned no judged share.
- The BM25 baseline tokenizes its documents and its queries alike (`tokens`): NFKC, lower case,
  split on anything that is not a word character; a run holding Chinese, Japanese or Korean
  is cut into words by the segmenter Tidings itself uses (ingest/text/segment.py), particles
  and punctuation dropped (as an analyzer's stop filter would), so both sides of the
  comparison read CJK text the same way. (Until 2026-11-28 the baseline used overlapping
  character bigrams, as Lucene's CJKAnalyzer does: 0.560 on the CJK part then.)
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode, urlsplit

from ingest.text.segment import FUNCTION, segment

DEPTH = 10
_WORD = re.compile(r"\w+")
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
_CJK_CHAR = re.compile(f"[{_CJK}]")


def tokens(text: str) -> list[str]:
    """The one tokenization of the BM25 baseline's documents and queries: NFKC, lower case,
    split on non-word characters, CJK runs cut into words by Tidings' own segmenter."""
    out: list[str] = []
    for word in _WORD.findall(unicodedata.normalize("NFKC", text).lower()):
        if word.isascii() or not _CJK_CHAR.search(word):
            out.append(word)
            continue
        out += [w.text for w in segment(word) if w.kind != FUNCTION]
    return out


def link_key(url: str) -> str:
    """`url` without scheme, `www.`, fragment, trailing slash and `utm_*` parameters (host in
    lower case; path and the other parameters, in their order, as they are)."""
    parts = urlsplit(url.strip())
    host = parts.netloc.lower()
    if host.startswith("www."):
        host = host[4:]
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    query = urlencode([(k, v) for k, v in pairs if not k.startswith("utm_")])
    key = host + parts.path.rstrip("/")
    return f"{key}?{query}" if query else key


def title_key(title: str) -> str:
    return " ".join(title.casefold().split())


@dataclass
class JudgedItems:
    """The collection's items (items.jsonl rows: id, feed, link, title), looked up by a pool
    item's link and title."""

    by_link: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    by_title: dict[str, list[tuple[int, str]]] = field(default_factory=dict)

    @classmethod
    def build(cls, rows: Iterable[Mapping]) -> JudgedItems:
        judged = cls()
        for row in rows:
            if row.get("link"):
                judged.by_link.setdefault(link_key(row["link"]), []).append(
                    (row["id"], title_key(row.get("title") or ""))
                )
            if row.get("title"):
                judged.by_title.setdefault(title_key(row["title"]), []).append(
                    (row["id"], row.get("feed", ""))
                )
        return judged

    def find(self, link: str, title: str, feeds: Iterable[str] = ()) -> int | None:
        """The collection's id of a pool item, or None."""
        if link:
            same_link = self.by_link.get(link_key(link))
            if same_link:
                # Items that differ only by a fragment (one page's dated entries) or a feed that
                # gives every episode its home page: the title says which.
                folded = title_key(title or "")
                return next((i for i, t in same_link if t == folded), same_link[0][0])
        same_title = self.by_title.get(title_key(title)) if title else None
        if not same_title:
            return None
        feeds = set(feeds)
        for item_id, feed in same_title:
            if feed in feeds:
                return item_id
        return same_title[0][0]


def gain(grade: int) -> float:
    return 2.0**grade - 1


def dcg(grades: Sequence[int], depth: int = DEPTH) -> float:
    return sum(gain(g) / math.log2(rank + 2) for rank, g in enumerate(grades[:depth]))


def ndcg(returned: Sequence[int | None], judged_grades: Iterable[int], depth: int = DEPTH) -> float:
    """nDCG@depth of `returned` (the grade of each returned item in order, None: unjudged) over
    the condensed list, the ideal from every judged grade of the topic."""
    ideal = dcg(sorted(judged_grades, reverse=True), depth)
    if ideal == 0:
        return 0.0
    condensed = [g for g in returned if g is not None]
    return dcg(condensed, depth) / ideal


def precision(returned: Sequence[int | None]) -> float | None:
    judged = [g for g in returned if g is not None]
    if not judged:
        return None
    return sum(g >= 1 for g in judged) / len(judged)


def judged_share(returned: Sequence[int | None]) -> float | None:
    if not returned:
        return None
    return sum(g is not None for g in returned) / len(returned)


def figures(returned: Sequence[int | None], judged_grades: Iterable[int]) -> dict:
    """The three figures of one ranked list (the grade of each returned item, None:
    unjudged), rounded for a report."""
    p, share = precision(returned), judged_share(returned)
    return {
        "returned": len(returned),
        "ndcg10": round(ndcg(returned, judged_grades), 4),
        "precision": None if p is None else round(p, 4),
        "judged_share": None if share is None else round(share, 4),
    }


def mean(values: Iterable[float | None]) -> float | None:
    """Mean of the values that exist (a topic with no judged item returned has no precision)."""
    present = [v for v in values if v is not None]
    return round(sum(present) / len(present), 4) if present else None


def percentile(samples: Sequence[float], fraction: float) -> float:
    """The `fraction` quantile of `samples`, interpolated between the nearest ranks."""
    ordered = sorted(samples)
    if not ordered:
        raise ValueError("no samples")
    position = (len(ordered) - 1) * fraction
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)
