"""`updated_since`: a client keeping a copy of its Inbox, subscriptions and runs asks only for
what changed at or after a moment — deliveries and marks, edits and pauses, a run's progress —
page by page, at a constant cost, and a moment that is not one is refused by name."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import quote

import pytest
import time_machine

from digests.models import Run
from digests.runs import runner
from digests.subscriptions.service import create_subscription, pause, request_manual_run
from inbox.states import apply_bulk_action
from tests.factories import add_item, on_plan

ITEMS = "/api/v1/inbox/items"
SUBSCRIPTIONS = "/api/v1/subscriptions"


def since(moment) -> str:
    return quote(moment.isoformat())


def deliver(user, now, name: str, interest: str, count: int) -> Run:
    for n in range(count):
        add_item(f"{interest} note {n}", now=now, age_hours=n + 1)
    with time_machine.travel(now, tick=False):
        subscription = create_subscription(
            user, {"name": name, "interests": [interest], "cron": "0 8 * * *"}, now=now
        )
        run = request_manual_run(subscription, now=now)
        return runner.execute_run(run.pk, now=now)


@pytest.fixture
def runs(alice, now):
    """A PostgreSQL brief of 3 items at `now`, a Rust brief of 2 an hour later."""
    on_plan(alice, "team")
    return deliver(alice, now, "PG", "PostgreSQL", 3), deliver(
        alice, now + timedelta(hours=1), "Rust", "Rust", 2
    )


def titles(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [item["title"] for item in response.json()["results"]]


def test_the_inbox_answers_items_delivered_or_marked_since(api, alice, runs, now):
    pg, _rust = runs
    assert titles(api.get(f"{ITEMS}?updated_since={since(now + timedelta(minutes=30))}")) == [
        "Rust note 0",
        "Rust note 1",
    ]
    # At or after: the exact moment of a delivery includes it.
    assert len(titles(api.get(f"{ITEMS}?updated_since={since(now)}"))) == 5

    _first, second, third = pg.items.order_by("rank")
    apply_bulk_action(alice, [second.pk], "read", now=now + timedelta(hours=2))
    later = since(now + timedelta(minutes=90))
    body = api.get(f"{ITEMS}?updated_since={later}").json()
    assert [(i["title"], i["read"]) for i in body["results"]] == [("PostgreSQL note 1", True)]

    # Undoing a mark is a change too; an item marked not interested is found in its view.
    apply_bulk_action(alice, [second.pk], "unread", now=now + timedelta(hours=3))
    apply_bulk_action(alice, [third.pk], "not_interested", now=now + timedelta(hours=3))
    latest = since(now + timedelta(hours=3))
    assert titles(api.get(f"{ITEMS}?updated_since={latest}")) == ["PostgreSQL note 1"]
    assert titles(api.get(f"{ITEMS}?state=not_interested&updated_since={latest}")) == [
        "PostgreSQL note 2"
    ]
    assert titles(api.get(f"{ITEMS}?updated_since={since(now + timedelta(hours=4))}")) == []


def test_an_offset_in_the_query_string_means_the_same_moment(api, runs, now):
    # 09:30+01:00 is 08:30Z; a "+" left unencoded arrives as a space and still means "+".
    for text in ("2026-11-20T10:30:00+01:00", "2026-11-20T10:30:00 01:00"):
        assert titles(api.get(f"{ITEMS}?updated_since={text}")) == ["Rust note 0", "Rust note 1"]


def test_changes_are_read_page_by_page_at_a_constant_cost(
    api, alice, runs, now, django_assert_max_num_queries
):
    on_plan(alice, "team")
    deliver(alice, now + timedelta(hours=2), "Many", "Python", 12)
    seen, url = [], f"{ITEMS}?limit=3&updated_since={since(now + timedelta(minutes=30))}"
    while url:
        with django_assert_max_num_queries(8):
            page = api.get(url).json()
        seen += [item["title"] for item in page["results"]]
        url = page["next"]
        assert url is None or "updated_since=" in url
    assert len(seen) == len(set(seen)) == 14
    assert not any(title.startswith("PostgreSQL") for title in seen)


def test_subscriptions_answer_those_edited_paused_or_delivered_since(api, alice, runs, now):
    pg, _rust = runs
    with time_machine.travel(now + timedelta(hours=2), tick=False):
        pause(pg.subscription)
    names = lambda r: [s["name"] for s in r.json()["results"]]  # noqa: E731
    response = api.get(f"{SUBSCRIPTIONS}?updated_since={since(now + timedelta(minutes=90))}")
    assert response.status_code == 200 and names(response) == ["PG"]
    # A run that delivers changes its subscription (its last run).
    response = api.get(f"{SUBSCRIPTIONS}?updated_since={since(now + timedelta(minutes=30))}")
    assert sorted(names(response)) == ["PG", "Rust"]
    assert names(api.get(f"{SUBSCRIPTIONS}?updated_since={since(now + timedelta(hours=3))}")) == []


def test_runs_answer_those_created_started_finished_or_retried_since(api, alice, runs, now):
    pg, _rust = runs
    runs_url = f"{SUBSCRIPTIONS}/{pg.subscription_id}/runs"
    with time_machine.travel(now + timedelta(hours=2), tick=False):
        waiting = request_manual_run(pg.subscription, now=now + timedelta(hours=2))
    ids = lambda r: [run["id"] for run in r.json()["results"]]  # noqa: E731
    response = api.get(f"{runs_url}?updated_since={since(now + timedelta(hours=1))}")
    assert response.status_code == 200 and ids(response) == [waiting.pk]
    runner.execute_run(waiting.pk, now=now + timedelta(hours=4))
    assert ids(api.get(f"{runs_url}?updated_since={since(now + timedelta(hours=3))}")) == [
        waiting.pk
    ]
    assert ids(api.get(f"{runs_url}?updated_since={since(now)}")) == [waiting.pk, pg.pk]


@pytest.mark.parametrize("path", [ITEMS, SUBSCRIPTIONS, "runs"])
@pytest.mark.parametrize(
    ("value", "rule", "code"),
    [
        ("2026-11-20T08:00:00", "UTC offset", "invalid"),
        ("yesterday", "ISO 8601", "invalid"),
        ("", "ISO 8601", "invalid"),
        ("1900-01-01T00:00:00Z", "1970", "out_of_range"),
    ],
)
def test_a_value_that_is_not_a_moment_is_refused_by_name(api, runs, path, value, rule, code):
    if path == "runs":
        path = f"{SUBSCRIPTIONS}/{runs[0].subscription_id}/runs"
    response = api.get(f"{path}?updated_since={value}")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert rule in error["fields"]["updated_since"]
    assert error["field_codes"] == {"updated_since": code}


def test_the_parameter_is_given_once(api, runs, now):
    response = api.get(f"{SUBSCRIPTIONS}?updated_since={since(now)}&updated_since={since(now)}")
    assert response.status_code == 400
    assert response.json()["error"]["field_codes"] == {"updated_since": "duplicate"}


def test_the_migration_dates_each_existing_state_by_its_latest_mark(alice, runs, now):
    from importlib import import_module

    from django.apps import apps

    from inbox.models import UserContentState

    migration = import_module("inbox.migrations.0010_content_state_updated_at")
    first, second, third = runs[0].items.order_by("rank")
    apply_bulk_action(alice, [first.pk], "read", now=now + timedelta(hours=1))
    apply_bulk_action(alice, [first.pk], "save", now=now + timedelta(hours=5))
    apply_bulk_action(alice, [second.pk], "not_interested", now=now + timedelta(hours=2))
    states = UserContentState.objects.filter(user=alice)
    states.update(updated_at=None)  # as the rows were before the migration
    migration.backfill(apps, None)
    by_hash = dict(states.values_list("canonical_url_hash", "updated_at"))
    assert by_hash[first.canonical_url_hash] == now + timedelta(hours=5)
    assert by_hash[second.canonical_url_hash] == now + timedelta(hours=2)
    assert by_hash[third.canonical_url_hash] is None  # never marked: not a change
