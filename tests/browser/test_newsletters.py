"""In a browser: a reader makes a newsletter address, copies it with the Copy button, and the
Newsletters page reads well and is accessible at both widths."""

from __future__ import annotations

import pytest

from ingest.models import NewsletterAddress
from tests.browser.conftest import (
    PHONE,
    no_horizontal_scroll,
    screenshot,
    serious_accessibility_violations,
)
from tests.browser.test_billing import log_in
from tests.conftest import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_new_address_is_copied_with_one_click(live_server, page):
    make_user("nora@example.com")
    url = live_server.url
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
    log_in(page, url, "nora@example.com")

    page.goto(f"{url}/sources/")
    page.get_by_role("link", name="Newsletters by email").click()
    page.fill("input[name=label]", "Query Weekly")
    page.get_by_role("button", name="New address").click()
    address = NewsletterAddress.objects.get(user__email="nora@example.com").address
    assert address in page.locator(".messages, main").first.inner_text()

    # The copy script is deferred: on a busy machine a click right after the page commits can
    # come before its listener is there.
    page.wait_for_load_state("load")
    page.get_by_role("button", name="Copy").click()
    page.wait_for_function("() => document.querySelector('[data-copied]') !== null")
    assert page.evaluate("() => navigator.clipboard.readText()") == address
    assert page.get_by_role("button", name="Copied").is_visible()

    assert serious_accessibility_violations(page) == []
    page.set_viewport_size(PHONE)
    assert no_horizontal_scroll(page)
    screenshot(page, "newsletters")
