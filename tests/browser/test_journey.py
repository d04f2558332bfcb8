"""A new user's first minutes in a real browser: sign up, a subscription from a template, run
it now, read the Inbox (instant actions, keyboard, filters), the run page, API tokens, and the
interface in Chinese; then the same Inbox with JavaScript off. axe-core checks the main pages
for serious and critical accessibility problems; screenshots at 1280 and 390 px go to
tests/browser/screenshots/.

"Run now" enqueues a django-q2 task; the test settings run django-q2 in sync mode, so the run
executes inside the live server's request, exactly as the worker would execute it.
"""

from __future__ import annotations

import re
import time

import pytest
from django.utils import timezone

from digests.models import Subscription
from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from inbox.models import UserContentState
from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    new_page,
    no_horizontal_scroll,
    screenshot,
    serious_accessibility_violations,
)
from tests.conftest import make_user
from tests.factories import add_item

pytestmark = pytest.mark.django_db(transaction=True)

AI_NEWS = [
    ("LLM agents learn to ask before acting", "A tool-permission pattern for agents."),
    ("Serving a 70B language model for less", "Batching beats hardware for inference cost."),
    ("Machine learning evals that catch contamination", "Overlap checks for AI benchmarks."),
    ("Quantizing an LLM to 4 bits on a laptop", "Small models, local inference."),
]

# A word only that title has, for the search filter.
SEARCH_WORDS = {title: title.split()[-1] for title, _summary in AI_NEWS}


def seed_pool() -> None:
    now = timezone.now()
    for n, (title, description) in enumerate(AI_NEWS):
        add_item(title, now=now, age_hours=1 + n, description=description)


def count(page, selector: str) -> int:
    return page.locator(selector).count()


def unread_badge(page) -> str:
    return page.locator("#nav-unread [aria-hidden]").inner_text()


def saved_badge(page) -> str:
    return page.locator("#nav-saved [aria-hidden]").inner_text()


def assert_accessible(page) -> None:
    violations = serious_accessibility_violations(page)
    assert violations == [], "\n".join(violations)


