"""The schema's examples are true: each validates against the schema of what it shows, and
replayed against the API it gets the same status, the same fields and the same values where
an example can fix them (config/api/examples.py)."""

from __future__ import annotations

import pytest
import time_machine
from jsonschema import Draft202012Validator
from rest_framework.test import APIClient

from config.api.examples import EXAMPLE_MOMENT, EXAMPLES, Example
from tests.conftest import api_client_for, make_user
from tests.factories import on_plan
from tests.inbox.test_sync_api import deliver


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        return APIClient().get("/api/schema/?format=json").json()


def as_json_schema(node):
    """OpenAPI 3.0 `nullable: true` as JSON Schema says it, also beside an `allOf` (which
    strict OpenAPI 3.0 validators read as not nullable, as schemathesis does not)."""
    if isinstance(node, list):
        return [as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: as_json_schema(value) for key, value in node.items()}
    if converted.pop("nullable", False):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


def validate(schema: dict, rule: dict, value) -> None:
    root = as_json_schema({**rule, "components": schema["components"]})
    Draft202012Validator(root, format_checker=Draft202012Validator.FORMAT_CHECKER).validate(value)


def operation_of(schema: dict, example: Example) -> dict:
    method, path = example.operation.split(" ", 1)
    return schema["paths"][path][method.lower()]


def answer_rule(schema: dict, example: Example) -> dict:
    answer = operation_of(schema, example)["responses"][str(example.status)]
    return answer["content"]["application/json"]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e.operation} {e.name}")
def test_each_example_is_in_the_schema_and_valid_against_it(schema, example):
    answer = answer_rule(schema, example)
    assert answer["examples"][example.name]["value"] == example.response
    validate(schema, answer["schema"], example.response)
    body = operation_of(schema, example).get("requestBody", {}).get("content", {})
    if example.request is not None and example.request_in_schema:
        media = body["application/json"]
        assert media["examples"][example.name]["value"] == example.request
        validate(schema, media["schema"], example.request)


def test_the_main_operations_have_examples(schema):
    shown = {e.operation for e in EXAMPLES}
    assert {"POST /api/v1/subscriptions", "GET /api/v1/inbox/items"} <= shown


@pytest.fixture
def reader(db):
    """A reader as the examples' `you@example.com`, in Berlin, with two delivered items."""
    moment = time_machine.travel(EXAMPLE_MOMENT, tick=False)
    moment.start()
    try:
        from datetime import datetime

        now = datetime.fromisoformat(EXAMPLE_MOMENT)
        user = make_user("you@example.com", timezone="Europe/Berlin", now=now)
        on_plan(user, "team")
        run = deliver(user, now, "Databases", "PostgreSQL", 2)
        yield user, list(run.items.order_by("rank").values_list("pk", flat=True))
    finally:
        moment.stop()


def same_shape(expected, got, where="") -> None:
    """The same fields, all the way down (the first entry of a list stands for all)."""
    if isinstance(expected, dict):
        assert isinstance(got, dict) and set(got) == set(expected), (where, got)
        for key, value in expected.items():
            same_shape(value, got[key], f"{where}.{key}")
    elif isinstance(expected, list) and expected:
        assert isinstance(got, list) and got, where
        same_shape(expected[0], got[0], f"{where}.0")


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e.operation} {e.name}")
def test_each_example_replayed_gets_the_same_answer(schema, reader, example):
    user, item_ids = reader
    api = api_client_for(user)
    method, path = example.operation.split(" ", 1)
    request = example.request
    if path.endswith("/bulk"):
        request = {**request, "ids": item_ids}  # the examples' ids are this reader's items
    url = f"{path}?{example.query}" if example.query else path
    with time_machine.travel(EXAMPLE_MOMENT, tick=False):
        response = getattr(api, method.lower())(url, request, format="json")
    assert response.status_code == example.status, response.content
    got = response.json()
    validate(schema, answer_rule(schema, example)["schema"], got)
    same_shape(example.response, got)
    for name in example.same:
        assert got[name] == example.response[name], name
