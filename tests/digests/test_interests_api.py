"""The API side of plain-language topics: POST /api/v1/interests and the preview of a
subscription not created yet (POST /api/v1/subscriptions/preview)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from digests.models import Subscription
from tests.digests import fake_anthropic as fake_api
from tests.digests.fake_anthropic import FakeAnthropic
from tests.digests.test_api_engine import rates
from tests.factories import add_item


def test_interests_for_a_topic_without_a_model(api):
    response = api.post(
        "/api/v1/interests", {"topic": "keeping up with Rust async runtimes"}, format="json"
    )
    assert response.status_code == 200
    assert response.json() == {
        "interests": ["Rust async runtimes", "async runtimes"],
        "negative_keywords": [],
        "source": "words",
    }


def test_interests_refuse_a_missing_topic_in_the_error_shape(api):
    response = api.post("/api/v1/interests", {}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["fields"]["topic"]


def test_interests_from_the_model_and_past_the_allowance_from_the_words(api):
    with FakeAnthropic.running(LLM_MAX_RETRIES=0) as fake, rates(interests="1/hour"):
        fake.queue(fake_api.tool({"interests": ["EV", "electric car"], "negative_keywords": []}))
        first = api.post("/api/v1/interests", {"topic": "electric cars"}, format="json")
        second = api.post("/api/v1/interests", {"topic": "e-bikes"}, format="json")
    assert first.json()["source"] == "model"
    assert first.json()["interests"] == ["EV", "electric car"]
    assert second.status_code == 200
    assert second.json()["source"] == "words"


def test_a_draft_preview_derives_interests_and_writes_nothing(api):
    add_item("Tokio 2.0 ships a faster async runtime", now=timezone.now(), age_hours=1)
    response = api.post(
        "/api/v1/subscriptions/preview",
        {"topic": "keeping up with Rust async runtimes"},
        format="json",
    )
    assert response.status_code == 200
    body = response.json()
    assert [item["title"] for item in body["selected"]] == [
        "Tokio 2.0 ships a faster async runtime"
    ]
    assert body["interests"][0] == "Rust async runtimes"
    assert body["advice"] == ""
    assert Subscription.objects.count() == 0


@pytest.mark.parametrize(
    ("data", "field", "status"),
    [({"interests": "x" * 101}, "interests", 400), ({"source_ids": [999]}, "source_ids", 404)],
)
def test_a_draft_preview_refuses_bad_values_in_the_error_shape(api, data, field, status):
    response = api.post("/api/v1/subscriptions/preview", data, format="json")
    assert response.status_code == status
    assert field in response.json()["error"]["fields"]


def test_an_empty_draft_preview_says_what_to_change(api):
    response = api.post(
        "/api/v1/subscriptions/preview", {"interests": ["quantum error correction"]}, format="json"
    )
    assert response.json()["selected"] == []
    assert "Nothing has been collected yet" in response.json()["advice"]
