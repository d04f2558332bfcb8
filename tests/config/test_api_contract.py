"""The API's contract for whatever a client sends: JSON only, strict types, every refusal a 4xx
in the one error shape — never a 500, never an HTML page, never a silent change. The fast
subset of what bin/api-fuzz (schemathesis) tries against a live server."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from digests.models import DEFAULT_MIN_SCORE, Subscription
from digests.subscriptions.service import create_subscription
from tests.conftest import api_client_for, make_user
from tests.factories import on_plan

SUBSCRIPTIONS = "/api/v1/subscriptions"
VALID = {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}


def send(api, method: str, path: str, body: bytes | str, content_type="application/json"):
    return getattr(api, method)(path, data=body, content_type=content_type)


def assert_error(response, status: int, field: str | None = None) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    error = response.json()["error"]
    assert set(error) == {"code", "message", "fields", "field_codes"}
    assert set(error["field_codes"]) == set(error["fields"])
    assert error["message"]
    if field is not None:
        assert field in error["fields"], error
        assert error["fields"][field]
    return error


@pytest.fixture
def owned(alice, now):
    return create_subscription(alice, VALID, now=now)


# --- Wrong JSON types: refused naming the field, nothing changes ------------------------------


@pytest.mark.parametrize(
    ("change", "field", "fragment"),
    [
        ({"run_at": 1767225600, "cron": ""}, "run_at", "ISO 8601"),
        ({"run_at": ["2030-01-01T00:00:00Z"], "cron": ""}, "run_at", "ISO 8601"),
        ({"interests": 5}, "interests", "list"),
        ({"interests": None}, "interests", "null"),
        ({"interests": "PostgreSQL,Rust"}, "interests", "list"),
        ({"min_score": "70"}, "min_score", "whole number"),
        ({"min_score": True}, "min_score", "whole number"),
        ({"min_score": 59.9}, "min_score", "whole number"),
        ({"min_score": 10**30}, "min_score", "at most 100"),
        ({"summaries_enabled": 1}, "summaries_enabled", "true or false"),
        ({"summaries_enabled": "yes"}, "summaries_enabled", "true or false"),
        ({"name": 42}, "name", "string"),
        ({"name": "x" * 201}, "name", "At most 200 characters"),
        ({"tone": "x" * 33}, "tone", "At most 32 characters"),
        ({"redelivery": 1}, "redelivery", "Choose one of"),
        ({"source_ids": ["١٢"]}, "source_ids.0", "whole number"),
        ({"source_ids": ["12"]}, "source_ids.0", "whole number"),
        ({"source_ids": [2**64]}, "source_ids.0", "at most"),
        ({"source_ids": "12"}, "source_ids", "list"),
        ({"intrests": ["typo"]}, "intrests", "Unknown field"),
    ],
)
def test_a_wrong_type_is_refused_not_coerced(api, owned, change, field, fragment):
    created = api.post(SUBSCRIPTIONS, {**VALID, **change})
    error = assert_error(created, 400, field)
    assert fragment in error["fields"][field]
    patched = api.patch(f"{SUBSCRIPTIONS}/{owned.pk}", change)
    assert_error(patched, 400, field)
    assert Subscription.objects.count() == 1
    owned.refresh_from_db()
    assert (owned.name, owned.min_score, owned.interests) == (
        "Databases",
        DEFAULT_MIN_SCORE,
        ["PostgreSQL"],
    )


def test_a_whole_number_written_as_a_float_is_that_integer(api, alice):
    """JSON has one number type, and JSON Schema (the OpenAPI 3.1 schema's) counts 70.0 as an
    integer: the fuzzer sent `{"subscription_id": 30.0}` and got a 400. A fraction still is
    refused, in the body's lists as in its fields."""
    created = api.post(SUBSCRIPTIONS, {**VALID, "name": "Floats", "min_score": 70.0})
    assert created.status_code == 201, created.content
    assert created.json()["min_score"] == 70
    assert type(created.json()["min_score"]) is int
    assert Subscription.objects.get(owner=alice, name="Floats").min_score == 70
    fraction = api.post(SUBSCRIPTIONS, {**VALID, "name": "Fraction", "min_score": 70.5})
    assert "whole number" in assert_error(fraction, 400, "min_score")["fields"]["min_score"]
    assert not Subscription.objects.filter(owner=alice, name="Fraction").exists()


@pytest.mark.parametrize("body", ["[]", "[1, 2]", "false", "null", "42", '"text"'])
def test_a_body_that_is_not_an_object_is_refused(api, owned, body):
    for method, path in [
        ("post", SUBSCRIPTIONS),
        ("patch", f"{SUBSCRIPTIONS}/{owned.pk}"),
        ("post", "/api/v1/topics"),
        ("post", "/api/v1/inbox/items/bulk"),
        ("post", "/api/v1/sources/pages"),
    ]:
        error = assert_error(send(api, method, path, body), 400, "non_field_errors")
        assert "JSON object" in error["fields"]["non_field_errors"]
    assert Subscription.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        (b'{"name": "a\\u0000b"}', "NUL"),
        (b'{"name": "\\ud800"}', "lone surrogate"),
        (b'{"interests": ["ok", "\\udfff"]}', "lone surrogate"),
        (b'{"\\u0000": 1}', "NUL"),
        (b"[" * 5000 + b"]" * 5000, "Nested more than"),
        (b'{"a": ' * 30 + b"1" + b"}" * 30, "Nested more than"),
        (b'{"min_score": 1e999}', "too large"),
        (b'{"min_score": NaN}', "not a JSON number"),
        (b'{"min_score": ' + b"9" * 5000 + b"}", "Malformed JSON"),
        (b'{"name": "a", "name": "b"}', "appears twice"),
        (b'{"name": ', "Malformed JSON"),
        (b"\xff\xfe{}", "not UTF-8"),
    ],
)
def test_unstorable_or_malformed_json_is_a_400_naming_the_problem(api, body, fragment):
    response = send(api, "post", SUBSCRIPTIONS, body)
    error = assert_error(response, 400)
    assert fragment in " ".join(error["fields"].values()) + error["message"]
    assert Subscription.objects.count() == 0


