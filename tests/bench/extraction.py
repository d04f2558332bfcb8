"""`extraction`: main-text extraction quality and speed — readability-lxml (the baseline),
trafilatura with its defaults and in its precision and recall modes, and Tidings' extractor
(`ingest.text.extract.extract_main_content`, what the product stores).

Corpora (../shared/corpora; without them the benchmark runs on one page of the repository's
own fixtures, tests/ingest/testdata/extraction/article.html, with the snippets its test
checks — the same code path, but no figure worth comparing):

- `extraction/`: 300 pages from trafilatura's evaluation set (mostly German, ~25 % other
  languages), each with snippets that must appear in the main text (`with`) and boilerplate
  snippets that must not (`without`). F1 as that corpus's README (trafilatura's
  tests/eval_common.py) defines it: output and snippets whitespace-normalized; a `with`
  snippet found is a true positive, missing a false negative; a `without` snippet found is a
  false positive; precision and recall over the pooled counts of all pages. An extractor that
  returns nothing for a page gets every `with` snippet of it as a false negative.
- `extraction_scrapinghub/`: Zyte's article-extraction benchmark, 181 English articles with the
  full article body. F1 as that benchmark's evaluate.py defines it (its README): tokens are
  `\\w+` runs, compared as 4-token shingles (multisets); per page tp/fp/fn are normalized to sum
  to 1 so long articles do not dominate; precision and recall from the sums over pages.

Every extractor gets the same decoded text (ingest.text.extract.decode_html). `f1` is the lower of
the two sets' F1 for the chosen extractor; `ratio` = that ÷ the same figure for
readability-lxml, measured in the same process. docs/s is single-threaded wall time.
`halves`: F1 on each half of a set (pages sorted by file name, even and odd positions) — a
change to the extractor should not lower either, so that it is not fitted to a few pages.

Sizes (tests/bench/sizes.py): full = all 300 + 181 pages; small = every 4th page of each set
(75 + 46); smoke = every 15th (20 + 13), in the order of their keys (URL, file name).
"""

from __future__ import annotations

import gzip
import json
import re
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import lxml.html
import trafilatura
from django.conf import settings
from readability import Document

from ingest.text.extract import decode_html, extract_main_content
from tests.bench.sizes import every_nth

