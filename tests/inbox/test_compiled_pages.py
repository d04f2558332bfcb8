"""The Inbox's hot queries are compiled once per process (config/compiled_query.py): a repeat
page builds no SQL, and every compiled shape lists what the ORM's query lists."""

from __future__ import annotations

import pytest
from django.urls import reverse

from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from inbox import listing
from inbox.listing import ROW_FIELDS, InboxFilter
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
    compiled = listing._cut_page(
        alice, inbox_filter, after=None, zone="UTC", page_size=page_size, fields=ROW_FIELDS
    )
    by_orm = listing._page_items(alice, inbox_filter, after=None, zone="UTC")
    rows = list(by_orm.values(*ROW_FIELDS)[: page_size + 1])
    assert compiled == (rows[:page_size], len(rows) > page_size)
    assert listing._first_page_query(inbox_filter, page_size + 1, ROW_FIELDS) is not None


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
