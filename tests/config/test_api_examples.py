"""The schema's examples are true and complete: every operation has one, each validates
against the schema of what it shows, and the whole table replayed against the API as the demo
user gets the documented status and an answer of the same shape (config/api/examples.py).

`RECORD_API_EXAMPLES=1` records the answers into `<app>/api_examples_recorded.py` instead of
comparing them (after an intended change of an answer; review the diff)."""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from pprint import pformat

import pytest
import time_machine
from django.contrib.auth import get_user_model
from jsonschema import Draft202012Validator, ValidationError
from rest_framework.test import APIClient

from config.api.examples import (
    EXAMPLE_MODULES,
    EXAMPLE_MOMENT,
    EXAMPLES,
    Example,
    Ref,
    query_examples,
    shown,
)
from tests.conftest import api_client_for
from tests.digests.test_web_push import SUBJECT, VAPID_PRIVATE, VAPID_PUBLIC

RECORD = os.environ.get("RECORD_API_EXAMPLES") == "1"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        return APIClient().get("/api/schema/?format=json").json()


def validate(schema: dict, rule: dict, value) -> None:
    # OpenAPI 3.1's schemas are JSON Schema 2020-12 (a nullable field is `type: [t, "null"]`).
    root = {**rule, "components": schema["components"]}
    Draft202012Validator(root, format_checker=Draft202012Validator.FORMAT_CHECKER).validate(value)


def operation_of(schema: dict, example: Example) -> dict:
    method, path = example.operation.split(" ", 1)
    return schema["paths"][path][method.lower()]


def answer_of(schema: dict, example: Example) -> dict:
    return operation_of(schema, example)["responses"][str(example.status)]


def all_operations(schema: dict) -> set[str]:
    return {
        f"{method.upper()} {path}"
        for path, operations in schema["paths"].items()
        for method in operations
    }


def test_every_operation_has_a_description_and_an_example(schema):
    """A new endpoint cannot skip them: its description (what it does, who may call it, what
    it changes) and an example in its app's `api_examples.py`."""
    shown_ops = {e.operation for e in EXAMPLES}
    assert sorted(all_operations(schema) - shown_ops) == []
    assert sorted(shown_ops - all_operations(schema)) == []  # no example of a gone operation
    undescribed = [
        f"{method.upper()} {path}"
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if len(operation.get("description", "").split()) < 8
    ]
    assert undescribed == []


def test_every_example_is_recorded_and_named_once():
    keys = [e.key for e in EXAMPLES]
    assert len(keys) == len(set(keys))
    unrecorded = [e.key for e in EXAMPLES if e.response is None and e.status != 204]
    assert unrecorded == [], "record them: RECORD_API_EXAMPLES=1 (see config/api/examples.py)"


def test_every_parameter_is_described(schema):
    bare = [
        f"{method.upper()} {path} {parameter['name']}"
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        for parameter in operation.get("parameters", [])
        if not parameter.get("description")
    ]
    assert bare == []


def test_query_parameters_have_valid_examples(schema):
    """Each query parameter an example sends, and every list's `limit`, shows a value in the
    schema (the replayed example's), valid against the parameter's own schema."""
    shown_values, missing = 0, []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            sent = query_examples(f"{method.upper()} {path}")
            for parameter in operation.get("parameters", []):
                if parameter["in"] != "query":
                    continue
                values = [e["value"] for e in parameter.get("examples", {}).values()]
                values += [parameter["example"]] if "example" in parameter else []
                if not values and (parameter["name"] in sent or parameter["name"] == "limit"):
                    missing.append(f"{method.upper()} {path} {parameter['name']}")
                for value in values:
                    validate(schema, parameter["schema"], value)
                    shown_values += 1
    assert missing == []
    assert shown_values >= 25


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_each_example_is_in_the_schema_and_valid_against_it(schema, example):
    answer = answer_of(schema, example)
    if isinstance(example.response, (dict, list)):
        media = answer["content"]["application/json"]
        assert media["examples"][example.name]["value"] == example.response
        validate(schema, media["schema"], example.response)
    body = operation_of(schema, example).get("requestBody", {}).get("content", {})
    if example.request is not None and example.request_in_schema:
        media = body["application/json"]
        assert media["examples"][example.name]["value"] == shown(example.request)
        validate(schema, media["schema"], shown(example.request))


# --- The replay -----------------------------------------------------------------------------

