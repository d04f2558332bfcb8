"""The publish and topic edit forms: the time zone is chosen from a list, as everywhere else,
and Private is offered only to accounts that can use it."""

from __future__ import annotations

from django.urls import reverse

from digests.subscriptions.service import create_subscription
from tests.factories import on_plan
from tests.topics.test_services import published


def publish_page(client, user, now) -> str:
    subscription = create_subscription(
        user, {"name": "DB", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    client.force_login(user)
    return client.get(reverse("topics:publish", args=[subscription.pk])).content.decode()


def test_the_time_zone_is_a_list(client, alice, now):
    html = publish_page(client, alice, now)
    assert '<select name="timezone"' in html
    assert '<option value="Asia/Tokyo">Asia/Tokyo</option>' in html


def test_a_free_account_is_not_offered_private(client, alice, now):
    html = publish_page(client, alice, now)
    assert 'value="private"' not in html
    assert "Private topics come with a paid plan." in html


def test_a_paid_account_is_offered_private(client, alice, now):
    on_plan(alice, "basic", now=now)
    assert 'value="private"' in publish_page(client, alice, now)


def test_a_free_account_cannot_post_private_either(client, alice, now):
    topic = published(alice, now)
    client.force_login(alice)
    response = client.post(
        reverse("topics:edit", args=[topic.slug]),
        {"title": topic.title, "visibility": "private", "cron": topic.cron, "timezone": "UTC"},
    )
    assert response.status_code == 400
    topic.refresh_from_db()
    assert topic.visibility == "public"
