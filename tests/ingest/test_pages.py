"""`page` sources and the reading list (ingest/pages/service.py): save a link for tomorrow
08:00, get it in the Inbox exactly once at that time, see the subscription completed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.urls import reverse

from digests.models import Run, RunItem, Subscription
from digests.runs import runner
from digests.schedules import scheduler
from digests.subscriptions.service import request_manual_run
from inbox.models import UserContentState
from ingest.canonical import url_hash
from ingest.models import ContentItem, ContentItemSource, Source, UserSource
from ingest.pages.service import ReadingListError, parse_when, read_page, save_for_later
from ingest.refresh.pipeline import fetch_and_parse

PAGES = Path(__file__).parent / "testdata" / "extraction"
ARTICLE = (PAGES / "article.html").read_bytes()
# alice lives in Europe/Berlin; `now` (09:00 UTC) is 10:00 there.
TOMORROW_8_BERLIN = datetime(2026, 11, 21, 7, 0, tzinfo=UTC)


def tick(at: datetime) -> list[int]:
    """One scheduler tick at `at`, running what it claims inline, as the worker would."""
    result = scheduler.tick(
        now=at,
        run_source=lambda source_id: None,
        run_run=lambda run_id: runner.execute_run(run_id, now=at),
    )
    return result.runs


def nothing_was_created() -> bool:
    return not (
        Source.objects.exists() or UserSource.objects.exists() or Subscription.objects.exists()
    )


# --- the reader ---------------------------------------------------------------------------------


def test_the_reader_returns_one_entry_and_writes_nothing(
    fixture_server, now, db, django_assert_num_queries
):
    url = fixture_server.add("/posts/autovacuum", ARTICLE)
    source = Source(type="page", url=url, config={"url": url})

    with django_assert_num_queries(0):
        fetched = read_page(source)

    assert fetched.ok
    (entry,) = fetched.parsed.entries
    assert entry.title == "Tuning autovacuum for large tables"
    assert entry.description.startswith("Autovacuum keeps PostgreSQL tables healthy")
    assert "Lower the scale factor per table" in entry.content_html
    assert "Five index mistakes" not in entry.content_html
    assert entry.published_at is None  # saved today is news today, whatever the page's date
    assert fetched.parsed.title == "The Query Planner"


@pytest.mark.parametrize(
    ("body", "status", "headers", "message"),
    [
        (b"", 404, {}, "404"),
        (b"%PDF-1.7", 200, {"Content_Type": "application/pdf"}, "not a web page"),
        (b"<html><body><nav><a href='/'>Home</a></nav></body></html>", 200, {}, "No readable"),
    ],
)
def test_the_reader_reports_pages_it_cannot_use(fixture_server, db, body, status, headers, message):
    url = fixture_server.add("/page", body, status=status, **headers)

    fetched = read_page(Source(type="page", url=url, config={"url": url}))

    assert not fetched.ok
    assert message in fetched.error
    assert fetched.parsed is None


# --- save for later, end to end ---------------------------------------------------------------


def test_a_saved_link_is_delivered_once_at_the_chosen_time_then_completed(
    fixture_server, alice, now
):
    url = fixture_server.add("/posts/autovacuum", ARTICLE)

    saved = save_for_later(alice, url, when="tomorrow 08:00", now=now)

    subscription = saved.subscription
    assert subscription.run_at == TOMORROW_8_BERLIN
    assert subscription.next_run_at == TOMORROW_8_BERLIN
    assert subscription.cron == "" and subscription.status == "active"
    assert subscription.name == "Read later: Tuning autovacuum for large tables"
    assert list(subscription.sources.values_list("type", flat=True)) == ["page"]
    assert UserSource.objects.filter(user=alice, source=saved.source).exists()
    item = saved.item
    assert "Lower the scale factor per table" in item.full_text
    assert item.content_hash and item.full_text_at == now

    assert tick(TOMORROW_8_BERLIN - timedelta(minutes=1)) == []  # not yet
    assert len(tick(TOMORROW_8_BERLIN)) == 1
    assert tick(TOMORROW_8_BERLIN + timedelta(minutes=1)) == []
    assert tick(TOMORROW_8_BERLIN + timedelta(days=1)) == []  # one-off: never again by itself

    delivered = RunItem.objects.filter(run__user=alice)
    assert list(delivered.values_list("item_id", flat=True)) == [item.pk]
    assert UserContentState.objects.get(user=alice, item=item).delivered_count == 1
    subscription.refresh_from_db()
    assert subscription.status == "completed"
    assert subscription.next_run_at is None
    assert len(fixture_server.requests) == 1  # fetched once, when saved


def test_a_completed_reading_list_subscription_can_be_run_again(fixture_server, alice, now):
    saved = save_for_later(alice, fixture_server.add("/a", ARTICLE), when="tomorrow", now=now)
    tick(TOMORROW_8_BERLIN)
    saved.subscription.refresh_from_db()
    assert saved.subscription.status == "completed"

    two_days_later = TOMORROW_8_BERLIN + timedelta(days=2)
    run = request_manual_run(saved.subscription, now=two_days_later)
    run = runner.execute_run(run.pk, now=two_days_later)

    assert run.status == "succeeded"
    assert run.delivered_count == 1  # a day's cooldown: asked again, delivered again
    saved.subscription.refresh_from_db()
    assert saved.subscription.status == "completed"


def test_the_page_is_delivered_even_when_it_would_score_low(fixture_server, alice, now):
    # A bare page: no description, no structure — a low quality score. Still delivered.
    thin = (
        b"<html><head><title>Note</title></head><body><p>"
        + b"Short note. " * 30
        + b"</p></body></html>"
    )
    saved = save_for_later(alice, fixture_server.add("/note", thin), when="tomorrow 08:00", now=now)
    ContentItem.objects.filter(pk=saved.item.pk).update(score_quality=0, score_impact=0)

    tick(TOMORROW_8_BERLIN)

    assert RunItem.objects.filter(run__user=alice, item=saved.item).count() == 1


def test_a_page_filtered_as_a_duplicate_still_reaches_the_reader(fixture_server, alice, now):
    original = ContentItem.objects.create(
        canonical_url="https://mirror.example/autovacuum",
        canonical_url_hash=url_hash("https://mirror.example/autovacuum"),
        title="Tuning autovacuum for large tables",
        normalized_title="tuning autovacuum for large tables",
        first_seen_at=now - timedelta(hours=1),
        last_seen_at=now,
    )

    saved = save_for_later(alice, fixture_server.add("/copy", ARTICLE), when="tomorrow", now=now)
    tick(TOMORROW_8_BERLIN)

    page_item = ContentItem.objects.get(pk=saved.item.pk)
    assert page_item.pk != original.pk
    assert page_item.status == "filtered"  # soft dedup: same title within 48 h
    assert list(RunItem.objects.filter(run__user=alice).values_list("item_id", flat=True)) == [
        original.pk
    ]


def test_two_users_share_one_page_source_and_a_fresh_snapshot_is_not_refetched(
    fixture_server, alice, bob, now
):
    url = fixture_server.add("/posts/autovacuum", ARTICLE)
    first = save_for_later(alice, url, now=now)
    second = save_for_later(bob, url, when="tomorrow 09:00", now=now + timedelta(minutes=5))

    assert first.source.pk == second.source.pk
    assert Source.objects.filter(type="page").count() == 1
    assert len(fixture_server.requests) == 1
    assert second.subscription.run_at == datetime(2026, 11, 21, 9, 0, tzinfo=UTC)  # bob: UTC

    later = save_for_later(bob, url, when="in 3 hours", now=now + timedelta(hours=2))
    assert len(fixture_server.requests) == 2  # a later save takes a new snapshot
    assert later.subscription.run_at == now + timedelta(hours=5)


def test_an_unchanged_page_is_saved_again_from_its_snapshot(fixture_server, alice, bob, now):
    url = fixture_server.add("/a", ARTICLE, ETag='"v1"')
    first = save_for_later(alice, url, now=now)
    fixture_server.add("/a", b"", status=304)

    second = save_for_later(bob, url, when="in 3 hours", now=now + timedelta(hours=2))

    assert fixture_server.requests[-1][1]["If-None-Match"] == '"v1"'
    assert second.item.pk == first.item.pk
    assert second.subscription.sources.get().pk == first.source.pk
    tick(now + timedelta(hours=5))
    assert RunItem.objects.filter(run__user=bob, item=first.item).count() == 1


def test_a_saved_page_is_never_put_on_the_refresh_schedule(fixture_server, alice, now):
    saved = save_for_later(alice, fixture_server.add("/a", ARTICLE), now=now)

    saved.source.refresh_from_db()
    assert saved.source.next_refresh_at is None
    assert saved.source.last_refresh_at == now
    assert saved.source.fetch_logs.count() == 1
    assert tick(now + timedelta(hours=5)) == []
    assert len(fixture_server.requests) == 1


def test_the_reader_and_store_run_through_the_generic_pipeline(fixture_server, alice, now):
    saved = save_for_later(alice, fixture_server.add("/a", ARTICLE), now=now)

    fetched = fetch_and_parse(saved.source)  # the dispatcher in ingest/refresh/readers.py

    assert fetched.ok and fetched.parsed.entries[0].url == saved.item.canonical_url


# --- refusals: field-named, nothing written -------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "field", "fragment"),
    [
        ("", "url", "Enter the address"),
        ("ftp://files.example/x", "url", "http"),
        ("http://10.0.0.1/admin", "url", ""),
    ],
)
def test_bad_addresses_are_refused_by_field(alice, now, url, field, fragment):
    with pytest.raises(ReadingListError) as refused:
        save_for_later(alice, url, now=now)
    assert set(refused.value.errors) == {field}
    assert fragment in refused.value.errors[field]
    assert nothing_was_created()


def test_a_page_that_cannot_be_fetched_is_refused_and_leaves_nothing(fixture_server, alice, now):
    url = fixture_server.add("/missing", b"", status=404)

    with pytest.raises(ReadingListError) as refused:
        save_for_later(alice, url, now=now)

    assert "404" in refused.value.errors["url"]
    assert nothing_was_created()
    assert not ContentItem.objects.exists()


@pytest.mark.parametrize(
    ("when", "fragment"),
    [
        ("next blue moon", "understands"),
        ("today 06:00", "future"),  # 10:00 in Berlin already
        ("25:00", "understands"),
        ("in 40 days", "within the next 30 days"),
    ],
)
def test_bad_times_are_refused_before_anything_is_fetched(
    fixture_server, alice, now, when, fragment
):
    url = fixture_server.add("/a", ARTICLE)
    with pytest.raises(ReadingListError) as refused:
        save_for_later(alice, url, when=when, now=now)
    assert fragment in refused.value.errors["when"]
    assert fixture_server.requests == []
    assert nothing_was_created()


def test_an_exact_time_needs_an_offset(fixture_server, alice, now):
    url = fixture_server.add("/a", ARTICLE)
    with pytest.raises(ReadingListError) as refused:
        save_for_later(alice, url, deliver_at="2026-11-21T08:00:00", now=now)
    assert "UTC offset" in refused.value.errors["deliver_at"]

    saved = save_for_later(alice, url, deliver_at="2026-11-21T08:00:00+01:00", now=now)
    assert saved.subscription.run_at == TOMORROW_8_BERLIN


# --- the words for "when" -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("when", "expected"),
    [
        ("tomorrow", datetime(2026, 11, 21, 7, 0, tzinfo=UTC)),
        ("Tomorrow at 7:30", datetime(2026, 11, 21, 6, 30, tzinfo=UTC)),
        ("today 18:30", datetime(2026, 11, 20, 17, 30, tzinfo=UTC)),
        ("08:00", datetime(2026, 11, 21, 7, 0, tzinfo=UTC)),  # 08:00 has passed today
        ("11:00", datetime(2026, 11, 20, 10, 0, tzinfo=UTC)),
        ("in 90 minutes", datetime(2026, 11, 20, 10, 30, tzinfo=UTC)),
        ("in 2 days", datetime(2026, 11, 22, 9, 0, tzinfo=UTC)),
        ("2026-12-24 08:00", datetime(2026, 12, 24, 7, 0, tzinfo=UTC)),
        ("2026-12-24", datetime(2026, 12, 24, 7, 0, tzinfo=UTC)),  # a day alone: at 08:00
        ("2026-12-24T08:00+00:00", datetime(2026, 12, 24, 8, 0, tzinfo=UTC)),
        # The same phrases in Chinese.
        ("明天 08:00", datetime(2026, 11, 21, 7, 0, tzinfo=UTC)),
        ("明天7:30", datetime(2026, 11, 21, 6, 30, tzinfo=UTC)),
        ("今天 18：30", datetime(2026, 11, 20, 17, 30, tzinfo=UTC)),
        ("明天", datetime(2026, 11, 21, 7, 0, tzinfo=UTC)),
        ("90分钟后", datetime(2026, 11, 20, 10, 30, tzinfo=UTC)),
        ("3 小时后", datetime(2026, 11, 20, 12, 0, tzinfo=UTC)),
        ("2天后", datetime(2026, 11, 22, 9, 0, tzinfo=UTC)),
    ],
)
def test_when_is_read_in_the_users_time_zone(now, when, expected):
    assert parse_when(when, zone_name="Europe/Berlin", now=now) == expected


def test_a_time_skipped_by_the_clocks_going_forward_is_the_first_instant_after():
    # Berlin, 28 March 2027: 02:00 jumps to 03:00. "Tomorrow 02:30" is 03:00 local = 01:00 UTC.
    now = datetime(2027, 3, 27, 12, 0, tzinfo=UTC)
    assert parse_when("tomorrow 02:30", zone_name="Europe/Berlin", now=now) == datetime(
        2027, 3, 28, 1, 0, tzinfo=UTC
    )


def test_a_repeated_time_when_the_clocks_go_back_is_the_first_of_the_two():
    # Berlin, 31 October 2027: 03:00 goes back to 02:00. 02:30 happens twice; the first is CEST.
    now = datetime(2027, 10, 30, 12, 0, tzinfo=UTC)
    assert parse_when("tomorrow 02:30", zone_name="Europe/Berlin", now=now) == datetime(
        2027, 10, 31, 0, 30, tzinfo=UTC
    )


# --- console and API -----------------------------------------------------------------------------


def test_the_console_form_saves_and_shows_the_subscription(fixture_server, alice, client):
    client.force_login(alice)
    url = fixture_server.add("/a", ARTICLE)

    assert reverse("ingest:save-page") in client.get(reverse("ingest:list")).content.decode()
    response = client.post(reverse("ingest:save-page"), {"url": url, "when": "tomorrow 08:00"})

    subscription = Subscription.objects.get(owner=alice)
    assert response.status_code == 302
    assert response["Location"] == reverse("digests:detail", args=[subscription.pk])
    assert subscription.sources.get().type == "page"


def test_the_console_form_shows_errors_next_to_their_fields(alice, client):
    client.force_login(alice)

    response = client.post(reverse("ingest:save-page"), {"url": "", "when": "someday"})

    assert response.status_code == 400
    form = response.context["form"]
    assert "url" in form.errors or "when" in form.errors
    assert nothing_was_created()


def test_the_api_returns_the_subscription_and_its_next_run(fixture_server, api, alice):
    url = fixture_server.add("/a", ARTICLE)

    response = api.post(
        "/api/v1/sources/pages",
        {"url": url, "deliver_at": "2030-01-01T08:00:00+01:00"},
        format="json",
    )

    # deliver_at is checked against the real clock: far ahead is refused by name, 422 (a
    # well-formed time the clock rules out) with nothing saved.
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_time"
    assert response.json()["error"]["fields"] == {"deliver_at": "Must be within the next 30 days."}
    assert not Subscription.objects.filter(owner=alice).exists()

    # Words the server does not read: 422 too, naming `when`.
    response = api.post("/api/v1/sources/pages", {"url": url, "when": "someday"}, format="json")
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_time"
    assert list(response.json()["error"]["fields"]) == ["when"]
    assert not Subscription.objects.filter(owner=alice).exists()

    response = api.post("/api/v1/sources/pages", {"url": url, "when": "in 2 hours"}, format="json")
    body = response.json()
    assert response.status_code == 201
    subscription = Subscription.objects.get(owner=alice)
    assert body["subscription"]["id"] == subscription.pk
    assert body["subscription"]["status"] == "active"
    assert body["next_run_at"] == body["subscription"]["next_run_at"]
    assert body["subscription"]["source_ids"] == [body["source_id"]]
    assert body["item"]["title"] == "Tuning autovacuum for large tables"


def test_the_api_names_the_field_of_a_bad_address(api):
    response = api.post("/api/v1/sources/pages", {"url": "javascript:alert(1)"}, format="json")

    assert response.status_code == 422  # refused by the fetch policy
    assert set(response.json()["error"]["fields"]) == {"url"}
    assert nothing_was_created()


def test_a_later_tick_does_not_deliver_the_same_page_twice(fixture_server, alice, now):
    save_for_later(alice, fixture_server.add("/a", ARTICLE), when="tomorrow 08:00", now=now)
    tick(TOMORROW_8_BERLIN)
    tick(TOMORROW_8_BERLIN)

    assert Run.objects.filter(user=alice).count() == 1
    assert RunItem.objects.filter(run__user=alice).count() == 1
    assert ContentItemSource.objects.filter(source__type="page").count() == 1


def test_a_time_not_understood_is_refused_in_the_readers_language(now):
    from django.utils import translation

    from ingest.pages.service import delivery_time

    with translation.override("zh-hans"), pytest.raises(ReadingListError) as refused:
        delivery_time(when="下周", deliver_at=None, zone_name="Europe/Berlin", now=now)
    message = refused.value.errors["when"]
    assert "“明天 08:00”" in message and " or " not in message


@pytest.mark.parametrize("duplicate", [False, True], ids=["same-page", "near-duplicate"])
def test_saving_a_page_already_delivered_tells_the_reader_instead_of_an_empty_run(
    fixture_server, alice, now, duplicate
):
    first = save_for_later(alice, fixture_server.add("/a", ARTICLE), when="tomorrow", now=now)
    tick(TOMORROW_8_BERLIN)
    assert RunItem.objects.filter(run__user=alice, item=first.item).count() == 1
    before = (Subscription.objects.count(), Run.objects.count())
    later = TOMORROW_8_BERLIN + timedelta(hours=1)
    # The same page again, or a copy of it at another address (filtered as its duplicate).
    url = fixture_server.add("/copy" if duplicate else "/a", ARTICLE)

    with pytest.raises(ReadingListError) as refused:
        save_for_later(alice, url, deliver_at=later + timedelta(hours=1), now=later)

    assert refused.value.code == "already_delivered"
    assert "already given this page on 21 Nov 2026, 08:00" in refused.value.errors["url"]
    assert (Subscription.objects.count(), Run.objects.count()) == before  # no empty run

    # A day after it was given, saving it again delivers it again.
    again = save_for_later(alice, url, deliver_at=TOMORROW_8_BERLIN + timedelta(days=1), now=later)
    tick(TOMORROW_8_BERLIN + timedelta(days=1))
    run = Run.objects.get(subscription=again.subscription)
    assert run.delivered_count == 1


def test_the_api_says_why_an_already_delivered_page_is_not_saved(fixture_server, api, alice, now):
    url = fixture_server.add("/a", ARTICLE)
    save_for_later(alice, url, when="tomorrow", now=now)
    tick(TOMORROW_8_BERLIN)
    # The API reads the real clock: a delivery stamped far ahead of it is "just now" for it.
    UserContentState.objects.filter(user=alice).update(
        last_delivered_at=datetime(2100, 1, 1, tzinfo=UTC)
    )
    answer = api.post("/api/v1/sources/pages", {"url": url}, format="json")
    # What the reader was given, not the request's form: a conflict with the state (409).
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "already_delivered"
    assert "already given this page" in str(answer.json())
