"""The subscription form before saving: interests suggested from the topic and a preview of
what it would deliver now — as plain form posts (no JavaScript) and as htmx requests."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from digests.models import Subscription
from digests.subscriptions.service import create_subscription
from tests.digests import fake_anthropic as fake_api
from tests.digests.fake_anthropic import FakeAnthropic
from tests.digests.test_api_engine import rates
from tests.factories import add_item


@pytest.fixture
def now():
    return timezone.now()  # the pages ask the real clock


@pytest.fixture
def console(client, alice):
    client.force_login(alice)
    return client


# Session, user, preferences, library, the reader's language for the suggestion, the preview
# (search, the pool's size in the window when not counted in the last minutes, rows, the
# reader's feedback, states), the account for the cost estimate and for the header's credits,
# and the nav badges: however many items match.
QUERIES = 13


def draft(console, action, url=None, **data):
    form = {"name": "", "topic": "", "interests": "", "timezone": "Europe/Berlin", "draft": action}
    form.update(data)
    return console.post(url or reverse("digests:new"), form)


def interests_value(response) -> str:
    match = re.search(r'name="interests"[^>]*value="([^"]*)"', response.content.decode())
    return match.group(1) if match else ""


def panel(response) -> str:
    html = response.content.decode()
    return html[html.index('id="draft"') :]


def test_suggest_fills_the_interests_and_previews_without_saving(console, now):
    add_item("Tokio 2.0 ships a faster async runtime", now=now, age_hours=1)
    add_item("Gardening in November", now=now, age_hours=1)
    response = draft(console, "suggest", topic="keeping up with Rust async runtimes")
    assert response.status_code == 200
    assert interests_value(response) == "Rust async runtimes, async runtimes"
    assert "Interests taken from the words of your topic" in panel(response)
    assert "Tokio 2.0 ships a faster async runtime" in panel(response)
    assert "Gardening" not in panel(response)
    assert "This field is required" not in response.content.decode()  # not judged yet
    assert Subscription.objects.count() == 0


def test_a_russian_topic_finds_its_words_in_their_other_cases(console, now):
    """ "новости Оренбурга" (news of Orenburg): the items say "в Оренбурге" (in Orenburg), and the
    full-text recall and the scorer both read it as the same word."""
    add_item("ЧОПовцы в Оренбурге избили молодого человека", now=now, age_hours=1)
    add_item("Выставка цветов в Москве", now=now, age_hours=1)
    for topic in ("новости Оренбурга", "новости оренбурга"):
        response = draft(console, "suggest", topic=topic)
        assert "ЧОПовцы в Оренбурге" in panel(response), topic
        assert "Москве" not in panel(response)


def test_a_new_topic_replaces_suggested_interests_but_never_typed_ones(console):
    replaced = draft(console, "auto", topic="heat pumps", interests="solar", suggested="solar")
    assert interests_value(replaced) == "heat pumps"
    kept = draft(console, "auto", topic="heat pumps", interests="my own words", suggested="solar")
    assert interests_value(kept) == "my own words"


def test_an_empty_preview_says_why_and_what_to_change(console, now):
    add_item("Gardening in November", now=now)
    response = draft(console, "preview", topic="", interests="quantum error correction")
    assert "No item from the last 7 days mentions quantum error correction." in panel(response)
    assert "a synonym or an abbreviation" in panel(response)


def test_an_empty_preview_names_the_minimum_score_it_missed(console, alice, now):
    add_item("Old note", now=now, age_hours=150, description="PostgreSQL mentioned in passing")
    subscription = create_subscription(
        alice,
        {"name": "DB", "interests": ["PostgreSQL"], "cron": "0 8 * * *", "min_score": 90},
        now=now,
    )
    url = reverse("digests:edit", args=[subscription.pk])
    response = draft(console, "preview", url=url, interests="PostgreSQL")
    assert re.search(
        r"1 item matches, but it scores \d+, below your minimum score of 90", panel(response)
    )
    subscription.refresh_from_db()
    assert subscription.interests == ["PostgreSQL"]


def test_htmx_gets_the_same_panel_and_the_topic_field_asks_for_it(console):
    page = console.get(reverse("digests:new")).content.decode()
    assert re.search(r'name="topic"[^>]*hx-trigger="change"', page)
    assert 'hx-vals="{&quot;draft&quot;: &quot;auto&quot;}"' in page
    response = console.post(
        reverse("digests:new"),
        {"topic": "heat pumps", "interests": "", "draft": "auto"},
        HTTP_HX_REQUEST="true",
    )
    assert 'id="draft"' in response.content.decode()
    assert 'id="field-interests"' in response.content.decode()
    assert interests_value(response) == "heat pumps"


def test_a_draft_with_a_bad_value_shows_the_refusal_in_the_panel(console):
    response = draft(console, "preview", interests="x" * 101)
    assert "Each entry is at most 100 characters." in panel(response)


def test_previews_of_a_draft_share_the_preview_allowance(console, alice, now):
    with rates(subscription_preview="1/hour"):
        draft(console, "preview", interests="PostgreSQL")
        second = draft(console, "preview", interests="PostgreSQL")
    assert "You have previewed often in a short time" in panel(second)


def test_model_suggestions_past_their_allowance_come_from_the_words(console, now):
    with FakeAnthropic.running(LLM_MAX_RETRIES=0) as fake, rates(interests="1/hour"):
        fake.queue(fake_api.tool({"interests": ["heat pump", "HVAC"], "negative_keywords": []}))
        first = draft(console, "suggest", topic="heat pumps")
        second = draft(console, "suggest", topic="cold climate heat pumps")
    assert interests_value(first) == "heat pump, HVAC"
    assert "suggested by the AI model" in panel(first)
    assert interests_value(second) == "cold climate heat pumps, heat pumps, cold climate"
    assert len(fake.requests_for("suggest_interests")) == 1


def test_a_draft_preview_costs_a_fixed_number_of_queries(
    console, now, django_assert_max_num_queries
):
    for n in range(30):
        add_item(f"Tokio note {n} on the async runtime", now=now, age_hours=1 + n % 20)
    with django_assert_max_num_queries(QUERIES):
        response = draft(console, "suggest", topic="keeping up with Rust async runtimes")
    assert "Tokio note" in panel(response)