def test_the_path_of_a_bad_string_is_named(api):
    response = send(api, "post", SUBSCRIPTIONS, b'{"name": "x", "interests": ["ok", "\\u0000"]}')
    assert_error(response, 400, "interests.1")


def test_a_body_over_the_limit_is_413_and_not_read_whole(api):
    with override_settings(API_MAX_BODY_BYTES=2048):
        body = json.dumps({**VALID, "topic": "x" * 5000})
        error = assert_error(send(api, "post", SUBSCRIPTIONS, body), 413)
    assert error["code"] == "too_large"
    assert "2048" in error["message"]


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ("name=Databases&cron=0+8+*+*+*", "application/x-www-form-urlencoded"),
        ("name,cron", "text/csv"),
        ('{"name": "Databases"}', "text/plain"),
    ],
)
def test_other_content_types_are_415_even_where_no_body_is_read(api, owned, body, content_type):
    for method, path in [
        ("post", SUBSCRIPTIONS),
        ("patch", f"{SUBSCRIPTIONS}/{owned.pk}"),
        ("post", f"{SUBSCRIPTIONS}/{owned.pk}/run"),  # takes no body at all
    ]:
        error = assert_error(send(api, method, path, body, content_type), 415)
        assert "application/json" in error["message"]
    owned.refresh_from_db()
    assert owned.name == "Databases"
    assert not owned.runs.exists()


def test_a_multipart_form_cannot_store_a_list_as_text(api, owned):
    response = api.patch(f"{SUBSCRIPTIONS}/{owned.pk}", {"name": ["x"]}, format="multipart")
    assert_error(response, 415)
    owned.refresh_from_db()
    assert owned.name == "Databases"


