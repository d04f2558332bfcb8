"""Every error code the API answers is declared once (config/api/error_codes.py), published in
the schema as an enum and listed in docs/api.md; every refused field carries a code next to
its message. A code invented somewhere without being declared fails this file (the static walk)
or the test that meets it (the handler raises under the test settings)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from config.api import errors
from config.api.error_codes import ERROR_CODES, FIELD_CODES, UndeclaredErrorCode
from config.api.errors import APIInputError
from tests.conftest import api_client_for

ROOT = Path(__file__).resolve().parents[2]
APPS = ("config", "digests", "topics", "inbox", "ingest", "billing")
# `code = "x"`, `code="x"`, `default_code = "x"`, `code: str = "x"`: how refusals name codes.
CODE_LITERAL = re.compile(r"\b(?:default_code|code)\s*(?::\s*str\s*)?=\s*\"([a-z_]+)\"")


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        return APIClient().get("/api/schema/?format=json").json()


def test_the_schema_publishes_both_enums_and_the_error_shape_uses_them(schema):
    components = schema["components"]["schemas"]
    assert components["ErrorCode"]["enum"] == list(ERROR_CODES)
    assert components["FieldErrorCode"]["enum"] == list(FIELD_CODES)
    error = components["Error"]["properties"]["error"]["properties"]
    assert error["code"] == {"$ref": "#/components/schemas/ErrorCode"}
    assert error["field_codes"]["additionalProperties"] == {
        "$ref": "#/components/schemas/FieldErrorCode"
    }
    # Each code's meaning is in the description a client reads.
    assert "- `tier_limit`: A limit of the account's plan" in components["ErrorCode"]["description"]


def test_every_code_a_refusal_names_in_the_source_is_declared():
    found = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for code in CODE_LITERAL.findall(path.read_text()):
                found.setdefault(code, str(path.relative_to(ROOT)))
    assert len(found) > 40  # the walk reads the apps
    declared = ERROR_CODES.keys() | FIELD_CODES.keys()
    undeclared = {code: where for code, where in found.items() if code not in declared}
    assert not undeclared, f"declare these in config/api/error_codes.py: {undeclared}"


def test_every_refusal_class_has_a_declared_code():
    from django.urls import get_resolver
    from rest_framework.exceptions import APIException

    assert get_resolver().url_patterns  # imports every API module and its exception classes

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    codes = {sub: getattr(sub, "code", None) for sub in subclasses(errors.ServiceRefusal)}
    codes |= {sub: sub.default_code for sub in subclasses(APIException)}
    assert len(codes) > 20
    undeclared = {cls.__qualname__: code for cls, code in codes.items() if code not in ERROR_CODES}
    # DRF's own base, never raised by itself, answers with the code of its detail.
    undeclared.pop("ErrorDetail", None)
    assert not undeclared


def test_every_code_is_in_the_docs_table():
    doc = (ROOT / "docs" / "api.md").read_text()
    missing = [code for code in [*ERROR_CODES, *FIELD_CODES] if f"`{code}`" not in doc]
    assert not missing


def test_an_undeclared_code_is_raised_under_the_test_settings_and_logged_otherwise(caplog):
    with pytest.raises(UndeclaredErrorCode):
        errors.error_body("made_up", "No.", {"name": "No."})
    with pytest.raises(UndeclaredErrorCode):
        errors.error_body("invalid", "No.", {"name": "No."}, {"name": "made_up"})
    with override_settings(API_STRICT_ERROR_CODES=False):
        body = errors.error_body("invalid", "No.", {"name": "No."}, {"name": "made_up"})
    assert body["error"]["field_codes"] == {"name": "invalid"}
    assert "made_up" in caplog.text


# --- Per-field codes, as a client reads them ---------------------------------------------------


def _error(response, status=400):
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert set(error["field_codes"]) == set(error["fields"])
    return error


SUBSCRIPTIONS = "/api/v1/subscriptions"


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({}, "name", "required"),
        ({"name": None}, "name", "required"),
        ({"name": "x" * 201}, "name", "max_length"),
        ({"name": "Db", "min_score": 101}, "min_score", "out_of_range"),
        ({"name": "Db", "min_score": "50"}, "min_score", "invalid"),
        ({"name": "Db", "length": "epic"}, "length", "invalid_choice"),
        ({"name": "Db", "source_ids": 3}, "source_ids", "not_a_list"),
        ({"name": "Db", "intrests": ["x"]}, "intrests", "unknown_field"),
    ],
)
def test_each_refused_field_has_its_code_next_to_its_message(alice, body, field, code):
    error = _error(api_client_for(alice).post(SUBSCRIPTIONS, body, format="json"))
    assert error["code"] == "invalid"
    assert error["fields"][field]
    assert error["field_codes"][field] == code


def test_query_parameters_have_codes_too(alice):
    api = api_client_for(alice)
    error = _error(api.get("/api/v1/inbox/items?state=unread&state=saved"))
    assert error["field_codes"] == {"state": "duplicate"}
    error = _error(api.get("/api/v1/inbox/items?foo=1"))
    assert error["field_codes"] == {"foo": "unknown_field"}
    error = _error(api.get("/api/v1/inbox/items?limit=0"))
    assert error["field_codes"] == {"limit": "out_of_range"}
    error = _error(api.get("/api/v1/inbox/items?limit=ten"))
    assert error["field_codes"] == {"limit": "invalid"}


def test_a_body_that_is_not_json_and_a_service_refusal_have_codes(alice):
    api = api_client_for(alice)
    error = _error(api.generic("POST", SUBSCRIPTIONS, b"{nope", content_type="application/json"))
    assert error["code"] == "parse_error"
    assert error["field_codes"] == {"non_field_errors": "parse_error"}
    # A refusal by a rule of a service, not of the field's type: `refused`.
    error = APIInputError({"url": "The site disallows it."}, code="robots_disallowed")
    body = errors.error_body(error.code, str(error.detail), error.fields, error.field_codes)
    assert body["error"]["field_codes"] == {"url": "refused"}


def test_every_field_code_drf_can_give_is_said_in_the_declared_vocabulary():
    from rest_framework import fields, relations, serializers

    from config.api.error_codes import field_code

    codes = {
        code
        for module in (fields, relations, serializers)
        for cls in vars(module).values()
        if isinstance(cls, type)
        for code in getattr(cls, "default_error_messages", None) or {}
    }
    assert len(codes) > 25
    assert sorted(code for code in codes if field_code(code) is None) == []
