"""One HTML page on loopback that answers late: a text watch's check held by a slow page (the
textwatch benchmark's tick) or caught mid-way and killed (the fault scenarios)."""

from __future__ import annotations

import contextlib
import time
from http.server import BaseHTTPRequestHandler

from tests.loopback import LoopbackServer

PRICE_PAGE = "<html><body><p id='price'>{text}</p></body></html>"


class SlowPage:
    """The page at http://localhost:<port>/page: `template` with the `text` the test sets,
    answered `latency` seconds late; counts the requests for it (any other path, robots.txt
    included, is a quick 404). A context manager: serves from `__enter__` to `__exit__`."""

    def __init__(self, text: str, *, latency: float = 0.0, template: str = PRICE_PAGE):
        self.text = text
        self.latency = latency
        self.template = template
        self.requests = 0
        page = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                if self.path != "/page":
                    self.send_error(404)
                    return
                page.requests += 1
                time.sleep(page.latency)
                body = page.template.format(text=page.text).encode()
                # The worker that asked may have been killed while it waited: nobody to answer.
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.loopback = LoopbackServer(Handler)
        self.url = self.loopback.url("/page")

    def __enter__(self) -> SlowPage:
        self.loopback.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.loopback.stop()
