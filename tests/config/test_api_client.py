"""The typed Python client in clients/python/: it is what the current schema generates (the
build fails, saying "schema changed; run bin/api-client", when it is not), and it works against
a live server: a token, the Inbox page by page, saving an item, a subscription created (once,
with an Idempotency-Key) and deleted, /me, and refusals as typed errors with their code."""

from __future__ import annotations

import json
import shutil
import sys
from urllib.parse import parse_qs, urlsplit

import pytest

from config.api.enum_names import VARNAMES, name_colliding_enum_values
from digests.models import Subscription as Subscription_
from inbox.tokens import issue_token
from tests import api_client
from tests.conftest import make_user
from tests.inbox.test_sync_api import deliver

sys.path.insert(0, str(api_client.CLIENT_DIR))

from tidings_client import AuthenticatedClient, Client
from tidings_client.api.account import v1_me_retrieve
from tidings_client.api.inbox import v1_inbox_items_actions_create, v1_inbox_items_list
from tidings_client.api.subscriptions import (
    v1_subscriptions_create,
    v1_subscriptions_destroy,
    v1_subscriptions_retrieve,
)
from tidings_client.models import (
    Account,
    ActionEnum,
    Error,
    ErrorCode,
    FieldErrorCode,
    InboxActionRequest,
    InboxItem,
    InboxItemPage,
    InboxState,
    Subscription,
    SubscriptionInputRequest,
    TimezoneEnum,
)


@pytest.mark.slow
@pytest.mark.timeout(300)  # the schema and the generator: about 25 s alone, more on a busy CI
def test_the_checked_in_client_is_what_the_schema_generates(db, tmp_path):
    fresh = api_client.generate_fresh(tmp_path)
    report = api_client.stale_report(fresh, api_client.CLIENT_DIR)
    if report:
        pytest.fail(report, pytrace=False)


def test_a_client_left_behind_by_the_schema_fails_saying_what_to_run(tmp_path):
    # The checked-in client as "generated now", and a copy where one operation is missing and
    # one model differs, as after a schema change without bin/api-client.
    stale = tmp_path / "python"
    shutil.copytree(api_client.CLIENT_DIR, stale, ignore=shutil.ignore_patterns("__pycache__"))
    (stale / "tidings_client/api/account/v1_me_retrieve.py").unlink()
    model = stale / "tidings_client/models/account.py"
    model.write_text(model.read_text().replace("timezone: str", "time_zone: str"))

    report = api_client.stale_report(api_client.CLIENT_DIR, stale)
    assert report.startswith("schema changed; run bin/api-client")
    assert "missing: tidings_client/api/account/v1_me_retrieve.py" in report
    assert "changed: tidings_client/models/account.py" in report
    assert "+    timezone: str" in report
    assert api_client.stale_report(api_client.CLIENT_DIR, api_client.CLIENT_DIR) == ""


def next_cursor(page: InboxItemPage) -> str | None:
    if not page.next_:
        return None
    return parse_qs(urlsplit(page.next_).query)["cursor"][0]


