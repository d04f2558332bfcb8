"""`hostile`: feeds built to make the parse slow, against ordinary feeds of the same size.

Each hostile feed holds one item whose markup nests N elements deep — escaped HTML in an RSS
description, XHTML elements in Atom content, and `<b>` tags with distinct attributes (which
defeat the HTML parser's own limit on reopened formatting elements). Before ingest.text.sanitize
flattened markup deeper than MAX_NESTING_DEPTH, nh3's parser took time quadratic in N: 80,000
nested elements took 26 s, 160,000 about four minutes. The baseline is an ordinary feed of about
the same byte size (items of paragraphs and links), parsed in the same process.
ratio = slowest hostile parse ÷ its same-size ordinary parse.

Sizes (tests/bench/sizes.py): full = N of 80,000 and 160,000 (the largest stays under the
5 MB feed cap); small = 40,000; smoke = 10,000. Check: every hostile parse of the full size
under 10 s (a loaded 2-core machine).
"""

from __future__ import annotations

import html
import time

from ingest.feeds.parse import parse_feed
from ingest.fetching.fetch import FEED_MAX_BYTES
from tests.bench.sizes import checked

DEPTHS = {"smoke": [10_000], "small": [40_000], "full": [80_000, 160_000]}
LIMIT_SECONDS = 10.0


def _rss(descriptions: list[str]) -> bytes:
    items = "".join(
        f"<item><title>Item {n}</title><link>https://bench.example/{n}</link>"
        f"<description>{html.escape(body)}</description></item>"
        for n, body in enumerate(descriptions)
    )
    return (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>bench</title>'
        f"<link>https://bench.example/</link>{items}</channel></rss>"
    ).encode()


def _atom_xhtml(body: str) -> bytes:
    return (
        '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>bench</title>'
        '<entry><title>deep</title><link href="https://bench.example/deep"/>'
        '<id>https://bench.example/deep</id><content type="xhtml">'
        f'<div xmlns="http://www.w3.org/1999/xhtml">{body}</div></content></entry></feed>'
    ).encode()


def hostile_feeds(depth: int) -> dict[str, bytes]:
    return {
        "rss-nested-div": _rss(["<div>" * depth + "deep" + "</div>" * depth]),
        "atom-xhtml-div": _atom_xhtml("<div>" * depth + "deep" + "</div>" * depth),
        "rss-formatting": _rss(
            ["".join(f"<b id={n}>" for n in range(depth)) + "<p>deep</p>" * 100]
        ),
    }


def ordinary_feed(size_bytes: int) -> bytes:
    paragraph = (
        "<p>An ordinary paragraph with <a href='https://bench.example/x'>a link</a> and "
        "<em>some emphasis</em>, as feeds carry them.</p>"
    )
    per_item = paragraph * 20
    count = max(1, size_bytes // len(html.escape(per_item)))
    return _rss([per_item] * min(count, 1500))


def _timed_parse(document: bytes) -> float:
    started = time.perf_counter()
    parse_feed(document, base_url="https://bench.example/")
    return time.perf_counter() - started


def run(size: str = "full") -> dict:
    rows = []
    for depth in DEPTHS[checked(size)]:
        for name, document in hostile_feeds(depth).items():
            assert len(document) < FEED_MAX_BYTES, (name, len(document))
            seconds = _timed_parse(document)
            baseline = _timed_parse(ordinary_feed(len(document)))
            rows.append(
                {
                    "feed": name,
                    "depth": depth,
                    "kb": len(document) // 1024,
                    "seconds": round(seconds, 3),
                    "ordinary_seconds": round(baseline, 3),
                }
            )
    worst = max(rows, key=lambda row: row["seconds"])
    return {
        "size": size,
        "rows": rows,
        "ratio": round(worst["seconds"] / max(worst["ordinary_seconds"], 1e-6), 2),
        "checks": {
            f"every hostile parse under {LIMIT_SECONDS:.0f} s": all(
                row["seconds"] < LIMIT_SECONDS for row in rows
            )
        },
    }


def describe(result: dict) -> list[str]:
    lines = [f"hostile benchmark ({result['size']}): one deeply nested item per feed"]
    for row in result["rows"]:
        lines.append(
            f"  {row['feed']:<16} depth {row['depth']:>7,} {row['kb']:>6,} KB: "
            f"{row['seconds']} s (ordinary feed of that size: {row['ordinary_seconds']} s)"
        )
    lines.append(f"  ratio (slowest hostile ÷ same-size ordinary): {result['ratio']}")
    return lines