def test_sign_up_subscribe_read_and_switch_to_chinese(live_server, page):
    seed_pool()
    url = live_server.url

    # Sign up; the browser's time zone (Europe/Berlin) comes along.
    page.goto(f"{url}/accounts/signup/")
    page.fill("#id_email", "dana@example.com")
    page.fill("#id_password", "correct horse battery staple")
    started = time.monotonic()
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{url}/subscriptions/new/")
    assert_accessible(page)
    screenshot(page, "subscription-new")

    # "30-second creation": every click from here until a brief is in the Inbox is counted.
    interactions = 0
    page.get_by_role("button", name=re.compile(r"^Use this template\s*: AI Daily$")).click()
    interactions += 1
    page.wait_for_url(re.compile(r"/subscriptions/\d+/$"))
    subscription = Subscription.objects.get(owner__email="dana@example.com")
    assert (subscription.name, subscription.timezone) == ("AI Daily", "Europe/Berlin")
    assert subscription.next_run_at is not None
    page.get_by_role("button", name="Run now").click()
    interactions += 1
    page.wait_for_url(re.compile(r"/subscriptions/\d+/$"))
    assert page.locator(".badge.status-succeeded").count() == 1
    assert_accessible(page)
    screenshot(page, "subscription-detail")
    page.locator('nav.nav a[href="/inbox/"]').click()
    interactions += 1
    page.wait_for_url(f"{url}/inbox/")
    items = page.locator("[data-item]")
    assert items.count() == len(AI_NEWS)
    assert interactions <= 3
    assert time.monotonic() - started < 30
    assert unread_badge(page) == str(len(AI_NEWS))
    assert_accessible(page)
    screenshot(page, "inbox")

    # Actions are instant: no navigation (a marker on window survives), nothing moves.
    page.evaluate("() => { window.__samePage = true; }")
    first, second, third = items.nth(0), items.nth(1), items.nth(2)
    third_title = third.inner_text()
    second_box = second.bounding_box()
    first_height = first.bounding_box()["height"]
    first.locator('button[data-action="read"]').click()
    page.wait_for_selector(f"#{first.get_attribute('id')}.is-read")
    assert unread_badge(page) == str(len(AI_NEWS) - 1)
    first.locator('button[data-action="save"]').click()
    page.wait_for_selector(f"#{first.get_attribute('id')} button[data-action=save][data-on='1']")
    assert saved_badge(page) == "1"
    third.locator('button[data-action="dismiss"]').click()
    page.wait_for_selector(f"#{third.get_attribute('id')}.is-dismissed")
    assert page.evaluate("() => window.__samePage") is True
    assert second.bounding_box() == second_box
    assert first.bounding_box()["height"] == first_height
    assert first.locator("button[data-action=read] > span:not(.hidden-label)").inner_text() == (
        "Mark unread"
    )

    # The keyboard: j/k move, s saves, m toggles read, x undoes, ? shows the help.
    # The last click (in the third item) made it the current one; k climbs to the top.
    assert "is-current" in third.get_attribute("class")
    for _ in range(3):
        page.keyboard.press("k")
    assert "is-current" in first.get_attribute("class")
    page.keyboard.press("j")
    assert "is-current" in second.get_attribute("class")
    page.keyboard.press("s")
    page.wait_for_selector(f"#{second.get_attribute('id')} button[data-action=save][data-on='1']")
    assert saved_badge(page) == "2"
    page.keyboard.press("m")
    page.wait_for_selector(f"#{second.get_attribute('id')}.is-read")
    page.keyboard.press("j")
    page.keyboard.press("x")  # the third item was dismissed: x undoes it
    page.wait_for_selector(f"#{third.get_attribute('id')}:not(.is-dismissed)")
    page.keyboard.press("k")
    assert "is-current" in second.get_attribute("class")
    page.keyboard.press("j")
    page.keyboard.press("j")
    fourth = items.nth(3)
    assert "is-current" in fourth.get_attribute("class")
    link = fourth.locator("a[data-open]").get_attribute("href")
    requested: list[str] = []
    page.context.on("request", lambda request: requested.append(request.url))
    with page.expect_popup() as popup:
        page.keyboard.press("v")  # opens the item at its source, a new tab (off-site: refused)
    popup.value.close()
    assert link in requested
    page.wait_for_selector(f"#{fourth.get_attribute('id')}.is-read")
    page.keyboard.press("?")
    assert page.locator("#shortcuts").is_visible()
    assert_accessible(page)
    page.keyboard.press("Escape")
    assert not page.locator("#shortcuts").is_visible()

    # o reads the current item here, in the in-app reader; u goes back to the Inbox.
    title = fourth.locator(".item-title").inner_text()
    page.keyboard.press("o")
    page.wait_for_url(re.compile(r".*/inbox/items/\d+/reader/$"))
    assert page.locator("h1").inner_text() == title
    assert page.locator(".reader-text").inner_text().strip()
    assert_accessible(page)
    page.set_viewport_size(PHONE)
    assert no_horizontal_scroll(page)
    page.set_viewport_size(DESKTOP)
    page.keyboard.press("u")
    page.wait_for_url(re.compile(r".*/inbox/(#.*)?$"))
    states = UserContentState.objects.filter(user__email="dana@example.com")
    assert states.filter(saved_at__isnull=False).count() == 2
    assert states.filter(read_at__isnull=False).count() == 3
    assert states.filter(not_interested_at__isnull=False).count() == 0

    # Filters: tabs, search, and they stay in the URL.
    page.get_by_role("link", name="Saved", exact=True).click()
    page.wait_for_url(f"{url}/inbox/?show=saved")
    assert count(page, "[data-item]") == 2
    page.get_by_role("link", name="Unread", exact=True).click()
    page.wait_for_url(f"{url}/inbox/?show=unread")  # a click returns when the navigation commits
    assert count(page, "[data-item]") == len(AI_NEWS) - 3
    # The one unread item left is the third in the brief's order (ranked by relevance): found
    # by a word of its title alone.
    word = next(w for title, w in SEARCH_WORDS.items() if title in third_title)
    page.fill("#id_q", word)
    page.get_by_role("button", name="Apply").click()
    page.wait_for_url(re.compile(rf"show=unread.*q={word}|q={word}.*show=unread"))
    assert count(page, "[data-item]") == 1
    page.get_by_role("link", name="Clear filters").first.click()
    page.wait_for_url(f"{url}/inbox/?show=unread")
    assert count(page, "[data-item]") == len(AI_NEWS) - 3

    # The run page ("this issue"): narrative, then items, then Sources.
    page.locator("[data-item] .item-meta a").first.click()
    page.wait_for_url(re.compile(r"/inbox/runs/\d+/$"))
    order = page.evaluate(
        """() => ['.narrative', '[data-item]', '#run-sources'].map(
            (s) => document.querySelector(s).getBoundingClientRect().top)"""
    )
    assert order == sorted(order)
    assert count(page, "#run-sources + ol li") == len(AI_NEWS)
    assert_accessible(page)
    screenshot(page, "run")

    # API tokens: created and shown once.
    page.locator('nav.nav a[href="/inbox/tokens/"]').click()
    page.fill("#token-name", "my-script")
    page.get_by_role("button", name="Create token").click()
    assert page.locator("input.mono[readonly]").input_value().startswith("tid_")
    assert_accessible(page)
    screenshot(page, "tokens")

    # The phone layout has no sideways scrolling.
    page.goto(f"{url}/inbox/")
    page.set_viewport_size(PHONE)
    assert no_horizontal_scroll(page)
    page.goto(f"{url}/subscriptions/{subscription.pk}/")
    assert no_horizontal_scroll(page)

    # Chinese: chosen on the preferences page, the whole interface follows.
    page.goto(f"{url}/inbox/preferences/")
    assert_accessible(page)
    page.select_option("#id_language", "zh-hans")
    page.get_by_role("button", name="Save preferences").click()
    page.wait_for_url(f"{url}/inbox/preferences/")
    assert page.locator("html").get_attribute("lang") == "zh-hans"
    assert "偏好设置已保存。" in page.locator(".messages").inner_text()
    page.locator('nav.nav a[href="/inbox/"]').click()
    assert "收件箱" in page.locator("h1").inner_text()
    label = "[data-item] button[data-action=read] > span:not(.hidden-label)"
    assert page.locator(label).first.inner_text() in (
        "标为已读",
        "标为未读",
    )
    assert_accessible(page)
    screenshot(page, "inbox-zh")


