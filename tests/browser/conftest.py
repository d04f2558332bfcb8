"""Browser tests: the system Chromium driven by Playwright's sync API against Django's
live_server. One browser for the whole session; each test gets a fresh context (cookies,
viewport, JavaScript on or off). Never downloads a browser: without /usr/bin/chromium the
tests are skipped, saying so (tests.conftest.chromium_missing).

Screenshots go to tests/browser/screenshots/ (git-ignored), at 1280 and 390 px wide.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from ingest.fetching.browser import CHROMIUM_ARGS, CHROMIUM_PATH
from tests.conftest import chromium_missing

HERE = Path(__file__).parent
SCREENSHOTS = HERE / "screenshots"
AXE = HERE / "vendor" / "axe.min.js"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# The product's own browser flags, minus the dead proxy that keeps page fetches inside the
# safe client (the tests browse the live server directly).
LAUNCH_ARGS = [arg for arg in CHROMIUM_ARGS if not arg.startswith("--proxy")]


@pytest.fixture(scope="session")
def browser():
    if reason := chromium_missing():
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread; the test's own ORM calls are
    # plain synchronous code all the same, so Django's async guard is told to stand aside.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    chromium = playwright.chromium.launch(
        executable_path=CHROMIUM_PATH, headless=True, args=LAUNCH_ARGS
    )
    yield chromium
    chromium.close()
    playwright.stop()
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def new_page(browser, *, javascript: bool = True, timezone: str = "Europe/Berlin"):
    context = browser.new_context(
        viewport=DESKTOP,
        java_script_enabled=javascript,
        timezone_id=timezone,
        locale="en-GB",
    )
    context.set_default_timeout(10_000)
    # Item links point at made-up sites: only the live server may be reached.
    context.route(re.compile(r"^(?!https?://(localhost|127\.0\.0\.1)[:/])"), _refuse)
    return context.new_page()


def _refuse(route) -> None:
    route.abort()


@pytest.fixture
def page(browser):
    page = new_page(browser)
    yield page
    page.context.close()


def screenshot(page, name: str) -> None:
    """The page at desktop and at phone width, full length."""
    SCREENSHOTS.mkdir(exist_ok=True)
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{size['width']}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


_AXE_SOURCE: list[str] = []


def serious_accessibility_violations(page) -> list[str]:
    """axe-core's serious and critical violations on the current page, one line each."""
    if not _AXE_SOURCE:
        _AXE_SOURCE.append(AXE.read_text(encoding="utf-8"))
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated, not added as a <script> element: the page's Content-Security-Policy
        # refuses inline scripts (config/csp.py), and Playwright's evaluation is not one.
        page.evaluate(_AXE_SOURCE[0])
    violations = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(node["target"][0] for node in v["nodes"][:3])
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


def no_horizontal_scroll(page) -> bool:
    return page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"
    )
