"""The Inbox's hot queries are compiled once per process (config/compiled_query.py): a repeat
page builds no SQL, and every compiled shape lists what the ORM's query lists."""

from __future__ import annotations

import pytest
from django.urls import reverse

from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from inbox import listing
from inbox.listing import MARK_FIELDS, ROW_FIELDS, Cursor, InboxFilter, inbox_page_rows
from inbox.states import apply_action
from tests.conftest import api_client_for
from tests.factories import add_item


@pytest.fixture
def delivered(alice, now):
    """Two subscriptions, two runs; items read, saved and dismissed among them."""
    subscriptions = [
        create_subscription(
            alice,
            {"name": name, "interests": [name], "cron": "0 8 * * *", "max_items": 30},
            now=now,
        )
        for name in ("PostgreSQL", "Rust")
    ]
    for n in range(40):  # 30 in the first run, 10 in the second: more than a page
        add_item(f"PostgreSQL and Rust news {n}", now=now)
    runs = []
    for subscription in subscriptions:
        run = request_manual_run(subscription, now=now)
        runner.execute_run(run.pk, now=now)
        runs.append(run)
    items = list(runs[0].items.order_by("rank"))
    for item, action in zip(
        items, ["read", "save", "not_interested", "read", "save"], strict=False
    ):
        apply_action(alice, item, action, now=now)
    return subscriptions, runs


@pytest.mark.parametrize("query", ["", "?show=unread", "?show=saved", "?show=not_interested"])
def test_a_repeat_uncached_inbox_page_compiles_no_query(
    client, alice, delivered, settings, compiles, query
):
    settings.INBOX_PAGE_CACHE_SECONDS = 0
    subscriptions, _runs = delivered
    client.force_login(alice)
    for path in (query, f"{query or '?'}&subscription={subscriptions[0].pk}"):
        first = client.get(reverse("inbox:index") + path)  # compiles what it must, once
        assert first.context["items"]
        compiles.clear()
        again = client.get(reverse("inbox:index") + path)
        assert again.status_code == 200
        assert again.content.decode().count("data-item ") == len(first.context["items"])
        assert compiles == []


def test_a_repeat_uncached_api_page_compiles_no_query(alice, delivered, settings, compiles):
    settings.INBOX_PAGE_CACHE_SECONDS = 0
    api = api_client_for(alice)
    first = api.get("/api/v1/inbox/items?state=unread")
    compiles.clear()
    again = api.get("/api/v1/inbox/items?state=unread")
    assert again.json() == first.json()
    assert compiles == []


@pytest.mark.parametrize("show", ["all", "unread", "saved", "not_interested"])
@pytest.mark.parametrize("picked", ["nothing", "subscription", "run", "both"])
def test_each_compiled_first_page_lists_what_the_orm_lists(alice, delivered, show, picked):
    subscriptions, runs = delivered
    inbox_filter = InboxFilter(
        show=show,
        subscription_id=subscriptions[0].pk if picked in ("subscription", "both") else None,
        run_id=runs[0].pk if picked in ("run", "both") else None,
    )
    page_size = listing.PAGE_SIZE
    for fields in (ROW_FIELDS, (*ROW_FIELDS, *MARK_FIELDS)):
        compiled = listing._cut_page(
            alice, inbox_filter, after=None, zone="UTC", page_size=page_size, fields=fields
        )
        marks = fields != ROW_FIELDS
        by_orm = listing._page_items(alice, inbox_filter, after=None, zone="UTC", marks=marks)
        rows = list(by_orm.values(*fields)[: page_size + 1])
        assert compiled == (rows[:page_size], len(rows) > page_size)
        assert listing._first_page_query(inbox_filter, page_size + 1, fields) is not None


def test_only_the_usual_page_size_is_compiled(alice, delivered):
    """A query is kept per shape: a client's own `limit` must not add one per value."""
    api = api_client_for(alice)
    before = len(listing._FIRST_PAGES)
    for limit in (1, 7, 99):
        results = api.get(f"/api/v1/inbox/items?limit={limit}").json()["results"]
        assert len(results) == min(limit, 39)  # 40 delivered, one not interested
    assert len(listing._FIRST_PAGES) == before
    assert listing._first_page_query(InboxFilter(), 8, ROW_FIELDS) is None


def test_the_marks_of_a_page_are_the_orms(alice, delivered):
    from inbox.models import UserContentState

    states = UserContentState.objects.filter(user=alice)
    hashes = {state.canonical_url_hash for state in states} | {"not-a-hash"}
    expected = {s.canonical_url_hash: (s.read_at, s.saved_at, s.not_interested_at) for s in states}
    assert listing.marks_by_hash(alice, hashes) == expected
    assert listing.marks_by_hash(alice, set()) == {}


def test_each_row_says_what_its_reader_marked_and_no_one_else(alice, bob, delivered, now):
    """The marks come with the page's rows (one query): the reader's own, on the first page
    (compiled) and after a cursor (the ORM's), never another reader's mark of the same item."""
    from inbox.models import UserContentState

    # Bob got the same items and marked every one of them read and saved.
    bobs = create_subscription(
        bob, {"name": "PG", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    run = request_manual_run(bobs, now=now)
    runner.execute_run(run.pk, now=now)
    for item in run.items.all():
        apply_action(bob, item, "read", now=now)
        apply_action(bob, item, "save", now=now)
    marked = {
        state.canonical_url_hash: (
            state.read_at is not None,
            state.saved_at is not None,
            state.not_interested_at is not None,
        )
        for state in UserContentState.objects.filter(user=alice)
    }
    first = inbox_page_rows(alice, InboxFilter(show="all"), page_size=5)
    after = inbox_page_rows(alice, InboxFilter(show="all"), after=first.next_cursor, page_size=50)
    rows = first.items + after.items
    assert isinstance(first.next_cursor, Cursor) and len(rows) == 39  # one dismissed
    for row in rows:
        expected = marked.get(row["canonical_url_hash"], (False, False, False))
        assert (row["read"], row["saved"], row["not_interested"]) == expected
    assert sum(row["read"] for row in rows) == 2 and sum(row["saved"] for row in rows) == 2
    dismissed = inbox_page_rows(alice, InboxFilter(show="not_interested")).items
    assert [(r["read"], r["saved"], r["not_interested"]) for r in dismissed] == [
        (False, False, True)
    ]
