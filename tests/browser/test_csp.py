"""The Content-Security-Policy in a real browser: every page we render — public, console,
account, admin, API docs — loads with no violation reported, and an injected inline script is
refused."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from tests.conftest import make_user
from tests.factories import add_item
from tests.topics.test_services import make_edition, published

pytestmark = pytest.mark.django_db(transaction=True)

# Runs before any page script, outside the page's policy (Playwright injects it), and keeps
# what the browser reports.
WATCH_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__csp.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`
    + ` at ${event.sourceFile || ""}:${event.lineNumber}`);
});
"""


def log_in(page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])


def violations_on(page, url: str) -> list[str]:
    console: list[str] = []
    page.on(
        "console",
        lambda message: (
            console.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    response = page.goto(url)
    assert response.status < 400, (url, response.status)
    assert "Content-Security-Policy" in {name.title() for name in response.headers}, url
    page.wait_for_load_state("networkidle")
    return [*page.evaluate("() => window.__csp"), *console]


def test_no_page_we_render_violates_the_policy(live_server, page):
    page.context.add_init_script(WATCH_VIOLATIONS)
    now = timezone.now()
    owner = make_user("csp@example.com")
    owner.is_staff = owner.is_superuser = True
    owner.save()
    topic = published(owner, now)
    edition = make_edition(topic, now)
    add_item("An async runtime with <script>alert(1)</script> in its title", now=now)
    subscription = create_subscription(
        owner, {"name": "Rust", "interests": ["async runtime"], "cron": "0 8 * * *"}, now=now
    )
    run = request_manual_run(subscription, now=now)
    runner.execute_run(run.pk, now=timezone.now())

    public = [
        "/",
        "/topics",
        topic.get_absolute_url(),
        edition.get_absolute_url() if hasattr(edition, "get_absolute_url") else "/topics",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password-reset/",
        "/admin/login/",
        "/api/docs/",
    ]
    found = {url: violations_on(page, live_server.url + url) for url in public}

    log_in(page, live_server, owner)
    console = [
        "/inbox/",
        f"/inbox/runs/{run.pk}/",
        "/subscriptions/",
        "/subscriptions/new/",
        f"/subscriptions/{subscription.pk}/",
        f"/subscriptions/{subscription.pk}/edit/",
        f"/subscriptions/{subscription.pk}/email-preview/",
        "/inbox/preferences/",
        "/inbox/tokens/",
        "/sources/",
        "/sources/watch/",
        "/sources/crawl/",
        "/sources/search/",
        "/credits/",
        "/admin/",
        "/admin/digests/subscription/",
        f"/admin/digests/subscription/{subscription.pk}/change/",
        "/admin/inbox/auththrottlecounter/",
        "/admin/auth/user/add/",
    ]
    found |= {url: violations_on(page, live_server.url + url) for url in console}
    assert {url: v for url, v in found.items() if v} == {}


def test_an_injected_inline_script_does_not_run(live_server, page):
    page.context.add_init_script(WATCH_VIOLATIONS)
    page.goto(f"{live_server.url}/topics")
    page.evaluate(
        """() => {
        const script = document.createElement("script");
        script.textContent = "window.__ran = true";
        document.body.append(script);
        const link = document.createElement("a");
        link.setAttribute("onclick", "window.__clicked = true");
        document.body.append(link);
        link.click();
    }"""
    )
    assert page.evaluate("() => window.__ran === undefined && window.__clicked === undefined")
    assert any("script-src" in v for v in page.evaluate("() => window.__csp"))
