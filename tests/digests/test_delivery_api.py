"""The API's side of delivery: email and webhook settings on the subscription endpoints,
refusals in the shared error shape, deliveries on the run detail, retry, and the webhook's
secret rotation, test event and switch."""

from __future__ import annotations

import pytest

from digests.models import Delivery, Subscription, WebhookEndpoint
from tests.conftest import api_client_for
from tests.digests.delivery_helpers import add_items, run_and_send, subscribe

BASE = {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}


def test_email_settings_are_created_read_and_changed(api, alice):
    created = api.post(
        "/api/v1/subscriptions",
        {**BASE, "email_enabled": True, "email_subject": "{name} on {date}"},
        format="json",
    )
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["email_enabled"] is True
    assert body["email_to"] == ""
    assert body["email_recipient"] == "alice@example.com"
    assert body["email_subject"] == "{name} on {date}"
    assert body["webhook"] is None
    assert "webhook_secret" not in body and "webhook_url" not in body
    changed = api.patch(
        f"/api/v1/subscriptions/{body['id']}", {"email_to": "Me@Example.org"}, format="json"
    )
    assert changed.json()["email_recipient"] == "me@example.org"


def test_email_is_off_by_default(api):
    body = api.post("/api/v1/subscriptions", BASE, format="json").json()
    assert body["email_enabled"] is False


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"email_subject": "{name} {secret}"}, "email_subject", "Unknown placeholder {secret}"),
        ({"email_subject": "{name.__class__}"}, "email_subject", "Unknown placeholder"),
        ({"email_subject": "{date:%Y}"}, "email_subject", "Unknown placeholder {date:%Y}"),
        ({"email_subject": "{0}"}, "email_subject", "Unknown placeholder {0}"),
        ({"email_subject": "Brief {name"}, "email_subject", "Unbalanced braces"),
        ({"email_subject": "a\r\nBcc: x@evil.example"}, "email_subject", "one line"),
        ({"email_subject": "x" * 201}, "email_subject", "At most 200"),
        ({"email_to": "not-an-address"}, "email_to", "valid email address"),
        ({"email_enabled": "yes"}, "email_enabled", "true or false"),
        ({"webhook_url": "http://10.0.0.1/hook"}, "webhook_url", "private address"),
        ({"webhook_url": "gopher://hooks.example/"}, "webhook_url", "Only http and https"),
    ],
)
def test_bad_delivery_settings_are_refused_naming_the_field_and_change_nothing(
    api, alice, now, data, field, message
):
    subscription = subscribe(alice, now, email_enabled=False)
    response = api.patch(
        f"/api/v1/subscriptions/{subscription.pk}", {"name": "Renamed", **data}, format="json"
    )
    error = response.json()["error"]
    if message == "private address":
        # A well-formed address the fetch policy does not post to: 422, as a source's is.
        assert (response.status_code, error["code"]) == (422, "refused_by_policy")
    else:
        assert (response.status_code, error["code"]) == (400, "invalid")
    assert message in error["fields"][field]
    subscription.refresh_from_db()
    assert subscription.name == "Databases" and not subscription.email_enabled
    assert not WebhookEndpoint.objects.exists()