CORPORA = Path(settings.BASE_DIR).parent / "shared" / "corpora"
SNIPPETS = CORPORA / "extraction"
SCRAPINGHUB = CORPORA / "extraction_scrapinghub"
# Without the corpora: one fixture page and what tests/ingest/test_extract.py checks on it.
FIXTURE = Path(settings.BASE_DIR) / "tests" / "ingest" / "testdata" / "extraction"
FIXTURE_PAGE = {
    "file": "article.html",
    "url": "https://blog.example.org/posts/autovacuum",
    "with": [
        "Autovacuum keeps PostgreSQL tables healthy",
        "anti-wraparound vacuums cannot be skipped",
        "ALTER TABLE events SET",
    ],
    "without": [
        "Subscribe to the newsletter",
        "How table bloat happens",
        "Five index mistakes",
        "All rights reserved",
        "Share this",
    ],
}
_SPACE = re.compile(r"\s+")
_TOKEN = re.compile(r"\w+")
_BLOCKS = {"p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "tr", "br"}
GOALS = {"snippets": 0.92, "scrapinghub": 0.95, "fixture": None}


def _readability(html: str, url: str) -> str:
    """readability-lxml as documented: Document(...).summary(), its text one block per line."""
    content = Document(html, url=url).summary(html_partial=True)
    root = lxml.html.fromstring(content)
    for element in root.iter():
        if isinstance(element.tag, str) and element.tag in _BLOCKS:
            element.tail = "\n" + (element.tail or "")
    return root.text_content()


def _trafilatura(**options) -> Callable[[str, str], str]:
    def extract(html: str, url: str) -> str:
        return trafilatura.extract(html, url=url, **options) or ""

    return extract


def _tidings(html: str, url: str) -> str:
    return extract_main_content(html, url=url).text


EXTRACTORS: dict[str, Callable[[str, str], str]] = {
    "readability-lxml": _readability,
    "trafilatura": _trafilatura(),
    "trafilatura-precision": _trafilatura(include_comments=False, favor_precision=True),
    "trafilatura-recall": _trafilatura(include_comments=False, favor_recall=True),
    "tidings": _tidings,
}
BASELINE, CHOSEN = "readability-lxml", "tidings"


def _load_snippets(size: str) -> list[tuple[str, str, dict]]:
    annotations = json.loads((SNIPPETS / "annotations.json").read_text())
    return [
        (url, decode_html((SNIPPETS / "html" / entry["file"]).read_bytes()), entry)
        for url, entry in every_nth(sorted(annotations.items()), size)
    ]


def _load_scrapinghub(size: str) -> list[tuple[str, str, dict]]:
    truth = json.loads((SCRAPINGHUB / "ground-truth.json").read_text())
    return [
        (
            entry["url"],
            decode_html(gzip.decompress((SCRAPINGHUB / "html" / f"{key}.html.gz").read_bytes())),
            {**entry, "file": f"{key}.html.gz"},
        )
        for key, entry in every_nth(sorted(truth.items()), size)
    ]


def _load_fixture() -> list[tuple[str, str, dict]]:
    html = decode_html((FIXTURE / FIXTURE_PAGE["file"]).read_bytes())
    return [(FIXTURE_PAGE["url"], html, FIXTURE_PAGE)]


def _f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def score_snippets(outputs: list[str], pages) -> dict:
    tp = fn = fp = 0
    for output, (_url, _html, entry) in zip(outputs, pages, strict=True):
        text = _SPACE.sub(" ", output or "")
        for snippet in entry["with"]:
            found = bool(text) and _SPACE.sub(" ", snippet) in text
            tp += found
            fn += not found
        fp += sum(bool(text) and _SPACE.sub(" ", s) in text for s in entry["without"])
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return {"precision": precision, "recall": recall, "f1": _f1(precision, recall)}


def _shingles(text: str, n: int = 4) -> Counter:
    tokens = _TOKEN.findall(text or "")
    return Counter(
        " ".join(tokens[i : i + n]) for i in range(max(1, len(tokens) - n + 1)) if tokens[i : i + n]
    )


def score_shingles(outputs: list[str], pages) -> dict:
    tp = fp = fn = 0.0
    for output, (_url, _html, entry) in zip(outputs, pages, strict=True):
        truth, predicted = _shingles(entry["articleBody"]), _shingles(output)
        page_tp = sum((truth & predicted).values())
        page_fp = sum((predicted - truth).values())
        page_fn = sum((truth - predicted).values())
        total = page_tp + page_fp + page_fn
        if total:
            tp, fp, fn = tp + page_tp / total, fp + page_fp / total, fn + page_fn / total
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return {"precision": precision, "recall": recall, "f1": _f1(precision, recall)}


def halves_of(pages) -> tuple[list[int], list[int]]:
    """Page positions of the two halves: sorted by file name, even and odd places."""
    order = sorted(range(len(pages)), key=lambda i: pages[i][2]["file"])
    return order[0::2], order[1::2]


def _measure(extract, pages) -> tuple[list[str], float, int]:
    outputs, failures = [], 0
    started = time.perf_counter()
    for url, html, _entry in pages:
        try:
            outputs.append(extract(html, url))
        except Exception:  # an extractor that gives up on a page scores it as empty
            outputs.append("")
            failures += 1
    return outputs, time.perf_counter() - started, failures


def run(size: str = "full") -> dict:
    if SNIPPETS.is_dir() and SCRAPINGHUB.is_dir():
        sets = {
            "snippets": (_load_snippets(size), score_snippets),
            "scrapinghub": (_load_scrapinghub(size), score_shingles),
        }
    else:
        print(
            f"extraction: corpora not found under {CORPORA}; measuring one fixture page of "
            "the repository instead (no figure worth comparing)"
        )
        sets = {"fixture": (_load_fixture(), score_snippets)}
    result: dict = {"name": "extraction", "size": size, "sets": {}, "extractors": {}}
    for set_name, (pages, score) in sets.items():
        result["sets"][set_name] = {
            "pages": len(pages),
            "mb": round(sum(len(html.encode()) for _u, html, _e in pages) / 1e6, 1),
            "goal_f1": GOALS[set_name],
        }
        for name, extract in EXTRACTORS.items():
            outputs, seconds, failures = _measure(extract, pages)
            figures = score(outputs, pages)
            halves = [
                score([outputs[i] for i in half], [pages[i] for i in half])["f1"]
                for half in halves_of(pages)
            ]
            result["extractors"].setdefault(name, {})[set_name] = {
                "f1": round(figures["f1"], 4),
                "precision": round(figures["precision"], 4),
                "recall": round(figures["recall"], 4),
                "halves": [round(f1, 4) for f1 in halves],
                "docs_per_s": round(len(pages) / seconds, 1),
                "failed_pages": failures,
            }
    for figures in result["extractors"].values():
        figures["f1"] = min(figures[s]["f1"] for s in sets)
    result["chosen"], result["baseline"] = CHOSEN, BASELINE
    result["f1"] = result["extractors"][CHOSEN]["f1"]
    result["ratio"] = round(result["f1"] / result["extractors"][BASELINE]["f1"], 3)
    return result


def describe(result: dict) -> list[str]:
    lines = [f"extraction benchmark ({result['size']}) — F1 (precision / recall), docs/s"]
    for set_name, info in result["sets"].items():
        goal = f"goal F1 ≥ {info['goal_f1']}" if info["goal_f1"] else "no goal"
        lines.append(f"  {set_name}: {info['pages']} pages, {info['mb']} MB decoded HTML ({goal})")
        for name, figures in result["extractors"].items():
            f = figures[set_name]
            lines.append(
                f"    {name:<22} F1 {f['f1']:.4f} ({f['precision']:.4f} / {f['recall']:.4f}), "
                f"halves {f['halves'][0]:.4f} / {f['halves'][1]:.4f}, {f['docs_per_s']} docs/s"
                + (f", {f['failed_pages']} failed" if f["failed_pages"] else "")
            )
    lines.append(
        f"  f1 (lower of the two sets) — {result['chosen']}: {result['f1']}, "
        f"{result['baseline']}: {result['extractors'][result['baseline']]['f1']}; "
        f"ratio {result['ratio']}"
    )
    return lines
