"""The schema's `x-webhooks` says what a receiver really gets: real deliveries — a brief and a
test event, sent to a loopback receiver — validate against the documented bodies (which refuse
undocumented fields) and headers."""

from __future__ import annotations

import json
import re

import pytest
from openapi_schema_validator import OAS30Validator
from rest_framework.test import APIClient

from digests.delivery import service as deliveries
from digests.models import WebhookEndpoint
from tests.digests.delivery_helpers import add_items, run_and_send, subscribe


@pytest.fixture
def schema(db):
    return APIClient().get("/api/schema/?format=json").json()


@pytest.fixture
def hooked(alice, now, fixture_server):
    fixture_server.add("/hook", "ok")
    return subscribe(alice, now, email_enabled=False, webhook_url=fixture_server.url("/hook"))


def assert_documented(schema: dict, event: str, headers: dict, body: bytes) -> None:
    operation = schema["x-webhooks"][event]["post"]
    for parameter in operation["parameters"]:
        value = headers.get(parameter["name"])
        assert value is not None, parameter["name"]
        assert re.fullmatch(parameter["schema"]["pattern"], value), (parameter["name"], value)
    ref = operation["requestBody"]["content"]["application/json"]["schema"]
    validator = OAS30Validator(
        {**ref, "components": schema["components"]}, format_checker=OAS30Validator.FORMAT_CHECKER
    )
    validator.validate(json.loads(body))


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
    for event in ("brief.published", "webhook.test"):
        operation = schema["x-webhooks"][event]["post"]
        names = [p["name"] for p in operation["parameters"] if p["in"] == "header"]
        assert names == ["webhook-id", "webhook-timestamp", "webhook-signature"]
        assert "HMAC-SHA256" in operation["parameters"][2]["description"]
        assert {"2XX", "410", "default"} <= set(operation["responses"])