# --- Query strings, public endpoints included -------------------------------------------------


@pytest.mark.parametrize(
    ("path", "param"),
    [
        ("/api/v1/public/topics?locale=%00", "locale"),
        ("/api/v1/public/topics?sort=%ED%A0%80", "sort"),
        ("/api/v1/schedule/preview?cron=0+8+*+*+*&timezone=%FF", "timezone"),
        ("/api/v1/inbox/items?q=a%00b", "q"),
    ],
)
def test_nul_and_broken_utf8_in_query_strings_are_refused(api, path, param):
    assert_error(api.get(path), 400, param)
    assert_error(APIClient().get(path), 400, param)


@pytest.mark.parametrize(
    ("query", "param"),
    [
        ("count=%D9%A1%D9%A2", "count"),  # Arabic-Indic digits
        ("count=5.0", "count"),
        ("count=+5", "count"),
        ("count=1&count=2", "count"),
        ("colour=red", "colour"),
    ],
)
def test_query_parameters_are_strict_too(db, query, param):
    response = APIClient().get(f"/api/v1/schedule/preview?cron=0+8+*+*+*&{query}")
    assert_error(response, 400, param)


# --- Paths, methods, formats: JSON everywhere under /api/ -------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/nothing-here",
        "/api/v1/subscriptions/",
        "/api/v2/subscriptions",
        "/api/",
        "/api/v1/subscriptions/%00",
        "/api/v1/topics/%0Aslug/follow/x",
    ],
)
def test_unmatched_paths_are_json_404s_for_every_method(api, path):
    for method in ("get", "post", "put", "patch", "delete"):
        error = assert_error(getattr(api, method)(path), 404)
        assert error["code"] == "not_found"
    assert_error(APIClient().get(path), 404)
    with override_settings(DEBUG=True):  # `make start`: still JSON, not Django's debug page
        assert_error(APIClient().get(path), 404)


def test_an_unknown_parameter_is_refused_listing_every_parameter_taken(api):
    error = assert_error(api.get("/api/v1/inbox/items?foo=1"), 400, "foo")
    taken = error["fields"]["foo"].split(": ", 1)[1].rstrip(".").split(", ")
    assert {"state", "q", "cursor", "limit"} <= set(taken)


def test_a_bad_cursor_or_limit_is_a_400_naming_the_parameter(api, owned):
    # Of the documented form but not handed out by the list: 404 (nothing is there).
    assert_error(api.get(f"{SUBSCRIPTIONS}?cursor=garbage"), 404, "cursor")
    assert_error(api.get(f"{SUBSCRIPTIONS}?limit=0"), 400, "limit")
    assert_error(api.get(f"{SUBSCRIPTIONS}?limit=abc"), 400, "limit")
    assert_error(api.get("/api/v1/inbox/items?cursor=%C2%B2.1"), 400, "cursor")
    assert_error(api.get("/api/v1/public/topics?cursor=bm9wZQ"), 404, "cursor")
    assert_error(api.get("/api/v1/packs?cursor=!!"), 400, "cursor")


def test_a_wrong_method_is_a_json_405(api, owned):
    error = assert_error(api.put(f"{SUBSCRIPTIONS}/{owned.pk}", VALID), 405)
    assert error["code"] == "method_not_allowed"


def test_a_client_that_refuses_json_gets_a_json_406(api):
    response = api.get(SUBSCRIPTIONS, HTTP_ACCEPT="text/html")
    assert_error(response, 406)


def test_an_unhandled_error_under_the_api_is_a_json_500(api, monkeypatch):
    from digests.subscriptions import api as digests_api

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(digests_api.subscriptions, "create_subscription", broken)
    api.raise_request_exception = False
    error = assert_error(api.post(SUBSCRIPTIONS, VALID), 500)
    assert error["code"] == "server_error"
    assert "boom" not in error["message"]


