"""In a browser, at phone and desktop width, in English and Chinese: a refused submit is never
silent. The first error is in view and focused, and the schedule preview never wipes the
server's error off the edit page."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from digests.subscriptions.service import create_subscription
from inbox.models import UserPreference
from tests.browser.conftest import DESKTOP, PHONE, serious_accessibility_violations
from tests.conftest import make_user

pytestmark = pytest.mark.django_db(transaction=True)

# What the server says, in each language (the plan's limit on how often a subscription runs).
TOO_OFTEN = {"en": "at most once every 60 minutes", "zh-hans": "套餐中，同一订阅两次运行至少间隔"}


def log_in(page, url: str, email: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", email)
    page.fill("#id_password", "correct horse battery staple")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{url}/inbox/")


def in_view_and_focused(page, field_id: str) -> None:
    """The field's error line is inside the viewport and the field has the focus."""
    assert page.evaluate("() => document.activeElement && document.activeElement.id") == field_id
    box = page.locator(f"#field-{field_id.removeprefix('id_')} p.error").first.bounding_box()
    height = page.viewport_size["height"]
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, box


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390", "1280"])
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_refused_schedule_stays_said_in_view_and_focused(live_server, page, size, language):
    email = f"refused-{language}-{size['width']}@example.com"
    user = make_user(email, timezone="Europe/Berlin")
    UserPreference.objects.filter(user=user).update(
        ui_locale=language, locale_mode=UserPreference.LocaleMode.MANUAL
    )
    subscription = create_subscription(
        user,
        {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"},
        now=timezone.now(),
    )
    page.set_viewport_size(size)
    url = live_server.url
    log_in(page, url, email)
    assert page.locator("html").get_attribute("lang") == language

    # The edit page: a schedule the Free plan refuses.
    page.goto(f"{url}/subscriptions/{subscription.pk}/edit/")
    page.select_option("#id_schedule_preset", "advanced")
    page.fill("#id_cron", "* * * * *")
    page.locator("form:has(#id_cron) > button[type=submit]").click()
    page.wait_for_load_state("networkidle")  # the preview script has had its say

    error = page.locator("#field-cron p.error")
    assert error.count() == 1 and TOO_OFTEN[language] in error.inner_text()
    assert page.locator("#field-cron").is_visible()
    in_view_and_focused(page, "id_cron")
    subscription.refresh_from_db()
    assert subscription.cron == "0 8 * * *"  # nothing saved
    violations = serious_accessibility_violations(page)
    assert violations == [], "\n".join(violations)

    # The new-subscription page: the same refusal, far below the templates.
    page.goto(f"{url}/subscriptions/new/")
    page.fill("#id_name", "Every minute")
    page.fill("#id_interests", "PostgreSQL")
    page.select_option("#id_schedule_preset", "advanced")
    page.fill("#id_cron", "* * * * *")
    # The preview words its runs in the product's one format: local time with its zone.
    first_run = page.locator("[data-schedule-runs] time").first
    first_run.wait_for()
    assert re.search(r"\d\d:\d\d CES?T$", first_run.inner_text())
    assert ("年" in first_run.inner_text()) == (language == "zh-hans")
    page.locator("form:has(#id_cron) > button[type=submit]").click()
    page.wait_for_load_state("networkidle")
    assert TOO_OFTEN[language] in page.locator("#field-cron p.error").inner_text()
    in_view_and_focused(page, "id_cron")
