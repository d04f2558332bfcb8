"""In a browser at phone width: a text watch is edited (a refused selector is said next to its
field, in view and focused), paused, resumed and deleted after a confirmation; axe-checked."""

from __future__ import annotations

import pytest
from django.utils import timezone

from digests.textwatch import service
from digests.textwatch.models import TextWatch
from tests.browser.conftest import PHONE, no_horizontal_scroll, serious_accessibility_violations
from tests.browser.test_refusals import in_view_and_focused, log_in
from tests.conftest import make_user
from tests.watches.test_text_watches import CSS
from tests.watches.test_text_watches import page as shop

pytestmark = pytest.mark.django_db(transaction=True)


def test_edit_pause_resume_and_delete_a_watch_at_390(live_server, page, fixture_server):
    email = "watcher@example.com"
    user = make_user(email)
    url = fixture_server.add("/shop", shop(), Content_Type=CSS)
    watch = service.add_watch(
        user,
        {"url": url, "name": "Shop", "selector_kind": "css", "selector": "#price"},
        now=timezone.now(),
    )
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, email)
    page.goto(f"{live_server.url}/watches/{watch.pk}/")
    assert no_horizontal_scroll(page)
    violations = serious_accessibility_violations(page)
    assert violations == [], "\n".join(violations)

    # Edit: a selector that is not CSS is refused next to its field, in view and focused.
    page.locator(f"main a[href='/watches/{watch.pk}/edit/']").click()
    page.fill("#id_watch-selector", "p[[")
    page.locator("main").get_by_role("button", name="Save changes", exact=True).click()
    page.wait_for_load_state("load")
    assert "not valid CSS" in page.locator("#field-watch-selector p.error").inner_text()
    in_view_and_focused(page, "id_watch-selector")
    violations = serious_accessibility_violations(page)
    assert violations == [], "\n".join(violations)
    watch.refresh_from_db()
    assert watch.selector == "#price"

    page.fill("#id_watch-selector", ".news")
    page.locator("main").get_by_role("button", name="Save changes", exact=True).click()
    page.wait_for_url(f"{live_server.url}/watches/{watch.pk}/")
    assert "the new starting point" in page.locator("main").inner_text()
    watch.refresh_from_db()
    assert watch.selector == ".news"

    page.locator("main").get_by_role("button", name="Pause", exact=True).click()
    page.locator("main").get_by_role("button", name="Resume", exact=True).wait_for()
    watch.refresh_from_db()
    assert watch.status == "paused"
    page.locator("main").get_by_role("button", name="Resume", exact=True).click()
    page.locator("main").get_by_role("button", name="Pause", exact=True).wait_for()

    # Delete asks first: dismissed, nothing happens; accepted, the watch is gone. The confirm
    # comes from a deferred script: a click made before the page's load event would submit
    # unasked (it did once on a busy CI).
    page.wait_for_load_state("load")
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.locator("main").get_by_role("button", name="Delete", exact=True).click()
    assert TextWatch.objects.filter(pk=watch.pk).exists()
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("main").get_by_role("button", name="Delete", exact=True).click()
    page.wait_for_url(f"{live_server.url}/watches/")
    assert "stay in your Inbox" in page.locator("main").inner_text()
    assert not TextWatch.objects.exists()
    assert no_horizontal_scroll(page)