def test_the_generated_client_against_a_live_server(live_server, now):
    user = make_user("carol@example.com", timezone="Europe/Berlin")
    deliver(user, now, "PG", "PostgreSQL", 3)
    _row, token = issue_token(user, "client")
    client = AuthenticatedClient(base_url=live_server.url, token=token)

    me = v1_me_retrieve.sync(client=client)
    assert isinstance(me, Account)
    assert (me.email, me.timezone) == ("carol@example.com", "Europe/Berlin")

    # The Inbox, two items a page, following `next` until it is null.
    pages: list[list[InboxItem]] = []
    cursor = None
    while True:
        kwargs = {"cursor": cursor} if cursor else {}
        page = v1_inbox_items_list.sync(client=client, limit=2, **kwargs)
        assert isinstance(page, InboxItemPage)
        pages.append(page.results)
        if (cursor := next_cursor(page)) is None:
            break
    assert [len(results) for results in pages] == [2, 1]
    items = [item for results in pages for item in results]
    assert sorted(item.title for item in items) == [f"PostgreSQL note {n}" for n in range(3)]
    assert not any(item.saved for item in items)

    saved = v1_inbox_items_actions_create.sync(
        items[1].id, client=client, body=InboxActionRequest(action=ActionEnum.SAVE)
    )
    assert isinstance(saved, InboxItem)
    assert saved.saved
    page = v1_inbox_items_list.sync(client=client, state=InboxState.SAVED)
    assert [item.id for item in page.results] == [items[1].id]

    # A subscription, created once whatever the retries with its Idempotency-Key.
    body = SubscriptionInputRequest(
        name="Rust",
        interests=["Rust", "cargo"],
        cron="0 7 * * 1-5",
        timezone=TimezoneEnum.EUROPE_BERLIN,
    )
    created = v1_subscriptions_create.sync(client=client, body=body, idempotency_key="rust-1")
    assert isinstance(created, Subscription)
    assert created.interests == ["Rust", "cargo"]
    again = v1_subscriptions_create.sync_detailed(
        client=client, body=body, idempotency_key="rust-1"
    )
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.parsed.id == created.id

    # Read again with its ETag: 304 and no body, the client's `if_none_match` (OpenAPI 3.1).
    first = v1_subscriptions_retrieve.sync_detailed(created.id, client=client)
    assert first.status_code == 200
    unchanged = v1_subscriptions_retrieve.sync_detailed(
        created.id, client=client, if_none_match=first.headers["ETag"]
    )
    assert (unchanged.status_code, unchanged.content) == (304, b"")

    deleted = v1_subscriptions_destroy.sync_detailed(created.id, client=client)
    assert deleted.status_code == 204
    gone = v1_subscriptions_retrieve.sync_detailed(created.id, client=client)
    assert gone.status_code == 404
    assert isinstance(gone.parsed, Error)
    assert gone.parsed.error.code == ErrorCode.NOT_FOUND

    # A refusal: a typed Error naming the field and its code; nothing was created.
    bad = SubscriptionInputRequest(name="Bad", interests=["x"], cron="every morning")
    refused = v1_subscriptions_create.sync_detailed(client=client, body=bad)
    assert refused.status_code == 400
    assert isinstance(refused.parsed, Error)
    assert refused.parsed.error.code == ErrorCode.INVALID
    assert "cron" in refused.parsed.error.fields
    assert refused.parsed.error.field_codes["cron"] == FieldErrorCode.INVALID
    assert not Subscription_.objects.filter(owner=user, name="Bad").exists()

    # No token: 401 with its own code.
    anonymous = v1_me_retrieve.sync_detailed(client=Client(base_url=live_server.url))
    assert anonymous.status_code == 401
    assert anonymous.parsed.error.code == ErrorCode.NOT_AUTHENTICATED


ZONES = ["Etc/GMT", "Etc/GMT+1", "Etc/GMT-1", "GMT+0", "GMT-0", "GMT0", "America/Port-au-Prince"]
ZONE_NAMES = [
    "ETC_GMT",
    "ETC_GMT_PLUS_1",
    "ETC_GMT_MINUS_1",
    "GMT_PLUS_0",
    "GMT_MINUS_0",
    "GMT0",
    "AMERICA_PORT_AU_PRINCE",
]


def zone_schema() -> dict:
    zone = {"type": "string", "enum": list(ZONES)}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Zones", "version": "1"},
        "paths": {
            "/zones": {
                "get": {
                    "operationId": "zones",
                    "parameters": [{"name": "zone", "in": "query", "schema": dict(zone)}],
                    "responses": {
                        "200": {
                            "description": "A zone.",
                            "content": {
                                "application/json": {
                                    "schema": {"$ref": "#/components/schemas/TimezoneEnum"}
                                }
                            },
                        }
                    },
                }
            }
        },
        "components": {
            "schemas": {
                "TimezoneEnum": zone,
                "ActionEnum": {"type": "string", "enum": ["read", "not_interested"]},
            }
        },
    }


def test_enum_values_a_client_would_confuse_are_given_distinct_names():
    schema = name_colliding_enum_values(zone_schema(), None, None, None)
    components = schema["components"]["schemas"]
    assert components["TimezoneEnum"][VARNAMES] == ZONE_NAMES
    parameter = schema["paths"]["/zones"]["get"]["parameters"][0]["schema"]
    assert parameter[VARNAMES] == ZONE_NAMES
    # Values that stay distinct keep the names the generator gives them.
    assert VARNAMES not in components["ActionEnum"]


@pytest.mark.slow
def test_the_generator_names_every_zone_once_the_schema_names_them(tmp_path):
    # Without the names openapi-python-client stops ("Duplicate key GMT0"), or keeps one of
    # Etc/GMT+1 and Etc/GMT-1 and refuses the other in an answer.
    document = tmp_path / "zones.json"
    document.write_text(json.dumps(name_colliding_enum_values(zone_schema(), None, None, None)))
    api_client.generate(document, tmp_path / "out")
    enum = (tmp_path / "out/tidings_client/models/timezone_enum.py").read_text()
    for name, value in zip(ZONE_NAMES, ZONES, strict=True):
        assert f'    {name} = "{value}"\n' in enum