FEED = """<?xml version="1.0"?><rss version="2.0"><channel><title>Database Weekly</title>
<link>http://news.example/</link><description>Databases</description>
<item><title>PostgreSQL 18 released</title><link>http://news.example/postgresql-18</link>
<pubDate>Fri, 20 Nov 2026 08:00:00 GMT</pubDate>
<description>Asynchronous I/O and faster major-version upgrades.</description></item>
<item><title>SQLite adds a new JSON operator</title><link>http://news.example/sqlite-json</link>
<pubDate>Thu, 19 Nov 2026 08:00:00 GMT</pubDate>
<description>JSONB everywhere, and faster.</description></item>
</channel></rss>"""
PAGE = """<!doctype html><html lang="en"><head><title>Pricing</title></head><body><main>
<h1>Pricing</h1><p id="price">The Team plan costs 12 EUR a month, billed yearly.</p>
<ul class="posts"><li><a href="/postgresql-18">PostgreSQL 18 released</a></li>
<li><a href="/sqlite-json">SQLite adds a new JSON operator</a></li></ul>
<article><p>Asynchronous I/O, faster upgrades and better monitoring arrive in this release,
which the team has worked on for a year. Upgrading is quick with pg_upgrade.</p></article>
</main></body></html>"""
WEB = {
    "/feed.xml": (FEED, "application/rss+xml"),
    "/pricing": (PAGE, "text/html; charset=utf-8"),
    "/blog": (PAGE, "text/html; charset=utf-8"),
    "/postgresql-18": (PAGE, "text/html; charset=utf-8"),
    "/sqlite-json": (PAGE, "text/html; charset=utf-8"),
    "/": (PAGE, "text/html; charset=utf-8"),
    "/hooks/tidings": ('{"ok": true}', "application/json"),
}


@pytest.fixture
def web(fixture_server, monkeypatch):
    """Hosts under `.example` are the fixture server: what the examples' URLs fetch."""
    from ingest.fetching import fetch

    for path, (body, content_type) in WEB.items():
        fixture_server.add(path, body, Content_Type=content_type)
    resolve_checked, send_once = fetch.resolve_checked, fetch._send_once

    def example_host(target) -> bool:
        return target.host.endswith(".example")

    def resolve(target):
        return "127.0.0.1" if example_host(target) else resolve_checked(target)

    def send(client, target, address, *args, **kwargs):
        if example_host(target):
            target = dataclasses.replace(target, scheme="http", port=fixture_server.port)
        return send_once(client, target, address, *args, **kwargs)

    monkeypatch.setattr(fetch, "resolve_checked", resolve)
    monkeypatch.setattr(fetch, "_send_once", send)
    return fixture_server


@pytest.fixture
# `web` before `settings`: fixtures are torn down in reverse, and pytest-django's settings
# restore the state they found, so taken first they would bring back the fixture server's
# loopback allowance for every later test of the process.
def demo(db, web, settings, tmp_path):
    """The demo user (staff, on Pro, with the demo's sources, four subscriptions, their runs
    and a public topic), and the ids the examples start from."""
    from digests.demo import DEMO_EMAIL, set_up_demo
    from digests.models import Run, Subscription
    from topics.models import Topic

    settings.DATA_DIR = tmp_path
    settings.TIDINGS_VAPID_PUBLIC_KEY = VAPID_PUBLIC
    settings.TIDINGS_VAPID_PRIVATE_KEY = VAPID_PRIVATE
    settings.TIDINGS_VAPID_SUBJECT = SUBJECT
    moment = datetime.fromisoformat(EXAMPLE_MOMENT)
    with time_machine.travel(moment, tick=False):
        set_up_demo(now=moment)
    user = get_user_model().objects.get(username=DEMO_EMAIL)
    subscription = Subscription.objects.filter(owner=user, runs__items__isnull=False).first()
    run = Run.objects.filter(subscription=subscription).latest("pk")
    topic = Topic.objects.filter(owner=user).first()
    # A failed run of another subscription, so that retrying one is shown beyond its 409.
    failed = Run.objects.filter(subscription__owner=user).exclude(subscription=subscription)
    failed = failed.order_by("pk").first()
    Run.objects.filter(pk=failed.pk).update(status=Run.Status.FAILED, error="Fetching failed")
    context = {
        "subscription_id": subscription.pk,
        "run_id": run.pk,
        "failed_run_id": failed.pk,
        "run_item_id": run.items.order_by("rank").first().pk,
        "run_item_ids": list(run.items.order_by("rank").values_list("pk", flat=True)[:2]),
        "slug": topic.slug,
        "edition_id": topic.editions.latest("pk").pk,
        "user_source_id": user.library_sources.first().pk
        if hasattr(user, "library_sources")
        else None,
    }
    return user, context


