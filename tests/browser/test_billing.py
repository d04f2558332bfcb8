"""In a browser: the expected cost of a new subscription follows the form as it changes, a
schedule the plan does not allow is said before submitting, and the credits page is readable
and accessible at both widths."""

from __future__ import annotations

import pytest
from django.utils import timezone

from billing import charges
from billing.estimates import runs_per_month
from digests.subscriptions.service import create_subscription, request_manual_run
from tests.browser.conftest import (
    PHONE,
    no_horizontal_scroll,
    screenshot,
    serious_accessibility_violations,
)
from tests.conftest import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(page, url: str, email: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", email)
    page.fill("#id_password", "correct horse battery staple")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{url}/inbox/")


def test_the_expected_cost_follows_the_schedule_and_the_credits_page_reads_well(live_server, page):
    user = make_user("fran@example.com", timezone="Europe/Berlin")
    now = timezone.now()
    subscription = create_subscription(
        user, {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    run = request_manual_run(subscription, now=now)
    charges.settle(
        run, breakdown={"operations": {"page_fetch": 3, "extract": 3}}, delivered=4, now=now
    )

    url = live_server.url
    log_in(page, url, "fran@example.com")
    assert page.locator("a.plan").inner_text().startswith("Free 94 credits")

    page.goto(f"{url}/subscriptions/new/")
    estimate = page.locator("[data-estimate-text]")
    assert "about 30 runs in 30 days" in estimate.inner_text()
    page.select_option("#id_schedule_preset", "advanced")
    page.fill("#id_cron", "*/5 * * * *")
    refusal = page.locator("[data-estimate-refusal]")
    refusal.wait_for(state="visible")
    assert "this schedule has runs 5 minutes apart" in refusal.inner_text()
    assert "about 8640 runs in 30 days" in estimate.inner_text()
    page.fill("#id_cron", "0 9 * * 1-5")
    refusal.wait_for(state="hidden")
    weekdays = runs_per_month("0 9 * * 1-5", "Europe/Berlin", now=timezone.now())
    page.wait_for_function(
        "runs => document.querySelector('[data-estimate-text]').textContent"
        ".includes(`about ${runs} runs`)",
        arg=weekdays,
    )

    page.locator("a.plan").click()
    page.wait_for_url(f"{url}/credits/")
    assert page.locator("#credits-balance").inner_text() == "94"
    assert page.locator("#ledger tbody tr").count() == 2
    violations = serious_accessibility_violations(page)
    assert violations == [], "\n".join(violations)
    page.set_viewport_size(PHONE)
    assert no_horizontal_scroll(page)
    screenshot(page, "credits")
