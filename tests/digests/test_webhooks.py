"""Webhooks: a brief POSTed as JSON through the safe fetch client to a loopback receiver,
signed Standard Webhooks style — verified here by an independent check written from the
specification, not by calling our signer — with retries, 410, auto-disable and test events."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from datetime import timedelta

import pytest
from django.test import override_settings

from digests.delivery import endpoints, webhook
from digests.delivery import service as deliveries
from digests.models import Delivery, WebhookEndpoint
from digests.subscriptions.service import SubscriptionInputError, update_subscription
from tests.digests.delivery_helpers import add_items, run_and_send, run_only, subscribe


def verify(secret: str, headers: dict[str, str], body: bytes) -> bool:
    """Standard Webhooks verification as a receiver writes it: base64-decode the key after
    `whsec_`, HMAC-SHA256 the bytes `id.timestamp.body`, compare with any `v1,` signature."""
    key = base64.b64decode(secret.split("_", 1)[1])
    message = (
        headers["webhook-id"].encode() + b"." + headers["webhook-timestamp"].encode() + b"." + body
    )
    expected = base64.b64encode(hmac.new(key, message, hashlib.sha256).digest()).decode()
    for candidate in headers["webhook-signature"].split(" "):
        version, _, signature = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(signature, expected):
            return True
    return False


@pytest.fixture
def hooked(alice, now, fixture_server):
    """Alice's subscription with a webhook to the loopback receiver (email off), and its
    secret as shown once."""
    fixture_server.add("/hook", "ok")
    subscription = subscribe(
        alice, now, email_enabled=False, webhook_url=fixture_server.url("/hook")
    )
    assert subscription.webhook_secret
    return subscription, subscription.webhook_secret


def test_a_brief_is_posted_as_signed_json(hooked, now, fixture_server):
    subscription, secret = hooked
    add_items(now, "PostgreSQL 18 released", description="Faster vacuum.")
    run = run_and_send(subscription, now)
    [(path, headers, body)] = fixture_server.posts
    assert path == "/hook"
    assert headers["Content-Type"] == "application/json"
    assert verify(secret, headers, body)
    delivery = run.deliveries.get(channel="webhook")
    assert headers["webhook-id"] == delivery.message_id
    assert delivery.status == "sent" and delivery.response_code == 200
    payload = json.loads(body)
    assert payload["type"] == "brief.published"
    data = payload["data"]
    assert data["run_id"] == run.pk
    assert data["subscription"] == {"id": subscription.pk, "name": "Databases"}
    assert data["url"] == f"http://127.0.0.1:8000/inbox/runs/{run.pk}/"
    assert data["overview"]["generator"] == "template"
    [item] = data["items"]
    assert item["title"] == "PostgreSQL 18 released"
    assert item["summary"] == "Faster vacuum."
    assert item["reason"].startswith("matches PostgreSQL")
    assert item["url"].startswith("https://news.example/")


def test_a_changed_body_or_another_secret_does_not_verify(hooked, now, fixture_server):
    subscription, secret = hooked
    add_items(now, "PostgreSQL 18 released")
    run_and_send(subscription, now)
    [(_path, headers, body)] = fixture_server.posts
    assert verify(secret, headers, body)
    assert not verify(secret, headers, body.replace(b"18", b"19"))
    assert not verify(webhook.new_secret(), headers, body)
    assert not verify(secret, {**headers, "webhook-timestamp": "1"}, body)


def test_the_secret_is_whsec_base64_of_32_random_bytes_and_shown_once(hooked, now):
    subscription, secret = hooked
    assert secret.startswith("whsec_")
    assert len(base64.b64decode(secret.removeprefix("whsec_"))) == 32
    endpoint = WebhookEndpoint.objects.get(subscription=subscription)
    assert endpoint.secret_hint == secret[:10] + "…"
    # Changing the URL keeps the secret and shows nothing.
    update_subscription(subscription, {"webhook_url": "https://hooks.example/new"}, now=now)
    assert subscription.webhook_secret is None
    assert WebhookEndpoint.objects.get(subscription=subscription).secret == secret


def test_a_5xx_is_retried_with_backoff_under_the_same_webhook_id(hooked, now, fixture_server):
    subscription, secret = hooked
    add_items(now, "PostgreSQL 18 released")
    fixture_server.add("/hook", "down", status=503)
    delivery = run_and_send(subscription, now).deliveries.get()
    assert (delivery.status, delivery.response_code) == ("failed", 503)
    assert delivery.next_attempt_at == now + timedelta(minutes=1)
    assert "HTTP 503" in delivery.last_error
    fixture_server.add("/hook", "ok")
    delivery = deliveries.send_delivery(delivery.pk, now=delivery.next_attempt_at)
    assert (delivery.status, delivery.attempts) == ("sent", 2)
    first, second = fixture_server.posts
    assert first[1]["webhook-id"] == second[1]["webhook-id"] == delivery.message_id
    assert verify(secret, second[1], second[2])
    assert WebhookEndpoint.objects.get(subscription=subscription).consecutive_failures == 0


def test_a_timeout_is_retried(hooked, now, fixture_server, monkeypatch):
    import socket

    subscription, _secret = hooked
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)  # accepts the connection and never answers
    port = silent.getsockname()[1]
    WebhookEndpoint.objects.filter(subscription=subscription).update(
        url=f"http://localhost:{port}/hook"
    )
    monkeypatch.setattr(webhook, "DEADLINE_SECONDS", 0.5)
    add_items(now, "PostgreSQL 18 released")
    delivery = run_and_send(subscription, now).deliveries.get()
    silent.close()
    assert delivery.status == "failed" and delivery.next_attempt_at is not None
    assert "did not answer in time" in delivery.last_error


def test_a_410_stops_retries_and_disables_the_endpoint(hooked, now, fixture_server):
    subscription, _secret = hooked
    add_items(now, "PostgreSQL 18 released")
    fixture_server.add("/hook", status=410)
    delivery = run_and_send(subscription, now).deliveries.get()
    assert delivery.gave_up and delivery.response_code == 410
    endpoint = WebhookEndpoint.objects.get(subscription=subscription)
    assert not endpoint.enabled
    assert "410 Gone" in endpoint.disabled_reason
    # The next brief goes to the Inbox only.
    add_items(now, "PostgreSQL 19 planned")
    run = run_and_send(subscription, now + timedelta(hours=1))
    assert run.delivered_count == 1 and not run.deliveries.exists()
    assert len(fixture_server.posts) == 1


def test_repeated_failures_disable_the_endpoint_with_the_reason(
    hooked, now, fixture_server, monkeypatch
):
    monkeypatch.setattr(webhook, "DISABLE_AFTER_FAILURES", 3)
    subscription, _secret = hooked
    fixture_server.add("/hook", status=500)
    add_items(now, "PostgreSQL 18 released")
    delivery = run_and_send(subscription, now).deliveries.get()
    delivery = deliveries.send_delivery(delivery.pk, now=delivery.next_attempt_at)
    endpoint = WebhookEndpoint.objects.get(subscription=subscription)
    assert endpoint.enabled and endpoint.consecutive_failures == 2
    delivery = deliveries.send_delivery(delivery.pk, now=delivery.next_attempt_at)
    endpoint.refresh_from_db()
    assert not endpoint.enabled
    assert endpoint.disabled_reason.startswith("3 attempts in a row failed; the last: ")
    assert "HTTP 500" in endpoint.disabled_reason
    # The retry that was planned is refused now, without a request.
    delivery = deliveries.send_delivery(delivery.pk, now=delivery.next_attempt_at)
    assert delivery.gave_up and "disabled" in delivery.last_error
    assert len(fixture_server.posts) == 3
    # Turning it on again starts afresh.
    endpoints.set_enabled(endpoint, True, now=now)
    endpoint.refresh_from_db()
    assert endpoint.enabled and endpoint.consecutive_failures == 0


def test_an_address_the_fetch_policy_refuses_is_a_permanent_failure(alice, now, fixture_server):
    """The URL passed when it was saved; at the send, the host resolves to loopback and the
    test-only allowance is off: refused on the send, nothing connects."""
    subscription = subscribe(
        alice, now, email_enabled=False, webhook_url=fixture_server.url("/hook")
    )
    add_items(now, "PostgreSQL 18 released")
    allowed = {
        "FETCH_TEST_ONLY_LOOPBACK_HOSTS": (),
        "FETCH_EXTRA_ALLOWED_PORTS": [fixture_server.port],
    }
    with override_settings(**allowed):
        delivery = run_and_send(subscription, now).deliveries.get()
    assert delivery.gave_up
    assert "loopback" in delivery.last_error
    assert fixture_server.posts == []


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://127.0.0.1:8000/hook", "loopback"),
        ("http://169.254.169.254/latest/meta-data/", "link-local"),
        ("http://[::ffff:10.0.0.1]/hook", "private"),
        ("http://0x7f000001/hook", "loopback"),
        ("ftp://hooks.example/", "Only http and https"),
        ("https://hooks.example:22/", "Port 22 is not allowed"),
        ("https://user:pw@hooks.example/", "user name or password"),
        ("not a url", "spaces"),
    ],
)
def test_a_webhook_url_the_policy_refuses_is_refused_when_saved(alice, now, url, message):
    subscription = subscribe(alice, now)
    with pytest.raises(SubscriptionInputError) as refused:
        update_subscription(subscription, {"webhook_url": url, "name": "Renamed"}, now=now)
    assert message in refused.value.errors["webhook_url"]
    subscription.refresh_from_db()
    assert subscription.name == "Databases"  # nothing else was saved either
    assert not WebhookEndpoint.objects.exists()


def test_a_redirecting_endpoint_is_not_followed(hooked, now, fixture_server):
    subscription, _secret = hooked
    fixture_server.add("/hook", status=308, Location=fixture_server.url("/other"))
    fixture_server.add("/other", "ok")
    add_items(now, "PostgreSQL 18 released")
    delivery = run_and_send(subscription, now).deliveries.get()
    assert delivery.status == "failed" and delivery.response_code == 308
    assert [path for path, _h, _b in fixture_server.posts] == ["/hook"]


def test_a_test_event_is_sent_now_once_and_logged(hooked, now, fixture_server):
    subscription, secret = hooked
    endpoint = WebhookEndpoint.objects.get(subscription=subscription)
    delivery = deliveries.send_test_event(endpoint, now=now)
    assert (delivery.status, delivery.event, delivery.run_id) == ("sent", "test", None)
    [(_path, headers, body)] = fixture_server.posts
    assert verify(secret, headers, body)
    assert json.loads(body)["type"] == "webhook.test"
    # A failing test event is not retried and does not count against the endpoint.
    fixture_server.add("/hook", status=500)
    failed = deliveries.send_test_event(endpoint, now=now)
    assert failed.gave_up
    endpoint.refresh_from_db()
    assert endpoint.consecutive_failures == 0 and endpoint.enabled


def test_after_a_rotation_both_secrets_sign_for_a_day(hooked, fixture_server):
    from django.utils import timezone

    subscription, old = hooked
    endpoint = WebhookEndpoint.objects.get(subscription=subscription)
    now = timezone.now()  # signatures are made at the real time of sending
    new = endpoints.rotate_secret(endpoint, now=now)
    assert new != old and new.startswith("whsec_")
    with_both = deliveries.send_test_event(endpoint, now=now)
    assert with_both.status == "sent"
    _path, headers, body = fixture_server.posts[-1]
    assert len(headers["webhook-signature"].split(" ")) == 2
    assert verify(new, headers, body) and verify(old, headers, body)
    # A day later only the new secret signs. (The signing time is the real clock.)
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        previous_secret_until=now - timedelta(seconds=1)
    )
    endpoint.refresh_from_db()
    deliveries.send_test_event(endpoint, now=now)
    _path, headers, body = fixture_server.posts[-1]
    assert len(headers["webhook-signature"].split(" ")) == 1
    assert verify(new, headers, body) and not verify(old, headers, body)


def test_removing_the_webhook_stops_its_planned_deliveries(hooked, now, fixture_server):
    subscription, _secret = hooked
    add_items(now, "PostgreSQL 18 released")
    delivery = run_only(subscription, now).deliveries.get()
    update_subscription(subscription, {"webhook_url": ""}, now=now)
    assert not WebhookEndpoint.objects.exists()
    delivery = deliveries.send_delivery(delivery.pk, now=now)
    assert delivery.gave_up and "removed" in delivery.last_error
    assert fixture_server.posts == []


def test_email_and_webhook_are_delivered_independently(alice, now, fixture_server, smtp_server):
    fixture_server.add("/hook", status=500)
    subscription = subscribe(alice, now, webhook_url=fixture_server.url("/hook"))
    add_items(now, "PostgreSQL 18 released")
    run = run_and_send(subscription, now)
    statuses = dict(run.deliveries.values_list("channel", "status"))
    assert statuses == {"email": "sent", "webhook": "failed"}
    assert smtp_server.count == 1
    assert Delivery.objects.filter(run=run).count() == 2


def test_the_admin_shows_deliveries_and_endpoints_but_never_a_secret(
    hooked, now, fixture_server, admin_client
):
    subscription, secret = hooked
    add_items(now, "PostgreSQL 18 released")
    delivery = run_and_send(subscription, now).deliveries.get()
    endpoint = WebhookEndpoint.objects.get(subscription=subscription)
    for url in (
        "/admin/digests/delivery/",
        f"/admin/digests/delivery/{delivery.pk}/change/",
        "/admin/digests/webhookendpoint/",
        f"/admin/digests/webhookendpoint/{endpoint.pk}/change/",
    ):
        response = admin_client.get(url)
        assert response.status_code == 200, url
        assert secret not in response.content.decode()