def resolved(value, context: dict):
    if isinstance(value, Ref):
        return context[value.name]
    if isinstance(value, dict):
        return {key: resolved(item, context) for key, item in value.items()}
    if isinstance(value, list):
        return [resolved(item, context) for item in value]
    return value


def pointer(document, path: str):
    for part in path.strip("/").split("/"):
        document = document[int(part)] if isinstance(document, list) else document[part]
    return document


def same_shape(expected, got, where="") -> list[str]:
    """Where `got` differs from `expected` in keys or JSON types (the first entry of a list
    stands for all; null stands in for any type, as a nullable field's example may be null)."""
    if expected is None or got is None:
        return []
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return [f"{where or '.'}: an object expected, got {got!r}"]
        if _keyed_by_id(expected) and _keyed_by_id(got):
            # A map from ids (a subscription's `source_weights`): the ids are the database's,
            # so only the values' shape is compared, the first standing for all.
            if expected and got:
                first = next(iter(expected))
                return same_shape(expected[first], next(iter(got.values())), f"{where}.{first}")
            return []
        if set(got) != set(expected):
            return [f"{where or '.'}: keys {sorted(set(got) ^ set(expected))} differ"]
        return [
            problem
            for key, value in expected.items()
            for problem in same_shape(value, got[key], f"{where}.{key}")
        ]
    if isinstance(expected, list):
        if not isinstance(got, list):
            return [f"{where}: a list expected, got {got!r}"]
        if expected and got:
            return same_shape(expected[0], got[0], f"{where}.0")
        return []
    kinds = (bool, int | float, str)
    kind = next((k for k in kinds if isinstance(expected, k)), None)
    if kind is not None and not isinstance(got, kind):
        return [f"{where}: {type(expected).__name__} expected, got {got!r}"]
    return []


def _keyed_by_id(document: dict) -> bool:
    return bool(document) and all(key.isdigit() for key in document)


def send(example: Example, clients: dict, context: dict, **headers):
    method, path = example.operation.split(" ", 1)
    url = path.format(**{**context, **{p: context[n] for p, n in example.ids.items()}})
    if example.query:
        url = f"{url}?{example.query.format(**context)}"
    client = clients["anonymous" if example.anonymous else "demo"]
    call = getattr(client, method.lower())
    if example.body is not None:
        return call(url, example.body, content_type=example.content_type, **headers)
    if example.request is not None:
        return call(url, resolved(example.request, context), format="json", **headers)
    return call(url, **headers)


def answer_body(response):
    if getattr(response, "streaming", False):
        content = b"".join(response.streaming_content)
    else:
        content = response.content
    if not content:
        return None
    if response.get("Content-Type", "").startswith("application/json"):
        return json.loads(content)
    return content.decode()


def compact(value):
    """An answer as recorded: lists cut to their first two entries (the first stands for all
    in the comparison), so the examples stay readable."""
    if isinstance(value, dict):
        return {key: compact(item) for key, item in value.items()}
    if isinstance(value, list):
        return [compact(item) for item in value[:2]]
    return value


def record(answers: dict[str, object]) -> None:
    for module in EXAMPLE_MODULES:
        table = importlib.import_module(module).EXAMPLES
        responses = {e.key: compact(answers[e.key]) for e in table if e.key in answers}
        target = ROOT / (module.replace(".", "/") + "_recorded.py")
        target.write_text(
            f'"""Answers of `{module}`, recorded from the app by\n'
            'tests/config/test_api_examples.py (RECORD_API_EXAMPLES=1); do not edit."""\n\n'
            f"RESPONSES = {pformat(responses, width=95, sort_dicts=False)}\n"
        )
        subprocess.run([sys.executable, "-m", "ruff", "format", "-q", str(target)], check=True)
        text = target.read_text()
        if any(len(line) > 100 for line in text.splitlines()):
            head, rest = text.split("\n\n", 1)
            noqa = "# ruff: noqa: E501 - keys and secrets as the app gave them"
            target.write_text(f"{head}\n\n{noqa}\n\n{rest}")


