"""In a browser: the branded 404 page reads well at phone and desktop width in both languages,
under the Content-Security-Policy, with no accessibility violations."""

from __future__ import annotations

import pytest

from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    no_horizontal_scroll,
    serious_accessibility_violations,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_404_page_is_accessible_at_both_widths(live_server, page, language):
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text))  # CSP reports land here
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    response = page.goto(f"{live_server.url}/no/such/page/")
    assert response.status == 404
    assert page.locator("html").get_attribute("lang") == language
    assert (
        page.locator("h1").inner_text()
        == {"en": "Page not found", "zh-hans": "页面不存在"}[language]
    )
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        assert no_horizontal_scroll(page)
        violations = serious_accessibility_violations(page)
        assert violations == [], "\n".join(violations)
    assert not [e for e in errors if "Content Security Policy" in e]
