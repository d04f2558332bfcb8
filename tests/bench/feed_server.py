"""The loopback feed server of the `refresh` benchmark, run in its own process so that its
work does not compete with the measured process for the GIL.

Feed n lives at /fNNNN.xml. Every response waits `latency` seconds first. Every
`changing_every`-th feed publishes a new version on each request (2 new items in a window of
10); the others answer 304 to a request carrying their ETag. Imports nothing from Django: a
spawned child must be able to import it before any Django set-up.
"""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler

from tests.loopback import LoopbackServer

ITEMS_PER_FEED = 10
NEW_ITEMS_PER_VERSION = 2
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


def feed_body(number: int, version: int) -> bytes:
    first = version * NEW_ITEMS_PER_VERSION
    items = "".join(
        f"<item><title>Feed {number} story {k}: notes on release {k}</title>"
        f"<link>https://f{number:04d}.example.org/posts/{k}</link>"
        f"<description>What changed in release {k} of project {number}, and why it "
        f"matters to the people who run it in production.</description>"
        f"<pubDate>{format_datetime(EPOCH + timedelta(hours=k))}</pubDate>"
        "</item>"
        for k in range(first, first + ITEMS_PER_FEED)
    )
    return (
        '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel>'
        f"<title>Bench feed {number}</title><link>https://f{number:04d}.example.org/</link>"
        f"{items}</channel></rss>"
    ).encode()


def serve(ready, stop, latency: float, changing_every: int) -> None:
    """Serve until `stop` is set; put the port, then the request statistics, on `ready`."""
    versions: dict[int, int] = {}
    stats = {"requests": 0, "200": 0, "304": 0}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            time.sleep(latency)
            number = int(self.path.strip("/").removeprefix("f").removesuffix(".xml"))
            changing = number % changing_every == 0
            with lock:
                stats["requests"] += 1
                version = versions.get(number, 0)
                etag = f'"{number}-{version}"'
                if self.headers.get("If-None-Match") == etag and not changing:
                    stats["304"] += 1
                    status = 304
                else:
                    if changing and number in versions:
                        version += 1
                        etag = f'"{number}-{version}"'
                    versions[number] = version
                    stats["200"] += 1
                    status = 200
            body = b"" if status == 304 else feed_body(number, version)
            self.send_response(status)
            self.send_header("ETag", etag)
            self.send_header("Content-Type", "application/rss+xml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    # The default backlog of 5 drops connections under a burst of fetches.
    with LoopbackServer(Handler, request_queue_size=256) as server:
        ready.put(server.port)
        stop.wait()
    ready.put(stats)
