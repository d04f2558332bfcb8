"""The first ten minutes, in a real browser: a topic typed in plain words fills its interests
and previews what it would deliver; a refused cron is said once; "Run now" shows its result
without a reload; long unbroken names never widen the page (390 and 1280 px); the Chinese
interface has no English left in templates and "why selected"; /favicon.ico and /api/schema/
answer a browser properly."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import timezone

from digests.models import Run, Subscription
from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from inbox.models import UserPreference
from tests.browser.conftest import DESKTOP, PHONE, no_horizontal_scroll, screenshot
from tests.conftest import make_user
from tests.factories import add_item
from tests.topics.test_services import make_edition, published

pytestmark = pytest.mark.django_db(transaction=True)

LONG = "Supercalifragilisticexpialidocious" * 5  # 170 characters without a space


def log_in(page, live_server, user) -> None:
    """The browser carries a session made by the test client: no login form to fill."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])


def seed(now) -> None:
    add_item("Tokio 2.0 ships a faster async runtime", now=now, age_hours=1)
    add_item(f"{LONG} and an async runtime", now=now, age_hours=2)
    add_item("Gardening in November", now=now, age_hours=1)


def test_a_topic_in_plain_words_suggests_interests_and_previews(live_server, page):
    now = timezone.now()
    seed(now)
    log_in(page, live_server, make_user("dana@example.com"))
    page.goto(f"{live_server.url}/subscriptions/new/")
    page.evaluate("() => { window.__samePage = true; }")
    page.fill("#id_topic", "keeping up with Rust async runtimes")
    page.locator("#id_topic").blur()  # "change": htmx asks for a suggestion and a preview
    page.wait_for_function(
        "() => document.querySelector('#id_interests').value.includes('async runtimes')"
    )
    assert page.input_value("#id_interests") == "Rust async runtimes, async runtimes"
    preview = page.locator("#draft")
    preview.locator("ol.preview li").first.wait_for()
    assert "Tokio 2.0 ships a faster async runtime" in preview.inner_text()
    assert "Gardening" not in preview.inner_text()
    assert page.evaluate("() => window.__samePage") is True
    screenshot(page, "subscription-draft")

    # Interests the reader writes are theirs: a preview uses them, nothing overwrites them.
    page.fill("#id_interests", "quantum error correction")
    page.locator("#id_interests").blur()
    page.wait_for_selector("#draft p.empty")
    assert "No item from the last 7 days mentions quantum error correction" in (
        preview.inner_text()
    )
    page.fill("#id_name", "Rust")
    page.get_by_role("button", name="Create subscription").click()
    page.wait_for_url(re.compile(r"/subscriptions/\d+/$"))
    assert Subscription.objects.get().interests == ["quantum error correction"]


def test_a_refused_cron_is_said_once_in_our_words(live_server, page):
    log_in(page, live_server, make_user("erin@example.com"))
    page.goto(f"{live_server.url}/subscriptions/new/")
    page.select_option("#id_schedule_preset", "advanced")
    page.fill("#id_cron", "0 25 * * *")
    message = "the hour field cannot be 25. It takes 0 to 23"
    page.wait_for_selector(f"text={message}")
    assert page.get_by_text(message).count() == 1
    page.fill("#id_name", "Bad schedule")
    page.fill("#id_interests", "PostgreSQL")
    page.get_by_role("button", name="Create subscription").click()
    page.wait_for_load_state()
    page.wait_for_timeout(800)  # the live preview has answered for the page as sent back
    assert page.get_by_text(message).count() == 1
    assert Subscription.objects.count() == 0


def test_the_pages_update_after_run_now(live_server, page, monkeypatch):
    # The worker is "slow": "Run now" only queues the run; the test plays the worker.
    monkeypatch.setattr("digests.subscriptions.views.enqueue_run", lambda run_id: None)
    now = timezone.now()
    seed(now)
    user = make_user("fay@example.com")
    subscription = create_subscription(
        user, {"name": "Rust", "interests": ["async runtime"], "cron": "0 8 * * *"}, now=now
    )
    log_in(page, live_server, user)
    page.goto(f"{live_server.url}/subscriptions/{subscription.pk}/")
    page.get_by_role("button", name="Run now").click()
    page.wait_for_selector("#run-status .badge.status-pending")
    page.evaluate("() => { window.__samePage = true; }")
    run = Run.objects.get()
    runner.execute_run(run.pk, now=timezone.now())
    page.wait_for_selector("#run-status .badge.status-succeeded", timeout=15_000)
    assert page.evaluate("() => window.__samePage") is True
    assert "A run is queued or running" not in page.content()

    # The run's own page, opened while the next run is still queued, fills in by itself.
    second = request_manual_run(subscription, now=timezone.now())
    page.goto(f"{live_server.url}/inbox/runs/{second.pk}/")
    page.wait_for_selector("#run-body [role=status]")
    page.evaluate("() => { window.__samePage = true; }")
    add_item("Tokio 2.1 lands a new async runtime scheduler", now=timezone.now(), age_hours=0)
    runner.execute_run(second.pk, now=timezone.now())
    page.wait_for_selector("#run-body [data-item]", timeout=15_000)
    assert page.evaluate("() => window.__samePage") is True


