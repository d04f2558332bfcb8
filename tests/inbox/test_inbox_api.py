"""The Inbox over the API: the console's filters, bulk actions on up to 500 items (all or
nothing), the counts, and a constant number of queries per page. Alice reads, Bob is another
user whose items Alice must never reach."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.renderers import JSONRenderer

from digests.models import Run, RunItem
from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from inbox.api import InboxItemSerializer, inbox_items_json
from inbox.listing import InboxFilter, inbox_page, inbox_page_rows
from inbox.models import UserContentState
from inbox.states import MAX_BULK_ITEMS
from tests.conftest import api_client_for
from tests.factories import add_item, on_plan

ITEMS = "/api/v1/inbox/items"
BULK = "/api/v1/inbox/items/bulk"
STATS = "/api/v1/inbox/stats"


def deliver(user, now, name: str, interest: str, count: int):
    for n in range(count):
        add_item(f"{interest} note {n}", now=now, age_hours=n + 1)
    subscription = create_subscription(
        user, {"name": name, "interests": [interest], "cron": "0 8 * * *"}, now=now
    )
    run = request_manual_run(subscription, now=now)
    return runner.execute_run(run.pk, now=now)


@pytest.fixture
def runs(alice, now):
    """Alice: a PostgreSQL brief of 3 items, then a Rust brief of 2 an hour later."""
    pg = deliver(alice, now, "PG", "PostgreSQL", 3)
    rust = deliver(alice, now + timedelta(hours=1), "Rust", "Rust", 2)
    return pg, rust


def titles(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [item["title"] for item in response.json()["results"]]


def ids(run) -> list[int]:
    return list(run.items.order_by("rank").values_list("pk", flat=True))


def test_the_list_is_newest_brief_first_with_state_and_subscription(api, runs):
    body = api.get(ITEMS).json()
    assert [i["title"] for i in body["results"]] == [
        "Rust note 0",
        "Rust note 1",
        "PostgreSQL note 0",
        "PostgreSQL note 1",
        "PostgreSQL note 2",
    ]
    first = body["results"][0]
    assert (first["subscription_name"], first["run_id"]) == ("Rust", runs[1].pk)
    assert (first["read"], first["saved"], first["not_interested"]) == (False, False, False)
    assert body["next"] is None and body["previous"] is None


def test_filters_by_state_subscription_run_text_and_days(api, runs, now):
    pg, rust = runs
    first, second, third = ids(pg)
    api.post(BULK, {"action": "read", "ids": [first]})
    api.post(BULK, {"action": "save", "ids": [second]})
    api.post(BULK, {"action": "not_interested", "ids": [third]})

    assert "PostgreSQL note 0" not in titles(api.get(f"{ITEMS}?state=unread"))
    assert titles(api.get(f"{ITEMS}?state=saved")) == ["PostgreSQL note 1"]
    assert titles(api.get(f"{ITEMS}?state=not_interested")) == ["PostgreSQL note 2"]
    assert "PostgreSQL note 2" not in titles(api.get(ITEMS))
    assert titles(api.get(f"{ITEMS}?subscription={rust.subscription_id}")) == [
        "Rust note 0",
        "Rust note 1",
    ]
    assert titles(api.get(f"{ITEMS}?run={pg.pk}")) == ["PostgreSQL note 0", "PostgreSQL note 1"]
    assert titles(api.get(f"{ITEMS}?q=note+1")) == ["Rust note 1", "PostgreSQL note 1"]
    day = now.date().isoformat()
    assert len(titles(api.get(f"{ITEMS}?from={day}&to={day}"))) == 4
    assert titles(api.get(f"{ITEMS}?to=2020-01-01")) == []


@pytest.mark.parametrize(
    ("query", "param"),
    [
        ("state=archived", "state"),
        ("subscription=abc", "subscription"),
        ("run=-1", "run"),
        ("from=2026-13-01", "from"),
        ("cursor=1", "cursor"),
        ("limit=101", "limit"),
        ("unread=true", "unread"),
    ],
)
def test_bad_filters_are_refused_naming_the_parameter(api, runs, query, param):
    response = api.get(f"{ITEMS}?{query}")
    assert response.status_code == 400
    assert param in response.json()["error"]["fields"]


def test_a_to_before_from_is_an_empty_period_after_each_date_s_own_rule(api, runs):
    # Two valid dates that make no period: 422 `empty_period` (no schema states it)…
    response = api.get(f"{ITEMS}?from=2026-11-20&to=2026-11-19")
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "empty_period"
    assert list(response.json()["error"]["fields"]) == ["to"]
    # …once each date is valid: a bad `from` is still the 400 naming it.
    response = api.get(f"{ITEMS}?from=2026-13-20&to=2026-11-19")
    assert response.status_code == 400
    assert "from" in response.json()["error"]["fields"]


def test_the_cursor_reads_every_item_once(api, runs):
    seen, url = [], f"{ITEMS}?limit=2"
    while url:
        page = api.get(url).json()
        seen += [item["id"] for item in page["results"]]
        url = page["next"]
    assert len(seen) == len(set(seen)) == 5


def test_another_users_items_are_never_listed_counted_or_changed(api, runs, bob, now):
    theirs = deliver(bob, now, "Bob's", "Kubernetes", 2)
    assert not any("Kubernetes" in t for t in titles(api.get(ITEMS)))
    assert titles(api.get(f"{ITEMS}?run={theirs.pk}")) == []
    refused = api.post(BULK, {"action": "read", "ids": [*ids(runs[0]), *ids(theirs)]})
    assert refused.status_code == 404  # as if they did not exist
    assert str(ids(theirs)[0]) in refused.json()["error"]["fields"]["ids"]
    assert not UserContentState.objects.filter(read_at__isnull=False).exists()
    assert api.get(STATS).json()["delivered"] == 5


def test_bulk_marks_read_in_one_request_and_is_all_or_nothing(api, runs):
    pg, rust = runs
    every = ids(pg) + ids(rust)
    done = api.post(BULK, {"action": "read", "ids": every + every[:1]})
    assert done.status_code == 200, done.content
    assert done.json() == {"action": "read", "count": 5, "ids": every}
    assert titles(api.get(f"{ITEMS}?state=unread")) == []

    refused = api.post(BULK, {"action": "unread", "ids": [*every, 10**12]})
    assert refused.status_code == 404
    assert "1000000000000" in refused.json()["error"]["fields"]["ids"]
    assert titles(api.get(f"{ITEMS}?state=unread")) == []  # nothing changed


@pytest.mark.parametrize(
    ("body", "field", "fragment"),
    [
        ({"action": "read", "ids": list(range(1, MAX_BULK_ITEMS + 2))}, "ids", "At most 500"),
        ({"action": "read", "ids": []}, "ids", "At least 1"),
        ({"action": "archive", "ids": [1]}, "action", "Choose one of"),
        ({"action": "read", "ids": ["1"]}, "ids.0", "whole number"),
        ({"action": "read", "ids": [True]}, "ids.0", "whole number"),
        ({"action": "read", "ids": 1}, "ids", "list"),
        ({"action": "read"}, "ids", "required"),
        ({"action": "read", "ids": [1], "all": True}, "all", "Unknown field"),
    ],
)
def test_bulk_refuses_bad_requests_naming_the_field(api, runs, body, field, fragment):
    response = api.post(BULK, body)
    assert response.status_code == 400
    assert fragment in response.json()["error"]["fields"][field]
    assert not UserContentState.objects.filter(read_at__isnull=False).exists()


def test_500_items_is_one_request_with_a_few_queries(
    api, alice, now, django_assert_max_num_queries
):
    on_plan(alice, "team")  # for the manual runs
    first = deliver(alice, now, "Many", "Python", 20)
    delivered = list(first.items.all())
    many = ids(first)
    while len(many) < MAX_BULK_ITEMS:  # the same items delivered again by more runs
        again = request_manual_run(first.subscription, now=now)
        Run.objects.filter(pk=again.pk).update(status="succeeded")
        copies = RunItem.objects.bulk_create(
            [_copy(item, run_id=again.pk) for item in delivered[: MAX_BULK_ITEMS - len(many)]]
        )
        many += [copy.pk for copy in copies]
    with django_assert_max_num_queries(10):
        response = api.post(BULK, {"action": "save", "ids": many})
    assert response.status_code == 200 and response.json()["count"] == MAX_BULK_ITEMS
    saved = UserContentState.objects.filter(user=alice, saved_at__isnull=False)
    assert saved.count() == len(delivered)


def _copy(item: RunItem, **changes) -> RunItem:
    fields = {f.attname: getattr(item, f.attname) for f in item._meta.concrete_fields}
    fields.pop("id")
    return RunItem(**{**fields, **changes})


def test_a_page_costs_the_same_few_queries_whatever_its_size(
    api, alice, now, django_assert_max_num_queries
):
    deliver(alice, now, "Many", "Python", 30)
    for query in ("", "?state=unread&q=Python", "?limit=100", "?state=saved"):
        with django_assert_max_num_queries(7):
            assert api.get(f"{ITEMS}{query}").status_code == 200
    cursor = api.get(f"{ITEMS}?limit=5").json()["next"]
    with django_assert_max_num_queries(8):
        assert api.get(cursor).status_code == 200


def test_stats_count_unread_saved_and_each_subscription(api, runs, django_assert_max_num_queries):
    pg, rust = runs
    api.post(BULK, {"action": "read", "ids": ids(pg)[:2]})
    api.post(BULK, {"action": "save", "ids": ids(rust)[:1]})
    api.post(BULK, {"action": "not_interested", "ids": ids(pg)[2:]})
    with django_assert_max_num_queries(4):
        body = api.get(STATS).json()
    assert {k: body[k] for k in ("delivered", "unread", "saved", "not_interested")} == {
        "delivered": 5,
        "unread": 2,
        "saved": 1,
        "not_interested": 1,
    }
    parts = {part["name"]: part for part in body["by_subscription"]}
    assert parts["PG"]["unread"] == 0 and parts["PG"]["not_interested"] == 1
    assert (parts["Rust"]["unread"], parts["Rust"]["saved"]) == (2, 1)
    assert parts["Rust"]["subscription_id"] == rust.subscription_id


def test_stats_agree_with_the_consoles_badges(api, client, alice, runs):
    from inbox.listing import badge_counts

    api.post(BULK, {"action": "save", "ids": ids(runs[0])})
    body = api.get(STATS).json()
    badges = badge_counts(alice)
    assert (body["unread"], body["saved"]) == (badges.unread, badges.saved)


def test_the_single_item_action_answers_the_item(api, runs):
    item_id = ids(runs[0])[0]
    response = api.post(f"{ITEMS}/{item_id}/actions", {"action": "save"})
    assert response.status_code == 200
    assert response.json()["saved"] is True and response.json()["subscription_name"] == "PG"
    assert api.post(f"{ITEMS}/{item_id}/actions", {"action": 1}).status_code == 400


def test_the_inbox_needs_a_token_of_the_owner(runs, bob):
    other = api_client_for(bob)
    assert other.get(ITEMS).json()["results"] == []
    item_id = ids(runs[0])[0]
    assert other.post(f"{ITEMS}/{item_id}/actions", {"action": "read"}).status_code == 404


@pytest.mark.parametrize("zone", ["UTC", "Asia/Tokyo"])
def test_the_list_is_written_byte_for_byte_as_its_serializer_writes_it(api, alice, runs, zone):
    """The list is built from plain rows, not through InboxItemSerializer (its per-field work
    was most of a page's time); the serializer stays its schema, so the two must agree."""
    pg, _rust = runs
    first, second, _third = ids(pg)
    api.post(BULK, {"action": "read", "ids": [first]})
    api.post(BULK, {"action": "save", "ids": [first, second]})
    RunItem.objects.filter(pk=second).update(published_at=None, title="Über — 東京\u2028note")
    every = InboxFilter(show="all")

    with timezone.override(zone):
        fast = JSONRenderer().render(inbox_items_json(inbox_page_rows(alice, every).items))
        reference = InboxItemSerializer(inbox_page(alice, every).items, many=True).data
        assert fast == JSONRenderer().render(reference)
    # Through the view (which answers in UTC), the same.
    in_utc = InboxItemSerializer(inbox_page(alice, every).items, many=True).data
    assert api.get(ITEMS).json()["results"] == json.loads(JSONRenderer().render(in_utc))
    marks = {i["id"]: (i["read"], i["saved"], i["published_at"]) for i in json.loads(fast)}
    assert marks[first][:2] == (True, True) and marks[second] == (False, True, None)
