"""In a browser, in English and Chinese: the logged-in header fits a 390 px phone (the brand
whole, nothing overlapping, "Log out" on screen), and at 1280 px no table breaks a word in
the middle (status badges, buttons)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from digests.models import Run
from digests.subscriptions.service import create_subscription
from inbox.models import UserPreference
from inbox.portability.transfer import issue_code
from tests.browser.conftest import DESKTOP, PHONE, no_horizontal_scroll
from tests.conftest import make_user

pytestmark = pytest.mark.django_db(transaction=True)

# Each rectangle of the header's account links, with how many lines its text takes.
HEADER = """() => {
  const box = (el) => el.getBoundingClientRect();
  const lines = (el) => { const r = document.createRange(); r.selectNodeContents(el);
    return new Set([...r.getClientRects()].map((c) => Math.round(c.top))).size; };
  const items = [...document.querySelectorAll('.bar .account > *')].map((el) => {
    const b = box(el); return {left: b.left, right: b.right, top: b.top, bottom: b.bottom}; });
  const brand = document.querySelector('.bar .brand');
  const logout = document.querySelector('.bar .account form button');
  return {brandLines: lines(brand), brandCut: brand.scrollWidth > brand.clientWidth + 1,
          logout: box(logout).toJSON(), width: document.documentElement.clientWidth, items};
}"""

# Every badge, button and time zone in a table that spans more than one line.
BROKEN_IN_TABLES = """() => [...document.querySelectorAll(
    '.table .badge, .table button, .table .zone')]
  .filter((el) => { const r = document.createRange(); r.selectNodeContents(el);
    return new Set([...r.getClientRects()].filter((c) => c.width > 0)
      .map((c) => Math.round(c.top))).size > 1; })
  .map((el) => el.textContent.trim())"""


def overlap(a: dict, b: dict) -> bool:
    return (
        a["left"] < b["right"] - 1
        and b["left"] < a["right"] - 1
        and (a["top"] < b["bottom"] - 1 and b["top"] < a["bottom"] - 1)
    )


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_header_fits_a_phone_and_tables_break_no_word(live_server, page, language):
    email = f"layout-{language}@example.com"
    user = make_user(email, timezone="America/Argentina/Buenos_Aires")
    UserPreference.objects.filter(user=user).update(
        ui_locale=language, locale_mode=UserPreference.LocaleMode.MANUAL
    )
    now = timezone.now()
    subscriptions = [
        create_subscription(
            user, {"name": name, "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
        )
        for name in ("Databases and distributed systems", "Security")
    ]
    for status in ("succeeded", "failed"):
        Run.objects.create(
            subscription=subscriptions[0],
            user=user,
            status=status,
            trigger="manual",
            scheduled_at=now,
            finished_at=now,
            error="The source timed out." if status == "failed" else "",
        )
    issue_code(user, "everything", now=now)  # a live transfer code: a "Revoke" button
    url = live_server.url
    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", email)
    page.fill("#id_password", "correct horse battery staple")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{url}/inbox/")

    paths = ("/inbox/", "/subscriptions/", f"/subscriptions/{subscriptions[0].pk}/")
    for path in (*paths, "/inbox/preferences/"):
        page.goto(f"{url}{path}")
        page.set_viewport_size(PHONE)
        header = page.evaluate(HEADER)
        assert header["brandLines"] == 1 and not header["brandCut"], path
        assert header["logout"]["left"] >= 0 and header["logout"]["right"] <= header["width"]
        items = header["items"]
        assert not any(overlap(a, b) for i, a in enumerate(items) for b in items[i + 1 :]), (
            path,
            items,
        )
        assert no_horizontal_scroll(page), path
        page.set_viewport_size(DESKTOP)
        assert page.evaluate(BROKEN_IN_TABLES) == [], path
        if path == "/inbox/preferences/":
            assert (
                page.locator(
                    ".table button", has_text="Revoke" if language == "en" else "吊销"
                ).count()
                == 1
            )