# The demo (four runs) and about a hundred requests, one of them a run: 60 s on SQLite with
# the load average at 17 (2 cores), over 120 s on PostgreSQL then.
@pytest.mark.timeout(600)
def test_the_examples_replayed_get_the_documented_answers(schema, demo, web):
    user, context = demo
    clients = {"demo": api_client_for(user), "anonymous": APIClient()}
    problems, answers, with_etag = [], {}, set()
    moment = datetime.fromisoformat(EXAMPLE_MOMENT)
    ordered = sorted(EXAMPLES, key=lambda e: e.operation.startswith("DELETE"))
    for example in ordered:
        try:
            with time_machine.travel(moment, tick=False):
                response = send(example, clients, context)
        except KeyError as missing:
            problems.append(f"{example.key}: nothing made before it for {missing}")
            continue
        got = answer_body(response)
        if response.status_code != example.status:
            problems.append(f"{example.key}: {response.status_code} {str(got)[:300]}")
            continue
        if response.has_header("ETag"):
            with_etag.add(example.operation)
            problems += conditional_problems(example, clients, context, response, moment)
        if example.operation == "POST /api/v1/transfer/redeem":
            # The other Tidings of the pull example (old.example) gives what this one gave.
            web.add("/api/v1/transfer/redeem", json.dumps(got), Content_Type="application/json")
        for name, where in example.saves.items():
            try:
                context[name] = pointer(got, where)
            except (KeyError, IndexError, TypeError):
                problems.append(f"{example.key}: no {where} in {str(got)[:200]}")
        if RECORD and example.key not in _inline_keys():
            answers[example.key] = got
            continue
        if example.response is None and got is not None:
            problems.append(f"{example.key}: not recorded")
        elif isinstance(got, (dict, list)):
            rule = answer_of(schema, example)["content"]["application/json"]["schema"]
            try:
                validate(schema, rule, got)
            except ValidationError as error:
                problems.append(f"{example.key}: not valid against its schema: {error}"[:400])
            problems += [f"{example.key}: {p}" for p in same_shape(example.response, got)]
            for name in example.same:
                if got[name] != example.response[name]:
                    problems.append(f"{example.key}: {name} is {got[name]!r}")
    if RECORD:
        record(answers)
    # The operations the schema gives `If-None-Match`, a 304 and an `ETag` are exactly those
    # answered with an ETag (every GET has a 200 example, so none is left unseen).
    documented = {
        f"{method.upper()} {path}"
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if "304" in operation["responses"]
        and "ETag" in operation["responses"]["200"].get("headers", {})
        and any(p["name"] == "If-None-Match" for p in operation["parameters"])
    }
    assert sorted(documented ^ with_etag) == [], "documented and answered ETags differ"
    assert problems == [], "\n".join(problems)


def conditional_problems(example, clients, context, response, moment) -> list[str]:
    """Asked again with the answer's ETag: 304, no body, the same ETag."""
    etag = response["ETag"]
    with time_machine.travel(moment, tick=False):
        again = send(example, clients, context, HTTP_IF_NONE_MATCH=etag)
    if (again.status_code, again.content, again.get("ETag")) != (304, b"", etag):
        return [f"{example.key}: If-None-Match {etag} got {again.status_code} {again.content[:80]}"]
    return []


def _inline_keys() -> set[str]:
    return {
        e.key
        for module in EXAMPLE_MODULES
        for e in importlib.import_module(module).EXAMPLES
        if e.response is not None
    }


@pytest.mark.timeout(600)  # the demo, as above
def test_every_list_limit_in_the_schema_is_the_servers(schema, demo):
    """A list's `limit` says the bounds the server enforces: its maximum is answered, one
    more is refused naming `limit` (the Inbox's said a bare integer before)."""
    user, context = demo
    api = api_client_for(user)
    checked = []
    for path, operations in schema["paths"].items():
        operation = operations.get("get", {})
        limit = next((p for p in operation.get("parameters", []) if p["name"] == "limit"), None)
        if limit is None:
            continue
        rule = limit["schema"]
        assert (rule.get("minimum"), rule["type"]) == (1, "integer"), path
        most = rule["maximum"]
        url = path.format(**context)
        assert api.get(f"{url}?limit={most}").status_code == 200, path
        refused = api.get(f"{url}?limit={most + 1}")
        assert refused.status_code == 400, path
        assert refused.json()["error"]["field_codes"] == {"limit": "out_of_range"}, path
        checked.append(path)
    assert "/api/v1/inbox/items" in checked and len(checked) >= 10


def test_every_field_is_described(schema):
    """Every property of every component says what it means (a serializer's help text, else
    config/api/descriptions.FIELDS); a `$ref` one is described by its component."""
    bare = [
        f"{name}.{field}"
        for name, component in schema["components"]["schemas"].items()
        for field, rule in component.get("properties", {}).items()
        if not rule.get("description") and "$ref" not in rule
    ]
    assert bare == []