# --- Lists: one shape ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        SUBSCRIPTIONS,
        "/api/v1/sources",
        "/api/v1/packs",
        "/api/v1/topics",
        "/api/v1/public/topics",
        "/api/v1/inbox/items",
        "/api/v1/billing/transactions",
        "/api/v1/push/devices",
    ],
)
def test_every_collection_is_a_page_with_next_previous_and_results(api, owned, path):
    body = api.get(f"{path}?limit=1").json()
    assert set(body) == {"next", "previous", "results"}
    assert isinstance(body["results"], list)
    # A cursor the API did not make, even an empty one, is refused the same way everywhere.
    assert_error(api.get(f"{path}?cursor="), 400, "cursor")


def test_following_next_reads_every_item_once(api, alice, now):
    on_plan(alice, "pro")
    for number in range(5):
        create_subscription(alice, {**VALID, "name": f"S{number}"}, now=now)
    names, url = [], f"{SUBSCRIPTIONS}?limit=2"
    while url:
        page = api.get(url).json()
        names += [s["name"] for s in page["results"]]
        url = page["next"]
    assert sorted(names) == [f"S{n}" for n in range(5)]


# --- Rate limits -------------------------------------------------------------------------------


def rates(**overrides):
    from django.conf import settings

    return override_settings(
        REST_FRAMEWORK={
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {
                **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                **overrides,
            },
        }
    )


def test_answers_carry_rate_limit_headers(api):
    with rates(user="50/min", token="10/min"):
        first = api.get(SUBSCRIPTIONS)
        second = api.get(SUBSCRIPTIONS)
    assert first["X-RateLimit-Limit"] == "10"  # the token's allowance is the tighter one
    assert first["X-RateLimit-Remaining"] == "9"
    assert second["X-RateLimit-Remaining"] == "8"
    assert 0 < int(second["X-RateLimit-Reset"]) <= 60


def test_each_token_has_its_own_allowance_inside_the_users(alice):
    laptop, script = api_client_for(alice), api_client_for(alice)
    with rates(user="6/min", token="3/min"):
        assert [script.get(SUBSCRIPTIONS).status_code for _ in range(4)] == [200, 200, 200, 429]
        # The script's token is spent, the laptop's is not — until the user's allowance is
        # (the refused request counted there too: the user allowed it, the token did not).
        assert [laptop.get(SUBSCRIPTIONS).status_code for _ in range(3)] == [200, 200, 429]


def test_a_refused_request_says_when_to_come_back(alice):
    client = api_client_for(alice)
    with rates(token="1/min"):
        client.get(SUBSCRIPTIONS)
        refused = client.get(SUBSCRIPTIONS)
    error = assert_error(refused, 429)
    assert error["code"] == "throttled"
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert refused["X-RateLimit-Remaining"] == "0"


def test_the_counters_are_read_in_one_cache_call_and_written_in_one(api, monkeypatch):
    from django.core.cache import cache

    calls, inside = [], []
    for name in ("get", "set", "get_many", "set_many"):
        original = getattr(cache, name)

        def spy(*args, _name=name, _original=original, **kwargs):
            if "throttle_" in str(args[0]) and not inside:  # not get_many's own get()s
                calls.append((_name, 1 if isinstance(args[0], str) else len(args[0])))
            inside.append(_name)
            try:
                return _original(*args, **kwargs)
            finally:
                inside.pop()

        monkeypatch.setattr(cache, name, spy)
    with rates(user="50/min", token="10/min"):
        answers = [api.get(SUBSCRIPTIONS) for _ in range(2)]
    # The user's and the token's counters, in the user's one entry: one key read, one written.
    assert calls == [("get_many", 1), ("set_many", 1)] * 2
    assert [a["X-RateLimit-Remaining"] for a in answers] == ["9", "8"]


def test_the_reading_apps_count_against_the_same_allowance(alice):
    """The reading-app protocols count through the single throttles: the same counters."""
    from types import SimpleNamespace

    from config.api.throttling import LiveUserRateThrottle

    client = api_client_for(alice)
    with rates(user="3/min", token="100/min"):
        request = SimpleNamespace(user=alice, auth=None, META={}, _request=SimpleNamespace())
        assert LiveUserRateThrottle().allow_request(request, None)
        assert [client.get(SUBSCRIPTIONS).status_code for _ in range(3)] == [200, 200, 429]


