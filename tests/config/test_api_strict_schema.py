"""The schema is as strict as the server (issue #33): what it allows is accepted, what it
forbids is refused — the rules bin/api-fuzz checks with schemathesis' `--checks all`, here
fast and one by one — and the inconsistencies the issue listed stay gone (two are kept
elsewhere: the webhook secret's one key name in tests/digests/test_delivery_api.py, another
user's source ids on the estimate in tests/billing/test_api.py, and real run timings in
tests/digests/test_runner.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from config.api.fields import CRON_PATTERN, HTTP_URL_PATTERN, TIME_ZONES
from digests.schedules.next_run import ScheduleError, normalize_cron, validate_timezone
from digests.subscriptions.service import create_subscription
from inbox.portability.transfer import MAX_OPEN_CODES

ROOT = Path(__file__).resolve().parents[2]
VALID = {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        return APIClient().get("/api/schema/?format=json").json()


def _pattern(schema_of: dict) -> re.Pattern:
    return re.compile(schema_of["pattern"])


def _parameter(schema, path, method, name) -> dict:
    found = [p for p in schema["paths"][path][method]["parameters"] if p["name"] == name]
    return found[0]["schema"]


def _request_strings(schema):
    """(component, property, its schema) of every string a request body takes."""
    for name, component in schema["components"]["schemas"].items():
        if not name.endswith("Request"):
            continue
        for prop, prop_schema in component.get("properties", {}).items():
            for choice in [prop_schema, *prop_schema.get("oneOf", [])]:
                inner = choice.get("items", choice)
                if inner.get("type") == "string" and inner.get("maxLength") != 0:
                    yield name, prop, inner


# --- What the schema allows is accepted --------------------------------------------------


def test_every_request_string_has_a_pattern_an_enum_or_a_format(schema):
    loose = [
        (name, prop)
        for name, prop, string in _request_strings(schema)
        if not ({"pattern", "enum", "format"} & set(string) or "allOf" in string)
    ]
    assert loose == []


def test_no_request_string_takes_a_nul_character(schema, api):
    for _name, _prop, string in _request_strings(schema):
        if "pattern" in string:
            assert not _pattern(string).search("a\x00b"), (_name, _prop)
    refused = api.post("/api/v1/subscriptions", {**VALID, "name": "a\x00b"}, format="json")
    assert refused.status_code == 400 and "name" in refused.json()["error"]["fields"]


@pytest.mark.parametrize(
    "cron",
    ["0 8 * * 1-5", "*/15 6-22 * * *", "0 0 1,15 * *", "30 0 8 * * 1", "@daily", "0 9 1 1 0"],
)
def test_a_cron_the_schema_allows_is_one_the_server_takes(cron):
    assert re.fullmatch(CRON_PATTERN, cron)
    normalize_cron(cron)


@pytest.mark.parametrize("cron", ["0", "0 0 0 0 0", "61 * * * *", "* 24 * * *", "@often", " "])
def test_a_cron_the_server_refuses_is_outside_the_schema(cron):
    with pytest.raises(ScheduleError):
        normalize_cron(cron)
    assert not re.fullmatch(CRON_PATTERN, cron)


def test_the_time_zone_enumeration_is_the_servers_list(schema):
    body = schema["components"]["schemas"]["PatchedAccountInputRequest"]["properties"]
    enum_name = body["timezone"]["allOf"][0]["$ref"].rsplit("/", 1)[1]
    listed = schema["components"]["schemas"][enum_name]["enum"]
    assert listed == TIME_ZONES and "Europe/Berlin" in listed and "0" not in listed
    for zone in listed:
        validate_timezone(zone)


def test_urls_are_http_or_https_with_a_host(schema):
    url = schema["components"]["schemas"]["AddCrawlRequest"]["properties"]["url"]
    assert url["format"] == "uri" and url["pattern"] == HTTP_URL_PATTERN
    assert re.fullmatch(HTTP_URL_PATTERN, "https://example.org/blog/")
    for bad in ("0", "", "gopher://x/", "http://", "http:// x/", "https://a b/"):
        assert not re.fullmatch(HTTP_URL_PATTERN, bad), bad
    # Only the ports the fetcher takes (80, 443, 8000-8999).
    assert re.fullmatch(HTTP_URL_PATTERN, "http://a.example:8080/")
    assert not re.fullmatch(HTTP_URL_PATTERN, "http://a.example:34719/")
    endpoint = schema["components"]["schemas"]["PushDeviceInputRequest"]["properties"]["endpoint"]
    assert not _pattern(endpoint).fullmatch("http://push.example/x")
    assert _pattern(endpoint).fullmatch("https://push.example/x")


def test_cursors_limits_and_idempotency_keys_are_bounded_as_the_server_reads_them(schema):
    for path in ("/api/v1/subscriptions", "/api/v1/sources", "/api/v1/billing/transactions"):
        cursor = _parameter(schema, path, "get", "cursor")
        assert cursor["minLength"] == 1 and not _pattern(cursor).search("")
    inbox_cursor = _parameter(schema, "/api/v1/inbox/items", "get", "cursor")
    assert _pattern(inbox_cursor).fullmatch("12.3") and not _pattern(inbox_cursor).search("")
    limit = _parameter(schema, "/api/v1/inbox/items", "get", "limit")
    assert (limit["minimum"], limit["maximum"]) == (1, 100)
    key = _parameter(schema, "/api/v1/subscriptions", "post", "Idempotency-Key")
    assert key["maxLength"] == 255
    assert _pattern(key).fullmatch("5f0c-uuid") and not _pattern(key).search(" spaced ")


def test_a_topic_title_and_an_output_locale_are_bounded_as_the_server_checks_them(schema):
    components = schema["components"]["schemas"]
    title = _pattern(components["PublishRequest"]["properties"]["title"])
    assert title.fullmatch("Daily AI") and not title.fullmatch("0") and not title.fullmatch("  ab ")
    locale = components["SubscriptionInputRequest"]["properties"]["output_locale"]["oneOf"][0]
    assert _pattern(locale).fullmatch("zh-Hans") and not _pattern(locale).fullmatch("0")


# --- What the schema forbids is refused ----------------------------------------------------


def test_an_import_without_a_body_is_refused_and_queues_nothing(api):
    from inbox.models import ImportJob

    response = api.post("/api/v1/import")
    assert response.status_code == 400, response.content
    assert "file" in response.json()["error"]["fields"]
    assert not ImportJob.objects.exists()


def _refusal(response, status: int, field: str, code: str) -> dict:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["code"] == code and field in error["fields"], error
    return error


def _export_head(**changes) -> bytes:
    head = {
        "format": "tidings-export@1",
        "exported_at": "2026-11-01T08:00:00Z",
        "instance": {"url": "https://a.example", "software": "tidings"},
        "scope": "everything",
        "account": {"id": 1, "email": "a@example.com"},
        "preferences": {"ui_locale": "en", "timezone": "UTC", "locale_mode": "auto"},
        "sources": [],
        "subscriptions": [],
        "runs": [],
        "content_states": [],
    }
    head.update(changes)
    return json.dumps({k: v for k, v in head.items() if v is not None}).encode()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (_export_head(extra={"a": 1}), "extra"),  # an unknown top-level member
        (_export_head(scope=None), "scope"),  # a member missing
        (_export_head(runs="none"), "runs"),  # a list that is not one
        (_export_head(format="other@9"), "format"),  # another format
    ],
)
def test_an_import_whose_top_level_breaks_the_schema_is_a_400_and_queues_nothing(api, body, field):
    from inbox.models import ImportJob

    response = api.generic("POST", "/api/v1/import", body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert field in response.json()["error"]["fields"]
    assert not ImportJob.objects.exists()


def _import_schema_errors(schema, document: dict) -> list[str]:
    from jsonschema import Draft202012Validator

    root = {
        "$ref": "#/components/schemas/ExportDocumentRequest",
        "components": schema["components"],
    }
    return [error.message for error in Draft202012Validator(root).iter_errors(document)]


@pytest.mark.parametrize(
    "member",
    [
        {"deep": [{"na\u0000me": 1}]},  # a key, two levels down
        {"deep": [{"name": ["x\u0000"]}]},  # a string, three levels down
    ],
)
def test_the_schema_says_an_import_s_free_form_members_have_no_nul_at_any_depth(
    api, schema, settings, tmp_path, member
):
    """The API's JSON text rules hold inside an import's free-form members too; the schema says
    so (a recursive value with `propertyNames`), so schemathesis never sends what is refused."""
    from inbox.models import ImportJob

    settings.DATA_DIR = tmp_path
    document = json.loads(_export_head())
    document["preferences"] = member
    assert _import_schema_errors(schema, document)
    body = json.dumps(document).encode()
    response = api.generic("POST", "/api/v1/import", body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "bad_text"
    assert not ImportJob.objects.exists()

    # The same document without the NUL: valid for the schema, and queued.
    clean = json.loads(json.dumps(document).replace("\\u0000", ""))
    assert not _import_schema_errors(schema, clean)
    response = api.generic(
        "POST", "/api/v1/import", json.dumps(clean).encode(), content_type="application/json"
    )
    assert response.status_code == 202, response.content


def test_an_import_with_the_documented_top_level_is_queued(api, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    response = api.generic(
        "POST", "/api/v1/import", _export_head(), content_type="application/json"
    )
    assert response.status_code == 202, response.content


def test_a_draft_preview_refuses_delivery_fields_as_creating_does(api):
    from digests.models import Subscription

    for field, value in (("webhook_url", "0"), ("email_to", "0")):
        body = {"interests": ["PostgreSQL"], field: value}
        created = api.post("/api/v1/subscriptions", {**VALID, field: value}, format="json")
        previewed = api.post("/api/v1/subscriptions/preview", body, format="json")
        assert created.status_code == previewed.status_code == 400, previewed.content
        assert field in previewed.json()["error"]["fields"]
    assert not Subscription.objects.exists()


# --- A refusal that depends on what exists is not a 400 -------------------------------------


def test_a_cursor_the_list_did_not_hand_out_is_a_404_naming_it(api):
    for path in ("/api/v1/subscriptions", "/api/v1/packs", "/api/v1/folders"):
        error = _refusal(api.get(f"{path}?cursor=0"), 404, "cursor", "not_found")
        assert error["field_codes"] == {"cursor": "invalid"}


def test_ids_that_are_not_yours_are_a_404_naming_the_field(api, alice, now):
    from digests.models import Subscription

    _refusal(
        api.post("/api/v1/inbox/items/bulk", {"action": "read", "ids": [501]}, format="json"),
        404,
        "ids",
        "not_found",
    )
    _refusal(
        api.get("/api/v1/billing/estimate?cron=0+8+*+*+*&source_ids=7"),
        404,
        "source_ids",
        "not_found",
    )
    subscription = create_subscription(alice, VALID, now=now)
    _refusal(
        api.put(
            f"/api/v1/subscriptions/{subscription.pk}/apprise-targets",
            {"targets": [3]},
            format="json",
        ),
        404,
        "apprise_targets",
        "not_found",
    )
    _refusal(
        api.post("/api/v1/subscriptions", {**VALID, "source_ids": [9]}, format="json"),
        404,
        "source_ids",
        "not_found",
    )
    # A static rule broken too is still named first, with 400.
    _refusal(
        api.post(
            "/api/v1/subscriptions", {**VALID, "source_ids": [9], "cron": "@often"}, format="json"
        ),
        400,
        "cron",
        "invalid",
    )
    assert Subscription.objects.count() == 1  # the one made above; no partial state


def test_a_folder_name_in_use_is_a_409(api):
    from ingest.models import Folder

    assert api.post("/api/v1/folders", {"name": "News"}, format="json").status_code == 201
    _refusal(api.post("/api/v1/folders", {"name": "News"}, format="json"), 409, "name", "taken")
    assert Folder.objects.count() == 1


def test_an_address_that_cannot_be_fetched_is_a_422(api):
    from ingest.models import UserSource

    _refusal(
        api.post("/api/v1/sources", {"url": "http://127.0.0.1/feed.xml"}, format="json"),
        422,
        "url",
        "refused_by_policy",
    )
    assert not UserSource.objects.exists()


def test_a_feature_this_server_is_not_configured_for_is_a_422(api, settings):
    settings.TIDINGS_VAPID_PUBLIC_KEY = settings.TIDINGS_VAPID_PRIVATE_KEY = ""
    settings.NAVER_CLIENT_ID = settings.NAVER_CLIENT_SECRET = ""
    device = {
        "endpoint": "https://push.example/send/abc123",
        "keys": {
            "p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1"
            "XbjhazAkj7I99e8QcYP7DkM",
            "auth": "tBHItJI5svbpez7KI4CCXg",
        },
    }
    _refusal(
        api.post("/api/v1/push/devices", device, format="json"), 422, "endpoint", "not_configured"
    )
    # Bad input is still a 400 first.
    bad = {**device, "keys": {**device["keys"], "auth": "x"}}
    _refusal(api.post("/api/v1/push/devices", bad, format="json"), 400, "keys.auth", "invalid")
    _refusal(
        api.post(
            "/api/v1/sources/searches", {"query": "AI", "provider": "naver_news"}, format="json"
        ),
        422,
        "provider",
        "not_configured",
    )


def test_refusals_that_depend_on_state_are_documented(schema):
    for path, method, statuses in (
        ("/api/v1/subscriptions", "get", {"404"}),
        ("/api/v1/billing/estimate", "get", {"404"}),
        ("/api/v1/sources", "post", {"404", "409", "422"}),
        ("/api/v1/admin/billing/stats", "get", {"422"}),
    ):
        assert statuses <= set(schema["paths"][path][method]["responses"]), (path, method)


def test_a_moment_with_a_far_offset_is_read_in_utc(api):
    # PostgreSQL refuses offsets past ±15:59 in a query; Python and the schema take ±23:59.
    response = api.get("/api/v1/inbox/items", {"updated_since": "1979-01-01T13:00:35-20:46"})
    assert response.status_code == 200, response.content


def test_moments_and_senders_say_what_the_server_takes(schema):
    from config.api.fields import DATETIME_PATTERN

    since = _parameter(schema, "/api/v1/inbox/items", "get", "updated_since")
    assert since["pattern"] == DATETIME_PATTERN
    moment = re.compile(DATETIME_PATTERN)
    assert moment.fullmatch("2026-11-28T09:00:00+01:00") and moment.fullmatch(
        "1970-01-01T00:00:00Z"
    )
    for bad in ("0587-09-26T22:49:30Z", "2026-11-28T09:00:00", "I\u00beN", "2200-01-01T00:00:00Z"):
        assert not moment.fullmatch(bad), bad
    sender = _pattern(schema["components"]["schemas"]["AllowSenderRequest"]["properties"]["sender"])
    assert sender.fullmatch("news@example.com") and sender.fullmatch("@example.com")
    assert not sender.fullmatch("\t") and not sender.fullmatch("0" * 40)


def test_an_empty_admin_period_is_a_422_and_bad_moments_a_400(db, now):
    from tests.conftest import api_client_for, make_user

    staff = make_user("ops@example.com", now=now)
    staff.is_staff = True
    staff.save()
    staff_api = api_client_for(staff)
    url = "/api/v1/admin/billing/stats"
    _refusal(
        staff_api.get(url, {"since": "2026-11-02T00:00:00Z", "until": "2026-11-01T00:00:00Z"}),
        422,
        "until",
        "empty_period",
    )
    _refusal(staff_api.get(url, {"since": "I\u00beN"}), 400, "since", "invalid")
    assert staff_api.get(url, {"since": "", "until": ""}).status_code == 200


# --- The inconsistencies stay gone ---------------------------------------------------

LISTS = [
    "/api/v1/subscriptions",
    "/api/v1/sources",
    "/api/v1/billing/transactions",
    "/api/v1/packs",
    "/api/v1/topics",
    "/api/v1/public/topics",
    "/api/v1/inbox/items",
    "/api/v1/push/devices",
    "/api/v1/tokens",
    "/api/v1/folders",
]


@pytest.mark.parametrize("path", LISTS)
def test_an_empty_cursor_is_the_same_400_on_every_list(api, path):
    response = api.get(f"{path}?cursor=")
    assert response.status_code == 400, (path, response.content)
    assert response.json()["error"]["field_codes"] == {"cursor": "invalid"}


def test_push_devices_are_a_page(api):
    assert set(api.get("/api/v1/push/devices").json()) == {"next", "previous", "results"}


def test_the_tier_is_spelled_the_same_on_balance_and_estimate(api):
    balance = api.get("/api/v1/billing/balance").json()["tier"]
    estimate = api.get("/api/v1/billing/estimate?cron=0+8+*+*+*").json()["tier"]
    assert balance == estimate == balance.lower()


def test_one_transfer_code_too_many_is_a_state_conflict_not_bad_input(api):
    for _ in range(MAX_OPEN_CODES):
        assert (
            api.post("/api/v1/transfer/codes", {"scope": "everything"}, format="json").status_code
            == 201
        )
    refused = api.post("/api/v1/transfer/codes", {"scope": "everything"}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "transfer_code_limit"


def test_an_unknown_inbox_parameter_lists_limit_and_cursor_too(api):
    message = api.get("/api/v1/inbox/items?foo=1").json()["error"]["fields"]["foo"]
    assert "limit" in message and "cursor" in message


def test_a_disabled_webhook_sends_no_test_event(api, alice, now):
    subscription = create_subscription(alice, VALID, now=now)
    url = f"/api/v1/subscriptions/{subscription.pk}"
    api.patch(url, {"webhook_url": "https://hooks.example/tidings"}, format="json")
    assert api.post(f"{url}/webhook/disable").status_code == 200
    refused = api.post(f"{url}/webhook/test")
    assert refused.status_code == 409 and "webhook" in refused.json()["error"]["fields"]


def test_a_created_resource_has_a_location(api):
    created = api.post("/api/v1/subscriptions", VALID, format="json")
    assert created.status_code == 201
    assert created["Location"].endswith(f"/api/v1/subscriptions/{created.json()['id']}")


def test_the_docs_count_the_operations_and_name_every_rate_setting(schema):
    count = sum(
        1 for methods in schema["paths"].values() for method in methods if method != "parameters"
    )
    api_doc = (ROOT / "docs" / "api.md").read_text()
    assert f"**{count} operations" in api_doc
    configuration = (ROOT / "docs" / "configuration.md").read_text()
    for setting in ("API_EXPORT_RATE", "API_IMPORT_RATE", "API_TRANSFER_REDEEM_RATE"):
        assert setting in configuration


@pytest.mark.parametrize(
    "subject",
    ["{name} on {date}", "{{braces}}", "{", "}", "{nam}", "{name!r}", "a}}b{{", "two\nlines"],
)
def test_the_email_subject_pattern_is_the_server_s_rule(schema, subject):
    from digests.delivery.subject import SubjectTemplateError, check_subject_template

    rule = schema["components"]["schemas"]["SubscriptionInputRequest"]["properties"]
    pattern = _pattern(rule["email_subject"]["oneOf"][0])
    try:
        check_subject_template(subject)
        accepted = True
    except SubjectTemplateError:
        accepted = False
    assert bool(pattern.search(subject)) == accepted


def test_a_watch_s_channels_are_unique_in_the_schema_as_on_the_server(schema):
    components = schema["components"]["schemas"]
    for name in ("WatchInputRequest", "ListWatchInputRequest", "PatchedWatchSettingsInputRequest"):
        assert components[name]["properties"]["notify"]["uniqueItems"] is True, name
