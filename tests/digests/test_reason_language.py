"""A brief made before its reader switched language reads in the new one wherever it is shown:
the reasons ("why selected") and the template overview are written out when shown
(digests.narrative.reasons, digests.narrative.language). A model's overview stays as written and
says in which language; a reason kept only as text (old rows, not recognised) shows as stored."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import translation

from digests.models import Run, RunItem
from digests.narrative import reasons
from digests.narrative.language import relocalize_template
from digests.narrative.summaries import template_narrative
from digests.runs.runner import execute_run
from digests.subscriptions.service import create_subscription, request_manual_run
from inbox.models import UserPreference
from tests.conftest import api_client_for
from tests.factories import add_item

ENGLISH = ("matches", "published", "source:")
CHINESE_MATCH = "标题中匹配 PostgreSQL"  # "matches PostgreSQL in the title"
CHINESE_PUBLISHED = "发布于"


def brief(user, now) -> Run:
    item = add_item("PostgreSQL 18 released", now=now)
    item.site_name = "PG News"
    item.save(update_fields=["site_name"])
    subscription = create_subscription(
        user, {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    return execute_run(request_manual_run(subscription, now=now).pk, now=now)


def switch_to_chinese(user) -> None:
    UserPreference.objects.filter(user=user).update(ui_locale="zh-hans", locale_mode="manual")


@pytest.fixture
def made_in_english(alice, now):
    run = brief(alice, now)
    item = run.items.get()
    assert run.output_locale == "en" and item.reason.startswith("matches PostgreSQL in the title")
    switch_to_chinese(alice)
    return run, item


def test_the_inbox_brief_page_and_reader_show_the_reasons_in_the_new_language(
    client, alice, made_in_english
):
    run, item = made_in_english
    client.force_login(alice)
    for url in (
        reverse("inbox:index"),
        reverse("inbox:run", args=[run.pk]),
        reverse("inbox:item_read", args=[item.pk]),
    ):
        page = client.get(url).content.decode()
        assert CHINESE_MATCH in page and CHINESE_PUBLISHED in page, url
        assert item.reason not in page, url
    # The template overview of the brief page, in Chinese phrases with the same items.
    page = client.get(reverse("inbox:run", args=[run.pk])).content.decode()
    assert "本期《Databases》的头条是" in page and "leads this issue" not in page


def test_the_api_answers_the_reasons_in_the_asked_language(alice, made_in_english):
    _run, item = made_in_english
    api = api_client_for(alice)
    listed = api.get("/api/v1/inbox/items", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert listed["results"][0]["reason"].startswith(CHINESE_MATCH)
    detail = api.get(f"/api/v1/runs/{item.run_id}", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert detail["items"][0]["reason"].startswith(CHINESE_MATCH)
    # The stored row keeps the run's text, for exports and feed clients.
    assert RunItem.objects.get(pk=item.pk).reason == item.reason


def test_a_model_overview_stays_as_written_and_says_in_which_language(
    client, alice, made_in_english
):
    run, _item = made_in_english
    Run.objects.filter(pk=run.pk).update(
        narrative_md="PostgreSQL 18 is out.", narrative_generator="claude-test"
    )
    client.force_login(alice)
    page = client.get(reverse("inbox:run", args=[run.pk])).content.decode()
    assert "PostgreSQL 18 is out." in page
    assert "由 AI 模型以英语撰写。" in page and 'lang="en"' in page
    # Read in the language it was written in, it says nothing.
    UserPreference.objects.filter(user=alice).update(ui_locale="en")
    page = client.get(reverse("inbox:run", args=[run.pk])).content.decode()
    assert "data-written-in" not in page


def test_a_stored_reason_reads_back_into_its_parts_in_either_language(alice, now):
    item = brief(alice, now).items.get()
    zone = item.run.subscription.timezone
    for language in ("en", "zh-hans"):
        with translation.override(language):
            text = reasons.render(item.why)
        parts = reasons.parse(text, published_at=item.published_at, zone=zone)
        assert parts == item.why, language
    # A model's own sentence leads and stays as written.
    parts = [reasons.part("model", text="A deep dive; worth it"), *item.why[1:]]
    with translation.override("en"):
        text = reasons.render(parts)
    assert reasons.parse(text, published_at=item.published_at, zone=zone) == parts


def test_old_rows_are_converted_where_they_can_be_and_shown_as_stored_where_not(client, alice, now):
    item = brief(alice, now).items.get()
    english = item.reason
    cut = "Hand-written: worth a look"
    RunItem.objects.filter(pk=item.pk).update(why=[])
    other = RunItem.objects.create(
        **{
            name: getattr(item, name)
            for name in ("run_id", "item_id", "relevance", "overall", "title", "url")
        },
        canonical_url_hash="0" * 64,
        reason=cut,
        rank=2,
        delivered_at=now,
    )
    migration = importlib.import_module("digests.migrations.0018_runitem_why_from_text")
    migration.fill(apps, None)
    item.refresh_from_db()
    other.refresh_from_db()
    assert item.why and item.reason == english
    assert other.why == []
    switch_to_chinese(alice)
    client.force_login(alice)
    page = client.get(reverse("inbox:index")).content.decode()
    assert CHINESE_MATCH in page and english not in page
    assert cut in page


def test_a_template_overview_takes_the_shown_language_phrases():
    items = [
        {"title": "A *star*", "url": "https://a.example/", "summary": "", "source_name": "A"},
        {"title": "B", "url": "https://b.example/", "summary": "", "source_name": ""},
    ]
    english = template_narrative("Brief", items, "en")
    assert relocalize_template(english, "en", "zh-hans") == template_narrative(
        "Brief", items, "zh-hans"
    )
    items[0]["source_name"] = ""
    chinese = template_narrative("Brief", items, "zh-hans")
    assert relocalize_template(chinese, "zh-hans", "ja") == template_narrative("Brief", items, "ja")
    assert relocalize_template("Not a template.", "en", "zh-hans") == "Not a template."


def test_every_kind_of_part_reads_back_in_either_language(now):
    p = reasons.part
    at = now.isoformat()
    every = [
        p("matches", terms=["PostgreSQL", "vacuum"], field="summary"),
        p("shares", words=["index", "planner"]),
        p("liked", words=["btree"]),
        p("disliked", words=["crypto"]),
        p("muted_source", source="Hype Daily"),
        p("weighted_up", source="", weight=2.5),
        p("source", name="PG News"),
        p("strengths", strengths="long article, has code"),
        p("published", at=at, zone="Europe/Berlin"),
        p("redelivered"),
    ]
    for language in ("en", "zh-hans"):
        with translation.override(language):
            text = reasons.render(every)
        read = reasons.parse(
            text, published_at=now, zone="Europe/Berlin", strengths="long article, has code"
        )
        assert read == every, (language, text)
    with translation.override("en"):
        text = reasons.render([p("followed_source"), p("weighted_down", source="X", weight=0.5)])
    assert reasons.parse(text, published_at=now, zone="") is None  # no publication: not whole
