"""A stranger finds a public topic, reads an edition, clicks Follow, logs in and lands with the
subscription made — in a real browser. The public pages pass axe-core and carry parseable
JSON-LD."""

from __future__ import annotations

import json

import pytest
from django.utils import timezone

from digests.models import Subscription
from tests.browser.conftest import screenshot, serious_accessibility_violations
from tests.conftest import make_user
from tests.topics.test_services import make_edition, published

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_visitor_follows_a_public_topic_after_logging_in(live_server, page, settings):
    settings.SITE_URL = live_server.url
    now = timezone.now()
    owner = make_user("owner@example.com")
    topic = published(owner, now, description="The week in PostgreSQL")
    edition = make_edition(topic, now)
    reader = make_user("reader@example.com")

    page.goto(f"{live_server.url}/topics")
    page.get_by_role("link", name="Databases Daily").click()
    page.wait_for_url(f"{live_server.url}/topics/{topic.slug}")
    jsonld = json.loads(page.locator("script[type='application/ld+json']").text_content())
    assert jsonld["@type"] == "CollectionPage"
    assert serious_accessibility_violations(page) == []
    screenshot(page, "topic")

    page.goto(f"{live_server.url}{edition.get_absolute_url()}")
    assert page.locator("main h2 a").first.inner_text() == "PostgreSQL 18 released"
    assert (
        json.loads(page.locator("script[type='application/ld+json']").text_content())["@type"]
        == "Article"
    )
    assert serious_accessibility_violations(page) == []
    screenshot(page, "edition")

    page.get_by_role("button", name="Follow Databases Daily").click()
    page.wait_for_url(f"{live_server.url}/accounts/login/**")
    page.fill("#id_username", "reader@example.com")
    page.fill("#id_password", "correct horse battery staple")
    page.locator("main form button[type=submit]").click()
    subscription = None
    page.wait_for_url(f"{live_server.url}/subscriptions/**")
    subscription = Subscription.objects.get(owner=reader)
    assert subscription.followed_topic_id == topic.pk
    assert "You follow Databases Daily" in page.content()
    screenshot(page, "followed")
