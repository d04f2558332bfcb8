"""The OpenAPI schema tells the truth: every operation documents its errors with the one
Error component, request bodies refuse undeclared fields, what a client sends is a component
apart from what it reads back, and every collection is one page shape."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

ERROR_REF = "#/components/schemas/Error"


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        return APIClient().get("/api/schema/?format=json").json()


def operations(schema):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def test_the_schema_is_valid_openapi_without_warnings(db, tmp_path):
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml")
    )


def test_the_schema_is_openapi_3_1_without_3_0_keywords(schema):
    """3.1 (JSON Schema 2020-12, a `webhooks` section): a `nullable` left by a hand-written
    schema would be ignored by 3.1 readers, the field then read as never null."""
    assert schema["openapi"] == "3.1.0"

    def keys(node):
        if isinstance(node, dict):
            for key, value in node.items():
                yield key
                yield from keys(value)
        elif isinstance(node, list):
            for value in node:
                yield from keys(value)

    assert {"nullable", "x-webhooks", "x-nullable"} & set(keys(schema)) == set()


def test_no_success_answer_is_an_untyped_object(schema):
    """Each JSON success answer says its fields (a bare `object` let any answer pass the
    examples replay and the fuzzer's schema check; watches, Apprise and the admin stats did)."""
    components = schema["components"]["schemas"]

    def resolved(rule):
        while "$ref" in rule:
            rule = components[rule["$ref"].rsplit("/", 1)[-1]]
        return rule

    untyped = []
    for path, method, operation in operations(schema):
        for status, answer in operation["responses"].items():
            media = answer.get("content", {}).get("application/json")
            if not status.startswith("2") or media is None:
                continue
            rule = resolved(media["schema"])
            if rule.get("type") == "array":
                rule = resolved(rule["items"])
            if not rule.get("properties"):
                untyped.append(f"{method.upper()} {path} {status}")
    assert untyped == []


def test_every_operation_documents_its_errors_with_the_error_component(schema):
    for path, method, operation in operations(schema):
        responses = operation["responses"]
        expected = {"400", "406", "429"}
        if method in ("post", "put", "patch", "delete"):
            expected |= {"413", "415"}
        if "{" in path:
            expected.add("404")
        if "/public/" not in path:
            expected.add("401")
        assert expected <= set(responses), (method, path, sorted(responses))
        for status, response in responses.items():
            if status.startswith(("4", "5")):
                content = response["content"]["application/json"]["schema"]
                assert content == {"$ref": ERROR_REF}, (method, path, status)
        assert "Retry-After" in responses["429"]["headers"]
    error = schema["components"]["schemas"]["Error"]
    assert error["properties"]["error"]["required"] == ["code", "message", "fields", "field_codes"]


def test_request_bodies_refuse_undeclared_fields_and_are_their_own_components(schema):
    components = schema["components"]["schemas"]
    for path, method, operation in operations(schema):
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if body is None:
            continue
        name = body["schema"]["$ref"].rsplit("/", 1)[-1]
        assert name.endswith("Request"), (method, path, name)
        assert components[name].get("additionalProperties") is False, name
        assert set(operation["requestBody"]["content"]) == {"application/json"}, (method, path)
    create = components["SubscriptionInputRequest"]
    assert create["required"] == ["name"]
    assert "id" not in create["properties"] and "status" not in create["properties"]
    assert "length" in create["properties"]  # write-only input
    read = components["Subscription"]
    assert {"id", "status", "next_run_at"} <= set(read["required"])
    assert read["properties"]["next_run_at"]["type"] == ["string", "null"]  # OpenAPI 3.1
    assert "length" not in read["properties"]


def test_every_collection_is_the_same_page_shape(schema):
    components = schema["components"]["schemas"]
    lists = 0
    for path, method, operation in operations(schema):
        if method != "get":
            continue
        ok = operation["responses"]["200"]["content"]
        ref = next(iter(ok.values()))["schema"].get("$ref", "")
        shape = components.get(ref.rsplit("/", 1)[-1], {})
        if "results" not in shape.get("properties", {}):
            assert shape.get("type") != "array", path
            continue
        lists += 1
        assert set(shape["properties"]) == {"next", "previous", "results"}, path
        assert set(shape["required"]) == {"next", "previous", "results"}, path
        names = {p["name"] for p in operation.get("parameters", [])}
        assert {"cursor", "limit"} <= names, path
    assert lists >= 7


def test_answers_link_to_the_operations_that_take_their_ids(schema):
    created = schema["paths"]["/api/v1/subscriptions"]["post"]["responses"]["201"]["links"]
    run_now = created["v1_subscriptions_run_create"]
    assert run_now["parameters"] == {"subscription_id": "$response.body#/id"}
    listed = schema["paths"]["/api/v1/inbox/items"]["get"]["responses"]["200"]["links"]
    assert listed["v1_inbox_items_actions_create"]["parameters"] == {
        "run_item_id": "$response.body#/results/0/id"
    }


def test_every_operation_has_a_summary_and_one_declared_tag(schema):
    from config.api.operations import SUMMARIES, TAGS

    declared = {tag["name"] for tag in schema["tags"]}
    assert declared <= {*TAGS, "webhooks"}
    seen, summaries = set(), []
    for path, method, operation in operations(schema):
        seen.add(f"{method.upper()} {path}")
        assert operation.get("summary"), (method, path)
        assert len(operation["summary"]) <= 60, operation["summary"]
        summaries.append(operation["summary"])
        assert len(operation["tags"]) == 1 and operation["tags"][0] in declared, (method, path)
    assert len(summaries) == len(set(summaries))  # each names its own operation
    assert set(SUMMARIES) == seen  # no line left for an operation that is gone
    tags = {operation["tags"][0] for _p, _m, operation in operations(schema)}
    assert {"subscriptions", "inbox", "runs", "account", "admin"} <= tags


def test_a_query_parameter_with_a_components_values_refers_to_it(schema):
    """One list of values, one enum: a generated client gets one TimezoneEnum, not three."""
    components = {
        tuple(component["enum"]): name
        for name, component in schema["components"]["schemas"].items()
        if "enum" in component
    }
    inlined = [
        f"{method.upper()} {path} ?{parameter['name']} (= {components[tuple(values)]})"
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
        for parameter in operation.get("parameters", [])
        if tuple(values := parameter["schema"].get("enum") or ()) in components
    ]
    assert inlined == []
    zones = [
        parameter
        for parameter in schema["paths"]["/api/v1/schedule/preview"]["get"]["parameters"]
        if parameter["name"] == "timezone"
    ]
    assert zones[0]["schema"] == {"$ref": "#/components/schemas/TimezoneEnum"}
    assert "Default: `UTC`" in zones[0]["description"]