def test_public_endpoints_are_limited_per_address(db):
    with rates(schedule_preview="2/min"):
        codes = [
            APIClient().get("/api/v1/schedule/preview?cron=@daily").status_code for _ in range(3)
        ]
    assert codes == [200, 200, 429]


def test_another_users_token_is_not_affected(alice, now):
    bob_client = api_client_for(make_user("bob@example.com"))
    with rates(user="1/min"):
        api_client_for(alice).get(SUBSCRIPTIONS)
        assert bob_client.get(SUBSCRIPTIONS).status_code == 200


def test_refusals_are_in_the_clients_language(api):
    chinese = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
    typed = api.post(SUBSCRIPTIONS, {**VALID, "min_score": "70"}, **chinese)
    assert "整数" in assert_error(typed, 400, "min_score")["fields"]["min_score"]
    form = api.post(
        SUBSCRIPTIONS, "a=1", content_type="application/x-www-form-urlencoded", **chinese
    )
    assert "请以 application/json 发送请求体" in assert_error(form, 415)["message"]
    nul = api.get("/api/v1/inbox/items?q=%00", **chinese)
    assert "NUL" in assert_error(nul, 400, "q")["fields"]["q"]
    assert "文本" in nul.json()["error"]["fields"]["q"]


def test_a_201_says_where_the_new_resource_lives(api, alice):
    response = api.post(SUBSCRIPTIONS, VALID, format="json")
    assert response.status_code == 201
    location = response["Location"]
    assert location == f"http://testserver{SUBSCRIPTIONS}/{response.json()['id']}"
    assert api.get(location).json()["id"] == response.json()["id"]
    code = api.post("/api/v1/transfer/codes", {"scope": "saved"}, format="json")
    assert code["Location"].endswith(f"/api/v1/transfer/codes/{code.json()['id']}")


def test_a_client_re_reads_only_what_changed(api, owned):
    for path in (SUBSCRIPTIONS, f"{SUBSCRIPTIONS}/{owned.pk}"):
        first = api.get(path)
        etag = first["ETag"]
        assert etag.startswith('"') and etag.endswith('"')
        same = api.get(path, HTTP_IF_NONE_MATCH=etag)
        assert same.status_code == 304
        assert same.content == b""
        assert same["ETag"] == etag
        assert same["X-RateLimit-Remaining"]  # still counted against the allowance
    api.patch(f"{SUBSCRIPTIONS}/{owned.pk}", {"name": "Renamed"}, format="json")
    changed = api.get(f"{SUBSCRIPTIONS}/{owned.pk}", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed.json()["name"] == "Renamed"
    assert changed["ETag"] != etag


def test_a_query_without_parameters_is_read_once_per_serializer(api, monkeypatch):
    """What an empty query reads is kept per query serializer (config.api.serializers.
    read_query): the answer is the same, a query with parameters is still checked."""
    from config.api import serializers as api_serializers
    from inbox.api import InboxQuerySerializer

    monkeypatch.setattr(api_serializers, "_EMPTY_QUERIES", {})
    first = api.get("/api/v1/inbox/items")
    assert api_serializers._EMPTY_QUERIES[InboxQuerySerializer]["state"] == "all"
    built = []
    original = InboxQuerySerializer.__init__

    def counting(self, *args, **kwargs):
        built.append(kwargs.get("data"))
        original(self, *args, **kwargs)

    monkeypatch.setattr(InboxQuerySerializer, "__init__", counting)
    again = api.get("/api/v1/inbox/items")
    assert built == [] and again.json() == first.json()
    assert_error(api.get("/api/v1/inbox/items?state=sometimes"), 400, "state")
    assert built == [{"state": "sometimes"}]