def test_the_inbox_works_with_javascript_off(live_server, browser):
    user = make_user("erin@example.com")
    seed_pool()
    now = timezone.now()
    subscription = create_subscription(
        user, {"name": "AI", "interests": ["LLM", "AI", "inference"], "cron": "0 8 * * *"}, now=now
    )
    runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)

    page = new_page(browser, javascript=False)
    try:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", "erin@example.com")
        page.fill("#id_password", "correct horse battery staple")
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(f"{live_server.url}/inbox/")
        item = page.locator("[data-item]").first
        item_id = item.get_attribute("id")
        item.locator("button[data-action=save]").click()  # a plain POST and a redirect
        page.wait_for_url(f"{live_server.url}/inbox/#{item_id}")
        saved = page.locator(f"#{item_id} button[data-action=save]")
        assert saved.get_attribute("data-on") == "1"
        assert saved.locator("span:not(.hidden-label)").inner_text() == "Unsave"
        assert page.locator("#nav-saved [aria-hidden]").inner_text() == "1"
        # The keyboard help needs JavaScript, so its button stays hidden.
        assert not page.locator("[data-shortcuts-open]").is_visible()
        page.get_by_role("link", name="Saved", exact=True).click()
        # A click returns once the navigation commits; wait for the page to load before counting.
        page.wait_for_url(f"{live_server.url}/inbox/?show=saved")
        assert page.locator("[data-item]").count() == 1
        page.locator(f"#{item_id} button[data-action=read]").click()
        page.wait_for_url(re.compile(rf"show=saved#{item_id}$"))
        assert page.locator(f"#{item_id}").get_attribute("class").find("is-read") > 0
        screenshot(page, "inbox-no-javascript")
    finally:
        page.context.close()