def test_long_unbroken_names_never_widen_the_page(live_server, page):
    now = timezone.now()
    add_item(f"{LONG} and an async runtime", now=now, age_hours=2)
    user = make_user("gus@example.com")
    subscription = create_subscription(
        user,
        {
            "name": LONG,
            "topic": LONG,
            "interests": ["async runtime", LONG[:90]],
            "cron": "0 8 * * *",
        },
        now=now,
    )
    run = runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)
    topic = published(user, now, title=LONG[:200], description=LONG)
    make_edition(topic, now)
    log_in(page, live_server, user)
    pages = [
        "/subscriptions/",
        f"/subscriptions/{subscription.pk}/",
        f"/subscriptions/{subscription.pk}/edit/",
        f"/subscriptions/{subscription.pk}/preview/",
        "/subscriptions/new/",
        "/inbox/",
        f"/inbox/runs/{run.pk}/",
        f"/topics/{topic.slug}",
        "/topics",
        "/topics/mine/",
    ]
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        for path in pages:
            page.goto(f"{live_server.url}{path}")
            assert no_horizontal_scroll(page), f"{path} scrolls sideways at {size['width']} px"
    screenshot(page, "long-name-subscription")

    # On a phone the header keeps the brand and the account links on one line, and lists
    # shown as cards carry no bullets.
    page.set_viewport_size(PHONE)
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/topics")
    brand = page.locator(".brand").bounding_box()
    last_link = page.locator(".account a").last.bounding_box()
    assert abs(brand["y"] - last_link["y"]) < brand["height"]
    bullets = page.evaluate(
        "() => getComputedStyle(document.querySelector('ul.cards')).listStyleType"
    )
    assert bullets == "none"
    screenshot(page, "topics-phone")


def test_the_chinese_interface_has_no_english_left(live_server, page):
    now = timezone.now()
    add_item("LLM agents learn to ask before acting", now=now, age_hours=1)
    user = make_user("hao@example.com", locale="zh-hans")
    UserPreference.objects.filter(user=user).update(
        ui_locale="zh-hans", locale_mode=UserPreference.LocaleMode.MANUAL
    )
    log_in(page, live_server, user)
    page.goto(f"{live_server.url}/subscriptions/new/")
    templates = page.locator("form.template").all_inner_texts()
    assert any("AI 日报" in text for text in templates)
    for english in ("AI Daily", "Artificial intelligence", "Security daily", "Frontend weekly"):
        assert not any(english in text for text in templates), english
    page.get_by_role("button", name=re.compile("AI 日报")).click()
    page.wait_for_url(re.compile(r"/subscriptions/\d+/$"))
    subscription = Subscription.objects.get(owner=user)
    assert subscription.name == "AI 日报"
    page.get_by_role("button", name="立即运行").click()
    page.wait_for_selector("#run-status .badge.status-succeeded")
    run = Run.objects.get()
    page.goto(f"{live_server.url}/inbox/runs/{run.pk}/")
    why = page.locator("[data-item] .item-why").first.inner_text()
    for english in ("matches", "title", "source:", "published", "stands out", "Nov"):
        assert english not in why, (english, why)
    assert "标题中匹配" in why and "发布于" in why
    screenshot(page, "run-zh")


def test_the_favicon_and_the_api_schema_answer_a_browser(live_server, page):
    page.goto(f"{live_server.url}/topics")
    icon = page.locator("link[rel=icon]").get_attribute("href")
    favicon = page.request.get(f"{live_server.url}{icon}")  # what the browser asks for
    assert favicon.status == 200
    assert favicon.headers["content-type"] == "image/x-icon"
    schema = page.goto(f"{live_server.url}/api/schema/")  # shown, not a download
    assert schema.status == 200
    assert schema.headers["content-type"].startswith("text/plain")
    assert "openapi:" in page.locator("body").inner_text()
