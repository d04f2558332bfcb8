"""One-click unsubscribe (RFC 8058) end to end: the link from a real message, a GET that
changes nothing, a POST without login or CSRF token that turns email off for that one
subscription, and links that cannot be forged or pointed elsewhere."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.test import Client

from digests.delivery import unsubscribe
from digests.models import Subscription
from tests.digests.delivery_helpers import add_items, run_and_send, subscribe


def unsubscribe_path(message) -> str:
    url = str(message["List-Unsubscribe"]).strip().strip("<>")
    return urlsplit(url).path


@pytest.fixture
def mailed(alice, now, smtp_server):
    """Alice's two emailed subscriptions and the unsubscribe path of the first one's message."""
    add_items(now, "PostgreSQL 18 released", "Rust 2026 edition")
    databases = subscribe(alice, now)
    rust = subscribe(alice, now, name="Rust", interests=["Rust"])
    run_and_send(databases, now)
    run_and_send(rust, now)
    assert smtp_server.count == 2
    return databases, rust, unsubscribe_path(smtp_server.messages[0])


def test_a_one_click_post_turns_email_off_for_that_subscription_only(mailed):
    databases, rust, path = mailed
    # What a mail client sends (RFC 8058 §3.2): no cookies, no CSRF token.
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    assert "You are unsubscribed" in response.content.decode()
    assert not Subscription.objects.get(pk=databases.pk).email_enabled
    assert Subscription.objects.get(pk=rust.pk).email_enabled
    # Idempotent: a second click says the same and changes nothing.
    assert client.post(path).status_code == 200


def test_a_get_only_asks_and_changes_nothing(mailed):
    databases, _rust, path = mailed
    response = Client().get(path)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Unsubscribe from these emails?" in page
    assert "Databases" in page and "alice@example.com" in page
    assert '<form method="post">' in page
    assert response.headers["Cache-Control"].startswith("max-age=0")
    assert Subscription.objects.get(pk=databases.pk).email_enabled


def test_the_confirmation_button_unsubscribes(mailed):
    databases, _rust, path = mailed
    client = Client(enforce_csrf_checks=True)
    client.get(path)
    response = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert "You are unsubscribed" in response.content.decode()
    assert not Subscription.objects.get(pk=databases.pk).email_enabled


def test_the_footer_link_is_the_same_link(mailed, smtp_server):
    _databases, _rust, path = mailed
    text = smtp_server.messages[0].get_body(("plain",)).get_content()
    assert f"http://127.0.0.1:8000{path}" in text


@pytest.mark.parametrize(
    "tamper",
    [
        lambda token: token[:-1] + ("A" if token[-1] != "A" else "B"),  # the signature
        lambda token: "x" + token,  # the payload
        lambda token: token.split(":")[0],  # no signature at all
        lambda token: "not-a-token",
    ],
    ids=["signature", "payload", "unsigned", "garbage"],
)
def test_a_tampered_link_is_refused_and_changes_nothing(mailed, tamper):
    databases, _rust, path = mailed
    token = path.removeprefix("/email/unsubscribe/").rstrip("/")
    bad = f"/email/unsubscribe/{tamper(token)}/"
    for method in ("get", "post"):
        response = getattr(Client(), method)(bad)
        assert response.status_code == 400
        assert "This link does not work" in response.content.decode()
    assert Subscription.objects.get(pk=databases.pk).email_enabled


def test_a_link_cannot_be_made_for_someone_elses_subscription(mailed, bob, now):
    """A token signed for one subscription and address is no key to another: changing the id
    inside it breaks the signature, and a token bob could get for his own address does not
    match alice's subscription."""
    databases, _rust, path = mailed
    import base64
    import json

    token = path.removeprefix("/email/unsubscribe/").rstrip("/")
    payload, signature = token.split(":")
    data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    data["s"] = databases.pk + 1
    forged = base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")
    assert Client().post(f"/email/unsubscribe/{forged}:{signature}/").status_code == 400
    # A validly signed link for bob's address on alice's subscription does nothing.
    bobs = unsubscribe.token_for(databases.pk, "bob@example.com")
    response = Client().post(f"/email/unsubscribe/{bobs}/")
    assert "Nothing to unsubscribe" in response.content.decode()
    assert Subscription.objects.get(pk=databases.pk).email_enabled


def test_a_link_for_an_address_that_no_longer_receives_does_nothing(mailed, now):
    from digests.subscriptions.service import update_subscription

    databases, _rust, path = mailed
    update_subscription(databases, {"email_to": "alice.work@example.com"}, now=now)
    response = Client().post(path)
    assert "Nothing to unsubscribe" in response.content.decode()
    assert Subscription.objects.get(pk=databases.pk).email_enabled


def test_after_unsubscribing_the_next_run_reaches_the_inbox_but_sends_no_email(
    mailed, now, smtp_server
):
    databases, _rust, path = mailed
    Client().post(path)
    add_items(now, "PostgreSQL 19 planned")
    databases.refresh_from_db()
    run = run_and_send(databases, now)
    assert run.delivered_count == 1
    assert not run.deliveries.exists()
    assert smtp_server.count == 2


def test_the_unsubscribe_page_is_in_the_visitors_language(mailed):
    _databases, _rust, path = mailed
    response = Client(HTTP_ACCEPT_LANGUAGE="zh-hans").get(path)
    assert "退订" in response.content.decode()
