"""GET /api/v1/export and the console's download: a `tidings-export@1` document, streamed,
valid against the JSON Schema in the repository."""

from __future__ import annotations

import json

import jsonschema
import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from inbox.portability import export
from inbox.portability.schema import export_schema, validate
from tests.conftest import api_client_for
from tests.inbox.portability_data import populate

pytestmark = pytest.mark.django_db


def exported(client, path="/api/v1/export") -> dict:
    response = client.get(path)
    assert response.status_code == 200, response.content[:500]
    assert response.streaming
    return json.loads(b"".join(response.streaming_content))


def test_an_export_holds_everything_and_follows_the_schema(alice):
    populate(alice, now=timezone.now())
    document = exported(api_client_for(alice))

    jsonschema.validate(document, export_schema(), format_checker=jsonschema.FormatChecker())
    validate(document)  # the import's own validator agrees
    assert document["format"] == "tidings-export@1"
    assert document["scope"] == "everything"
    assert document["account"]["email"] == "alice@example.com"
    assert document["preferences"]["timezone"] == "Europe/Berlin"
    (source,) = document["sources"]
    assert source["config"] == {"url": "https://blog.example/feed.xml"}
    assert source["label"] == "My favourite blog"
    names = {s["name"]: s for s in document["subscriptions"]}
    assert names["Databases"]["negative_keywords"] == ["MongoDB"]
    assert names["Databases"]["min_score"] == 55
    assert names["Databases"]["email_subject"] == "{name} for {date}"
    assert names["Databases"]["sources"] == [
        {"source": source["id"], "enabled": True, "weight": 1.0}
    ]
    assert len(document["runs"]) == 5
    succeeded = [run for run in document["runs"] if run["status"] == "succeeded"]
    assert sum(len(run["items"]) for run in succeeded) == 12
    item = succeeded[0]["items"][0]
    assert item["title"] == "Story 1"
    assert item["canonical_url"] == "https://news.example/story-1"
    assert item["reason"] == "Mentions PostgreSQL (0)"
    assert item["summary"] == "Summary of Story 1."
    states = document["content_states"]
    assert len(states) == 12
    assert sum(1 for s in states if s["saved_at"]) == 3
    assert sum(1 for s in states if s["read_at"]) == 3
    assert sum(1 for s in states if s["not_interested_at"]) == 3


def test_an_export_names_no_other_users_data(alice, bob):
    populate(alice, now=timezone.now())
    document = exported(api_client_for(bob))
    assert document["runs"] == [] and document["subscriptions"] == []
    assert document["content_states"] == [] and document["sources"] == []


def test_the_export_is_streamed_in_pages_with_a_constant_number_of_queries(
    alice, django_assert_max_num_queries
):
    populate(alice, now=timezone.now(), runs=12, items_per_run=3)
    with override_settings():
        export.RUN_CHUNK, export.STATE_CHUNK = 2, 5
        try:
            with django_assert_max_num_queries(40) as small:
                chunks = list(export.stream_export(alice, now=timezone.now()))
        finally:
            export.RUN_CHUNK, export.STATE_CHUNK = 500, 2000
    assert len(chunks) > 20  # written piece by piece, never as one string
    document = json.loads("".join(chunks))
    assert len(document["runs"]) == 14
    # Two queries per page of runs, one per page of states, a few for the rest.
    assert len(small.captured_queries) <= 8 + 2 * 8 + 8


def test_scopes_take_saved_items_or_recent_briefs(alice):
    populate(alice, now=timezone.now())
    client = api_client_for(alice)
    saved = exported(client, "/api/v1/export?scope=saved")
    jsonschema.validate(saved, export_schema())
    assert saved["scope"] == "saved"
    assert all(state["saved_at"] for state in saved["content_states"])
    assert len(saved["content_states"]) == 3
    assert [len(run["items"]) for run in saved["runs"]] == [1, 1, 1]
    recent = exported(client, "/api/v1/export?scope=saved_recent")
    assert len(recent["runs"]) == 4  # the running one is not finished


def test_an_unknown_scope_is_refused_naming_it(alice):
    response = api_client_for(alice).get("/api/v1/export?scope=all")
    assert response.status_code == 400
    assert "scope" in response.json()["error"]["fields"]


def test_the_export_needs_an_account(client):
    assert client.get("/api/v1/export").status_code == 401


def test_the_preferences_page_offers_the_download(client, alice):
    client.force_login(alice)
    page = client.get(reverse("inbox:preferences")).content.decode()
    assert reverse("inbox:export") in page
    response = client.get(reverse("inbox:export"))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    assert json.loads(b"".join(response.streaming_content))["format"] == "tidings-export@1"
