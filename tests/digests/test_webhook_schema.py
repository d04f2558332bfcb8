"""The schema's `webhooks` (OpenAPI 3.1) says what a receiver really gets: real deliveries — a
brief and a test event, sent to a loopback receiver — validate against the documented bodies
(which refuse undocumented fields) and headers, every event the product sends is there, and
each event's example is signed as deliveries are and verifies with the `standardwebhooks`
library (the reference implementation a receiver would use)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest
import time_machine
from jsonschema import Draft202012Validator
from rest_framework.test import APIClient
from standardwebhooks import Webhook, WebhookVerificationError

from digests.delivery import service as deliveries
from digests.delivery import webhook
from digests.delivery.webhook_schema import EXAMPLE_SECRET
from digests.models import Delivery, Subscription, WebhookEndpoint
from tests.digests.delivery_helpers import add_items, run_and_send, subscribe

EVENTS = (webhook.EVENT_BRIEF, webhook.EVENT_TEST)


@pytest.fixture
def schema(db):
    return APIClient().get("/api/schema/?format=json").json()


@pytest.fixture
def hooked(alice, now, fixture_server):
    fixture_server.add("/hook", "ok")
    return subscribe(alice, now, email_enabled=False, webhook_url=fixture_server.url("/hook"))


def assert_documented(schema: dict, event: str, headers: dict, body: bytes) -> None:
    operation = schema["webhooks"][event]["post"]
    for parameter in operation["parameters"]:
        value = headers.get(parameter["name"])
        assert value is not None, parameter["name"]
        assert re.fullmatch(parameter["schema"]["pattern"], value), (parameter["name"], value)
    ref = operation["requestBody"]["content"]["application/json"]["schema"]
    validate_body(schema, ref, json.loads(body))


def validate_body(schema: dict, ref: dict, body) -> None:
    validator = Draft202012Validator(
        {**ref, "components": schema["components"]},
        format_checker=Draft202012Validator.FORMAT_CHECKER,
    )
    validator.validate(body)


def test_a_delivered_brief_is_the_documented_event(schema, hooked, now, fixture_server):
    add_items(now, "PostgreSQL 18 released", "SQLite 4 announced", description="Faster.")
    run_and_send(hooked, now)
    [(_path, headers, body)] = fixture_server.posts
    assert json.loads(body)["data"]["items"]  # a brief with items, not an empty one
    assert_documented(schema, "brief.published", headers, body)


def test_a_test_event_is_the_documented_event(schema, hooked, now, fixture_server):
    endpoint = WebhookEndpoint.objects.get(subscription=hooked)
    deliveries.send_test_event(endpoint, now=now)
    [(_path, headers, body)] = fixture_server.posts
    assert_documented(schema, "webhook.test", headers, body)


def test_an_undocumented_field_fails_the_check(schema, hooked, now, fixture_server):
    endpoint = WebhookEndpoint.objects.get(subscription=hooked)
    deliveries.send_test_event(endpoint, now=now)
    [(_path, headers, body)] = fixture_server.posts
    changed = json.loads(body)
    changed["data"]["extra"] = 1
    with pytest.raises(Exception, match="extra"):
        assert_documented(schema, "webhook.test", headers, json.dumps(changed).encode())


def test_each_event_documents_the_signature_and_the_answers(schema):
    assert schema["openapi"].startswith("3.1.")
    assert "x-webhooks" not in schema
    for event in EVENTS:
        operation = schema["webhooks"][event]["post"]
        names = [p["name"] for p in operation["parameters"] if p["in"] == "header"]
        assert names == ["webhook-id", "webhook-timestamp", "webhook-signature"]
        assert "HMAC-SHA256" in operation["parameters"][2]["description"]
        assert {"2XX", "410", "default"} <= set(operation["responses"])


def test_every_event_the_product_sends_is_documented(schema, db):
    """One event per kind of webhook delivery, named as `webhook.payload` names it."""
    sent = set()
    for kind in Delivery.Event.values:
        delivery = Delivery(event=kind, subscription=Subscription(pk=1, name="Databases"))
        brief = type("B", (), {"as_payload": lambda self: {}})()
        sent.add(webhook.payload(delivery, brief, now=datetime(2026, 11, 28, tzinfo=UTC))["type"])
    assert sent == set(EVENTS) == set(schema["webhooks"])


def example_of(schema: dict, event: str) -> tuple[dict[str, str], bytes, dict]:
    """An event's example from the schema: its headers, its body as sent, its body schema."""
    operation = schema["webhooks"][event]["post"]
    headers = {p["name"]: p["example"] for p in operation["parameters"] if p["in"] == "header"}
    media = operation["requestBody"]["content"]["application/json"]
    [example] = media["examples"].values()
    return headers, webhook.encode(example["value"]), media["schema"]


@pytest.mark.parametrize("event", EVENTS)
def test_each_example_is_signed_as_deliveries_are_and_verifies(schema, event):
    headers, body, rule = example_of(schema, event)
    assert f"`{EXAMPLE_SECRET}`" in schema["webhooks"][event]["post"]["requestBody"]["description"]
    validate_body(schema, rule, json.loads(body))
    assert json.loads(body)["type"] == event
    stamp = int(headers["webhook-timestamp"])
    assert headers["webhook-signature"] == webhook.sign(
        EXAMPLE_SECRET, headers["webhook-id"], stamp, body
    )
    for name, value in headers.items():
        parameter = next(
            p for p in schema["webhooks"][event]["post"]["parameters"] if p["name"] == name
        )
        assert re.fullmatch(parameter["schema"]["pattern"], value), name
    # The library checks the stamp against its clock: it is the example's moment here.
    with time_machine.travel(datetime.fromtimestamp(stamp, UTC), tick=False):
        assert Webhook(EXAMPLE_SECRET).verify(body, headers) == json.loads(body)
        with pytest.raises(WebhookVerificationError):
            Webhook(webhook.new_secret()).verify(body, headers)
        # The same JSON in other bytes is another message: the signature is over the bytes.
        respelled = body.replace(b'"data"', b'"dat\\u0061"', 1)
        assert json.loads(respelled) == json.loads(body)
        with pytest.raises(WebhookVerificationError):
            Webhook(EXAMPLE_SECRET).verify(respelled, headers)


def test_a_real_delivery_verifies_with_the_library(hooked, now, fixture_server):
    """What the product sends (not only its examples) verifies with its endpoint's secret."""
    endpoint = WebhookEndpoint.objects.get(subscription=hooked)
    with time_machine.travel(now, tick=False):
        deliveries.send_test_event(endpoint, now=now)
        [(_path, headers, body)] = fixture_server.posts
        lowered = {name.lower(): value for name, value in headers.items()}
        assert Webhook(endpoint.secret).verify(body, lowered)["type"] == webhook.EVENT_TEST
