"""An HTTP server on 127.0.0.1 for tests and benchmarks: the fakes (feeds, pages, APIs) that the
code under test reaches over real sockets.

`LoopbackServer(Handler)` binds a free port at once (so `port` and `url()` are known before it
serves), serves from `start()` (or `with`) in a daemon thread, and `stop()` shuts it down and
closes its socket — on leaving a `with` block too, when the body raised. `url(path)` spells the
host as the caller chose: "localhost" by default, because the fetch client's test-only loopback
allowance (FETCH_TEST_ONLY_LOOPBACK_HOSTS) is keyed to that name, not to the address.

Imports nothing from Django: a spawned child (the `refresh` benchmark's feed server) imports it
before any Django set-up.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class LoopbackServer:
    """A ThreadingHTTPServer on 127.0.0.1:<free port> answering with `handler`."""

    def __init__(
        self,
        handler: type[BaseHTTPRequestHandler],
        *,
        host: str = "localhost",
        request_queue_size: int = ThreadingHTTPServer.request_queue_size,
    ):
        self.host = host
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler, bind_and_activate=False)
        # The backlog is fixed by listen(), so it has to be set between bind and activate.
        self.httpd.request_queue_size = request_queue_size
        try:
            self.httpd.server_bind()
            self.httpd.server_activate()
        except BaseException:
            self.httpd.server_close()
            raise
        self.port = self.httpd.server_address[1]
        # A 50 ms shutdown poll (not the default 500 ms) keeps the many tests using it fast.
        self._thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def url(self, path: str = "") -> str:
        return f"http://{self.host}:{self.port}{path}"

    def start(self) -> LoopbackServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        # shutdown() waits for serve_forever() to acknowledge: never started, it would hang.
        if self._thread.ident is not None:
            self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> LoopbackServer:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()
