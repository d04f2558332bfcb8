"""Rendering a page in a headless browser, for watched lists whose items exist only after
JavaScript runs (SPEC §4.6: an optional fetch method). Playwright's sync API drives the
system Chromium; `playwright install` is never used.

The browser never opens a socket of its own. The page is fetched first by our client, so a
refused or failing address never starts a browser and redirects are settled before Chromium
sees an address. Then every request the page makes is intercepted (`context.route("**/*")`)
and either fulfilled with a response fetched through `ingest.fetching.fetch.fetch` — the one client,
with its whole policy: resolve once and check every address, connect to the checked address,
re-check every redirect, size caps, per-host politeness, our User-Agent — or aborted. Checking
the URL with the policy and then letting Chromium connect was the alternative; it would leave a
DNS-rebinding window (Chromium resolves the name again, after our check) and skip the size caps
and politeness. Responses are fulfilled at the address the page asked for, never as redirects
(Chromium follows a redirect in a fulfilled response itself, past the handler). WebSockets
are closed unopened. As a second wall, Chromium is pointed at a proxy that does not exist
(loopback included), so a request that somehow escaped interception fails instead of
connecting.

What that costs: only GET requests work (the client sends no bodies), the page's own request
headers and cookies are not sent, and requests to one host are spaced by the per-host
interval. So only documents, scripts and XHR/fetch calls are fetched — images, fonts, media
and stylesheets cannot add items to a list and are aborted unfetched. Requests, bytes and
time are capped; at the deadline the browser's whole process group is killed (a page stuck in
a script loop would otherwise hold the worker: Playwright's `content()` and `close()` have no
timeout). The caller waits for the render thread only until shortly after the deadline, on a
daemon thread: a thread stuck in Playwright must never hold its caller, a signal's exception
(Ctrl-C, a test's timeout) or the interpreter's exit.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.utils.translation import gettext as _

from ingest.fetching import fetch

logger = logging.getLogger(__name__)

CHROMIUM_PATH = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Fail closed: anything not fulfilled by the route handler goes to a proxy that is not
    # there; "<-loopback>" removes Chromium's built-in bypass for localhost.
    "--proxy-server=http://127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>",
]
DEADLINE_SECONDS = 45.0
# After "load", wait this long at most for the page's own requests to settle.
SETTLE_SECONDS = 5.0
# Past the deadline the browser is killed; the caller waits this much longer for the render
# thread to unwind (the driver's exit), then gives up on it.
UNWIND_SECONDS = 10.0
MAX_REQUESTS = 40
MAX_TOTAL_BYTES = 20 * 1024 * 1024
MAX_CONCURRENT_BROWSERS = 2
FETCHED_RESOURCE_TYPES = {"document", "script", "xhr", "fetch"}
DOCUMENT_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"
# Response headers passed to the page: the type, and CORS so a script's call to its own API
# host still succeeds. Cookies, caching and security headers are the client's business.
PASSED_HEADERS = {
    "content-type",
    "access-control-allow-origin",
    "access-control-allow-credentials",
    "access-control-allow-headers",
    "access-control-allow-methods",
    "access-control-expose-headers",
}

_browser_slots = threading.BoundedSemaphore(MAX_CONCURRENT_BROWSERS)


class BrowserUnavailable(fetch.FetchError):
    code = "browser_unavailable"
    permanent = True


class BrowserFailed(fetch.FetchError):
    code = "browser_failed"


@dataclass
class RenderedPage:
    url: str  # where the page ended up, after redirects
    html: bytes  # the rendered DOM, UTF-8
    fetched: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)  # (url, why)
    skipped: int = 0  # images, fonts, media, stylesheets: not fetched


def available() -> bool:
    return Path(CHROMIUM_PATH).is_file() and os.access(CHROMIUM_PATH, os.X_OK)


def render_page(url: str) -> RenderedPage:
    """Load `url` in headless Chromium and return the DOM after its scripts ran.

    Raises fetch.FetchError subclasses like `fetch.fetch` does: FetchRefused when the page's
    own address is refused, HTTPStatusError when it answers an error, FetchTimeout past the
    deadline, BrowserUnavailable without Chromium, BrowserFailed when the browser breaks."""
    if not available():
        raise BrowserUnavailable(
            _("Browser fetching is not available on this server (no Chromium at %(path)s).")
            % {"path": CHROMIUM_PATH},
            url=url,
        )
    deadline = time.monotonic() + DEADLINE_SECONDS
    # The page itself first, by our client (see the module's docstring).
    document = fetch.fetch(url, max_bytes=fetch.PAGE_MAX_BYTES, accept=DOCUMENT_ACCEPT)
    if not _browser_slots.acquire(timeout=max(0.0, deadline - time.monotonic())):
        raise fetch.FetchTimeout(
            _("Too many pages are being rendered right now; try again later."), url=url
        )
    # A thread of its own: Playwright's sync API refuses to start in a thread that already runs
    # an asyncio loop (an ASGI worker, or another Playwright session in that thread). A daemon
    # thread, and never joined: a `with ThreadPoolExecutor()` here joined it on the way out
    # (and again at interpreter exit), so a render stuck in Playwright held its caller through
    # any exception — a test's timeout, Ctrl-C — forever.
    outcome: Future[RenderedPage] = Future()
    outcome.set_running_or_notify_cancel()

    def run() -> None:
        try:
            outcome.set_result(_render(document, deadline))
        except BaseException as exc:
            outcome.set_exception(exc)
        finally:
            _browser_slots.release()

    threading.Thread(target=run, name=f"browser {url}", daemon=True).start()
    try:
        return outcome.result(timeout=max(0.0, deadline - time.monotonic()) + UNWIND_SECONDS)
    except FutureTimeout:
        # The watchdog has killed the browser by now; what is left is stuck in the driver.
        logger.error("the browser thread for %s did not end after its deadline", url)
        raise fetch.FetchTimeout(
            _("The page did not finish rendering within %(seconds)d s.")
            % {"seconds": DEADLINE_SECONDS},
            url=url,
        ) from None


class _Watchdog:
    """Kills the browser at the deadline: its process group (Playwright starts Chromium as a
    group leader, with its zygotes and renderers in the group), or the process alone if it
    leads none. It stays armed while the browser closes — a close can wait forever on a
    renderer stuck in a script. Cancelled under a lock, so it never fires after the browser
    was closed normally (and its process id reused)."""

    def __init__(self, pid: int | None, seconds: float):
        self._pid = pid
        self._lock = threading.Lock()
        self._done = False
        self.fired = False
        self._timer = threading.Timer(max(0.0, seconds), self._kill)
        self._timer.daemon = True
        if pid is not None:
            self._timer.start()

    def _kill(self) -> None:
        with self._lock:
            if self._done:
                return
            self.fired = True
            with contextlib.suppress(ProcessLookupError):
                if os.getpgid(self._pid) == self._pid:
                    os.killpg(self._pid, signal.SIGKILL)
                else:
                    os.kill(self._pid, signal.SIGKILL)

    def cancel(self) -> None:
        with self._lock:
            self._done = True
        self._timer.cancel()


def _browser_pid(browser) -> int | None:
    try:
        info = browser.new_browser_cdp_session().send("SystemInfo.getProcessInfo")
    except Exception:  # without a pid the deadline is only a soft one
        logger.warning("could not read the browser's process id", exc_info=True)
        return None
    return next((p["id"] for p in info.get("processInfo", []) if p.get("type") == "browser"), None)


class _Interceptor:
    """The route handler: every request the page makes is fetched by our client or aborted."""

    def __init__(self, document: fetch.FetchResult, deadline: float):
        self.deadline = deadline
        self.page = None
        self.requests = 1
        self.total_bytes = len(document.content)
        self.preloaded = {document.url: document}
        self.rendered = RenderedPage(url=document.url, html=b"", fetched=[document.url])
        # Our fetch runs on a helper thread so waiting for it ends at the deadline; a fetch
        # left behind finishes within the client's own 30 s deadline.
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="browser-fetch")

    def _refuse(self, route, url: str, why: str, *, error: str = "blockedbyclient") -> None:
        self.rendered.refused.append((url, why))
        route.abort(error)

    def _fetch(self, url: str, *, accept: str) -> fetch.FetchResult:
        budget = min(fetch.PAGE_MAX_BYTES, MAX_TOTAL_BYTES - self.total_bytes)
        future = self.pool.submit(fetch.fetch, url, max_bytes=budget, accept=accept)
        try:
            return future.result(timeout=max(0.0, self.deadline - time.monotonic()))
        except FutureTimeout:
            raise fetch.FetchTimeout(
                _("The page did not finish loading within %(seconds)d s.")
                % {"seconds": DEADLINE_SECONDS},
                url=url,
            ) from None

    def handle(self, route, request) -> None:
        url = request.url
        main_document = (
            request.resource_type == "document"
            and request.frame.parent_frame is None
            and request.frame.page == self.page
        )
        if request.resource_type not in FETCHED_RESOURCE_TYPES or (
            request.resource_type == "document" and not main_document
        ):
            self.rendered.skipped += 1  # images, fonts, frames, popups: nothing for a list
            route.abort("blockedbyclient")
            return
        if request.method != "GET":
            self._refuse(route, url, "only GET requests are made")
            return
        preloaded = self.preloaded.pop(url, None) if main_document else None
        if preloaded is not None:
            self._fulfil(route, preloaded)
            return
        if time.monotonic() >= self.deadline:
            self._refuse(route, url, "the deadline has passed", error="timedout")
            return
        if self.requests >= MAX_REQUESTS or self.total_bytes >= MAX_TOTAL_BYTES:
            self._refuse(route, url, "the page made too many requests")
            return
        self.requests += 1
        accept = DOCUMENT_ACCEPT if request.resource_type == "document" else "*/*"
        try:
            result = self._fetch(url, accept=accept)
        except fetch.HTTPStatusError as exc:
            # The page's script sees the error status, as it would without us.
            route.fulfill(status=exc.status, body=b"")
            return
        except fetch.FetchError as exc:
            self._refuse(route, url, exc.message, error="failed")
            return
        self.total_bytes += len(result.content)
        self.rendered.fetched.append(url)
        # Our client followed any redirects, checking every hop; the response is served at the
        # address the page asked for.
        self._fulfil(route, result)

    def _fulfil(self, route, result: fetch.FetchResult) -> None:
        headers = {k: v for k, v in result.headers.items() if k in PASSED_HEADERS}
        route.fulfill(status=result.status, headers=headers, body=result.content)


def _render(document: fetch.FetchResult, deadline: float) -> RenderedPage:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    def ms_left() -> float:
        return max(1.0, (deadline - time.monotonic()) * 1000)

    def timed_out() -> fetch.FetchTimeout:
        return fetch.FetchTimeout(
            _("The page did not finish rendering within %(seconds)d s.")
            % {"seconds": DEADLINE_SECONDS},
            url=url,
        )

    url = document.url
    interceptor = _Interceptor(document, deadline)
    watchdog = None
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM_PATH,
                headless=True,
                args=CHROMIUM_ARGS,
                timeout=ms_left(),
            )
            watchdog = _Watchdog(_browser_pid(browser), deadline - time.monotonic())
            try:
                context = browser.new_context(
                    service_workers="block",
                    accept_downloads=False,
                    user_agent=settings.FETCH_USER_AGENT,
                )
                context.route("**/*", interceptor.handle)
                context.route_web_socket("**/*", lambda socket: socket.close())
                page = context.new_page()
                interceptor.page = page
                page.set_default_timeout(ms_left())
                page.goto(url, wait_until="load", timeout=ms_left())
                # A page that keeps polling is read as it stands.
                with contextlib.suppress(PlaywrightTimeout):
                    page.wait_for_load_state(
                        "networkidle", timeout=min(SETTLE_SECONDS * 1000, ms_left())
                    )
                html = page.content().encode("utf-8")
                interceptor.rendered.url = page.url
            finally:
                with contextlib.suppress(PlaywrightError):  # gone if the watchdog fired
                    browser.close()
                watchdog.cancel()
    except PlaywrightTimeout:
        raise timed_out() from None
    except PlaywrightError as exc:
        if watchdog is not None and watchdog.fired:
            raise timed_out() from None
        raise BrowserFailed(
            _("The browser could not render the page: %(error)s")
            % {"error": str(exc).splitlines()[0][:300]},
            url=url,
        ) from None
    finally:
        interceptor.pool.shutdown(wait=False, cancel_futures=True)
    if len(html) > fetch.PAGE_MAX_BYTES:
        raise fetch.ResponseTooLarge(
            _("The rendered page is larger than the %(limit)s-byte limit.")
            % {"limit": f"{fetch.PAGE_MAX_BYTES:,}"},
            url=url,
        )
    interceptor.rendered.html = html
    return interceptor.rendered
