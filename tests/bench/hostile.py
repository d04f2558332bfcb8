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

Poisoned feeds in a batch: JSON Feeds whose titles, item titles or authors carry a NUL or a
lone UTF-16 surrogate (text no database stores; before ingest/pool/boundary.py they raised in
storage and killed the batch's writer threads), mixed with good feeds in one `refresh_many()`
batch, served by a loopback server in this process, one host name per feed. Sizes: full = 16
poisoned + 240 good; small = 8 + 96; smoke = 4 + 48. The baseline is a batch of as many good
feeds only, in the same process. Check: every good feed stored in the same cycle (100 %), and
every poisoned one too (cleaned), or recorded as its own error.
"""

from __future__ import annotations

import html
import json
import socket
import time
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler

from django.test import override_settings

from ingest.feeds.parse import parse_feed
from ingest.fetching.fetch import FEED_MAX_BYTES
from tests.bench.sizes import checked
from tests.loopback import LoopbackServer

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


POISONED = {"smoke": (4, 48), "small": (8, 96), "full": (16, 240)}
POISONS = ("title\x00nul", "title\ud800surrogate", "item\x00nul", "author\udfffsurrogate")
POISON_HOST_SUFFIX = ".poison.bench.test"


def _json_feed(name: str, poison: str = "") -> bytes:
    title = poison if poison.startswith("title") else name
    item_title = poison if poison.startswith("item") else f"Story of {name}"
    author = poison if poison.startswith("author") else "Bea"
    item = {
        "id": f"{name}-1",
        "url": f"https://{name}.example.org/1",
        "title": item_title,
        "content_text": "Some words about it.",
        "authors": [{"name": author}],
    }
    return json.dumps(
        {"version": "https://jsonfeed.org/version/1.1", "title": title, "items": [item]}
    ).encode()


def _serve(documents: dict[str, bytes]) -> LoopbackServer:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            body = documents.get(self.path, b"")
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "application/feed+json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    return LoopbackServer(Handler).start()


def _batch(prefix: str, poisoned: int, good: int, port: int, now: datetime) -> dict:
    from ingest.models import Source
    from ingest.refresh.pipeline import refresh_many

    names = [(f"{prefix}bad{n}", POISONS[n % len(POISONS)]) for n in range(poisoned)]
    names += [(f"{prefix}good{n}", "") for n in range(good)]
    sources = {}
    for name, poison in names:
        url = f"http://{name}{POISON_HOST_SUFFIX}:{port}/{name}.json"
        _DOCUMENTS[f"/{name}.json"] = _json_feed(name, poison)
        sources[name] = Source.objects.create(
            type=Source.Type.FEED,
            config={"url": url},
            config_hash=f"bench-poison-{name}",
            url=url,
            next_refresh_at=now,
        ).pk
    started = time.perf_counter()
    outcomes = refresh_many(list(sources.values()), now=now)
    seconds = time.perf_counter() - started
    good_ids = [pk for name, pk in sources.items() if "good" in name]
    stored = Source.objects.filter(pk__in=good_ids, last_refresh_at=now, consecutive_failures=0)
    return {
        "seconds": seconds,
        "outcomes": len(outcomes),
        "good_stored": stored.count(),
        "failed": sum(not o.ok for o in outcomes),
        "hosts": [f"{name}{POISON_HOST_SUFFIX}" for name, _ in names],
    }


_DOCUMENTS: dict[str, bytes] = {}


def _poisoned_batch(size: str) -> dict:
    poisoned, good = POISONED[size]
    real_getaddrinfo = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if isinstance(host, str) and host.endswith(POISON_HOST_SUFFIX):
            host = "127.0.0.1"
        return real_getaddrinfo(host, port, *args, **kwargs)

    socket.getaddrinfo = getaddrinfo
    server = _serve(_DOCUMENTS)
    port = server.port
    hosts = [
        f"{p}{k}{n}{POISON_HOST_SUFFIX}"
        for p in ("x", "y")
        for k in ("bad", "good")
        for n in range(poisoned + good)
    ]
    now = datetime.now(UTC)
    try:
        with override_settings(FETCH_TEST_ONLY_LOOPBACK_HOSTS=tuple(hosts)):
            clean = _batch("x", 0, poisoned + good, port, now)
            mixed = _batch("y", poisoned, good, port, now)
    finally:
        socket.getaddrinfo = real_getaddrinfo
        server.stop()
    return {
        "poisoned": poisoned,
        "good": good,
        "seconds": round(mixed["seconds"], 3),
        "clean_seconds": round(clean["seconds"], 3),
        "good_stored_share": round(mixed["good_stored"] / good, 4),
        "poisoned_failed": mixed["failed"],
        "outcomes": mixed["outcomes"],
        "ratio": round(mixed["seconds"] / max(clean["seconds"], 1e-6), 2),
    }


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
    batch = _poisoned_batch(checked(size))
    return {
        "size": size,
        "rows": rows,
        "ratio": round(worst["seconds"] / max(worst["ordinary_seconds"], 1e-6), 2),
        "poisoned_batch": batch,
        "checks": {
            f"every hostile parse under {LIMIT_SECONDS:.0f} s": all(
                row["seconds"] < LIMIT_SECONDS for row in rows
            ),
            "every good feed stored in the poisoned batch's cycle": batch["good_stored_share"]
            == 1.0,
            "every source of the poisoned batch has its outcome": batch["outcomes"]
            == batch["poisoned"] + batch["good"],
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
    batch = result["poisoned_batch"]
    lines.append(
        f"  poisoned batch: {batch['poisoned']} poisoned + {batch['good']} good feeds in one "
        f"refresh_many(): {batch['seconds']} s (all good: {batch['clean_seconds']} s, "
        f"ratio {batch['ratio']}); good feeds stored in the same cycle "
        f"{batch['good_stored_share']:.0%}, poisoned recorded as errors {batch['poisoned_failed']}"
    )
    return lines