def test_a_refusal_is_in_the_askers_language(api, alice, now):
    subscription = subscribe(alice, now)
    response = api.patch(
        f"/api/v1/subscriptions/{subscription.pk}",
        {"email_subject": "{oops}"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert "未知的占位符 {oops}" in response.json()["error"]["fields"]["email_subject"]


def test_the_webhook_secret_is_in_the_creating_response_only(api, alice, now):
    subscription = subscribe(alice, now)
    url = f"/api/v1/subscriptions/{subscription.pk}"
    created = api.patch(url, {"webhook_url": "https://hooks.example/tidings"}, format="json")
    body = created.json()
    secret = body["webhook_secret"]
    assert secret.startswith("whsec_")
    assert body["webhook"] == {
        "url": "https://hooks.example/tidings",
        "enabled": True,
        "disabled_reason": "",
        "consecutive_failures": 0,
        "secret_hint": secret[:10] + "…",
    }
    assert "webhook_secret" not in api.get(url).json()
    again = api.patch(url, {"webhook_url": "https://hooks.example/other"}, format="json")
    assert "webhook_secret" not in again.json()
    rotated = api.post(f"{url}/webhook/rotate-secret").json()["webhook_secret"]
    assert rotated.startswith("whsec_") and rotated != secret
    assert api.patch(url, {"webhook_url": ""}, format="json").json()["webhook"] is None


def test_the_run_detail_lists_its_deliveries(api, alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released")
    run = run_and_send(subscribe(alice, now), now)
    body = api.get(f"/api/v1/runs/{run.pk}").json()
    [delivery] = body["deliveries"]
    assert delivery["channel"] == "email"
    assert delivery["status"] == "sent"
    assert delivery["recipient"] == "alice@example.com"
    assert delivery["attempts"] == 1 and delivery["gave_up"] is False


def test_a_failed_delivery_is_retried_through_the_api_and_a_sent_one_is_refused(
    api, alice, now, smtp_server
):
    add_items(now, "PostgreSQL 18 released")
    smtp_server.refuse_next("554 5.7.1 Rejected")
    run = run_and_send(subscribe(alice, now), now)
    delivery = run.deliveries.get()
    assert delivery.gave_up
    # Tasks run inline in tests: the retry is sent before the answer.
    response = api.post(f"/api/v1/deliveries/{delivery.pk}/retry")
    assert response.status_code == 202
    delivery.refresh_from_db()
    assert delivery.status == "sent" and smtp_server.count == 1
    again = api.post(f"/api/v1/deliveries/{delivery.pk}/retry")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "conflict"
    assert "would send it twice" in again.json()["error"]["message"]
    assert smtp_server.count == 1


def test_nobody_else_sees_or_retries_a_delivery(alice, bob, now, smtp_server):
    add_items(now, "PostgreSQL 18 released")
    smtp_server.refuse_next("554 5.7.1 Rejected")
    run = run_and_send(subscribe(alice, now), now)
    delivery = run.deliveries.get()
    bobs = api_client_for(bob)
    assert bobs.post(f"/api/v1/deliveries/{delivery.pk}/retry").status_code == 404
    assert bobs.get(f"/api/v1/subscriptions/{run.subscription_id}/deliveries").status_code == 404
    assert bobs.post(f"/api/v1/subscriptions/{run.subscription_id}/webhook/test").status_code == 404
    assert Delivery.objects.get(pk=delivery.pk).status == "failed"


def test_the_deliveries_log_and_a_test_event(api, alice, now, fixture_server):
    fixture_server.add("/hook", "ok")
    subscription = subscribe(
        alice, now, email_enabled=False, webhook_url=fixture_server.url("/hook")
    )
    base = f"/api/v1/subscriptions/{subscription.pk}"
    sent = api.post(f"{base}/webhook/test").json()
    assert (sent["status"], sent["event"], sent["response_code"]) == ("sent", "test", 200)
    log = api.get(f"{base}/deliveries").json()
    assert [d["id"] for d in log["results"]] == [sent["id"]]
    off = api.post(f"{base}/webhook/disable").json()
    assert off["enabled"] is False and off["disabled_reason"] == "Turned off by you."
    # A disabled webhook sends nothing, test events included, and says why.
    refused = api.post(f"{base}/webhook/test")
    assert refused.status_code == 409
    assert "disabled" in refused.json()["error"]["fields"]["webhook"]
    assert api.get(f"{base}/deliveries").json()["results"][0]["id"] == sent["id"]
    assert len(fixture_server.posts) == 1
    assert api.post(f"{base}/webhook/enable").json()["enabled"] is True


def test_webhook_actions_without_a_webhook_are_404_in_the_error_shape(api, alice, now):
    subscription = subscribe(alice, now)
    response = api.post(f"/api/v1/subscriptions/{subscription.pk}/webhook/test")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_the_subscription_list_costs_the_same_queries_with_webhooks(
    api, alice, now, django_assert_max_num_queries
):
    for i in range(3):  # the free plan's most
        subscribe(alice, now, name=f"S{i}", webhook_url=f"https://hooks.example/{i}")
    with django_assert_max_num_queries(6):
        response = api.get("/api/v1/subscriptions")
    assert len(response.json()["results"]) == 3
    assert Subscription.objects.count() == 3
