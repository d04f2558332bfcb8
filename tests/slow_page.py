"""One HTML page on loopback that answers late: a text watch's check held by a slow page (the
textwatch benchmark's tick) or caught mid-way and killed (the fault scenarios)."""

from __future__ import annotations

import contextlib
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

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

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://localhost:{self.httpd.server_address[1]}/page"

    def __enter__(self) -> SlowPage:
        threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
