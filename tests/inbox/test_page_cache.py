"""The Inbox page cache (inbox/page_cache.py): a repeated view costs a few queries and no
rendering, and anything the page shows — a delivery, an item action, a renamed subscription,
the time that passed, the language — shows at once."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from digests.models import Subscription
from digests.subscriptions.service import update_subscription
from inbox.page_cache import CSRF_MARKER
from tests.inbox.test_inbox_views import deliver, run_again

URL = reverse("inbox:index")


@pytest.fixture
def console(client, alice):
    client.force_login(alice)
    return client


def view(client, query: str = "") -> tuple[str, int, bool]:
    """The page, its query count, and whether it was rendered (not from the cache)."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(URL + query)
    assert response.status_code == 200
    return response.content.decode(), len(captured.captured_queries), response.context is not None


def test_a_repeated_view_comes_from_the_cache_with_two_queries(console, alice, now):
    deliver(alice, [f"PostgreSQL note {n}" for n in range(30)], now=now, max_items=30)
    first, _queries, rendered = view(console)
    assert rendered
    again, queries, rendered = view(console)
    assert not rendered
    assert queries == 2  # session; the user with their preferences (the Inbox's version)
    assert again.count("PostgreSQL note") == first.count("PostgreSQL note") == 30
    assert CSRF_MARKER not in again
    assert "csrfmiddlewaretoken" in again


def test_an_item_action_shows_on_the_next_view(console, alice, now):
    run = deliver(alice, ["PostgreSQL note"], now=now)
    assert "Mark read" in view(console)[0]
    item = run.items.get()
    console.post(reverse("inbox:item_act", args=[item.pk]), {"action": "read"})
    page, _queries, rendered = view(console)
    assert rendered
    assert 'class="item is-read"' in page
    assert view(console, "?show=unread")[0].count("<article") == 0


def test_a_new_delivery_shows_on_the_next_view(console, alice, now):
    run = deliver(alice, ["PostgreSQL first"], now=now)
    view(console)
    from tests.factories import add_item

    add_item("PostgreSQL second", now=now)
    run_again(run.subscription, now=now + timedelta(minutes=5))
    page, _queries, rendered = view(console)
    assert rendered and "PostgreSQL second" in page


def test_a_renamed_subscription_shows_on_the_next_view(console, alice, now):
    run = deliver(alice, ["PostgreSQL first"], now=now, name="Databases")
    view(console)
    subscription = Subscription.objects.get(pk=run.subscription_id)
    update_subscription(subscription, {"name": "Data stores"}, now=now)
    page, _queries, rendered = view(console)
    assert rendered and "Data stores" in page


def test_relative_times_are_as_of_the_request_not_the_render(console, alice, now):
    with time_machine.travel(now, tick=False):
        deliver(alice, ["PostgreSQL note"], now=now)
        assert "1\xa0hour ago" in view(console)[0]
    with time_machine.travel(now + timedelta(minutes=45), tick=False):
        page, _queries, rendered = view(console)
    assert not rendered
    assert "1\xa0hour, 45\xa0minutes ago" in page


def test_each_language_and_filter_has_its_own_copy(console, alice, now):
    deliver(alice, ["PostgreSQL note"], now=now)
    english = view(console)[0]
    chinese = console.get(URL, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "Mark read" in english and "Mark read" not in chinese
    assert view(console, "?show=saved")[0].count("<article") == 0


def test_another_users_inbox_is_never_served(client, alice, bob, now):
    deliver(alice, ["PostgreSQL for alice"], now=now)
    deliver(bob, ["Rust for bob"], now=now, name="Bob's", interests=("Rust",))
    client.force_login(alice)
    assert "PostgreSQL for alice" in view(client)[0]
    client.force_login(bob)
    page = view(client)[0]
    assert "Rust for bob" in page and "PostgreSQL for alice" not in page


def test_turning_the_cache_off_serves_no_page_cached_before(console, alice, now, settings):
    deliver(alice, ["PostgreSQL note"], now=now)
    view(console)
    _page, _queries, rendered = view(console)
    assert not rendered  # cached
    settings.INBOX_PAGE_CACHE_SECONDS = 0
    for _ in range(2):
        _page, _queries, rendered = view(console)
        assert rendered


# --- The nav's counts (cached_badge_counts) ------------------------------------------------

UNREAD_COUNT = re.compile(r'id="nav-unread"><span aria-hidden="true">(\d+)</span>')


def nav_unread(client, url: str) -> tuple[int, int]:
    """The unread count in the nav of the page at `url`, and the page's query count."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return int(UNREAD_COUNT.search(response.content.decode()).group(1)), len(
        captured.captured_queries
    )


def test_the_nav_counts_are_counted_once_per_inbox_version(console, alice, now, settings):
    deliver(alice, ["PostgreSQL one", "PostgreSQL two"], now=now)
    pages = (reverse("digests:list"), reverse("inbox:tokens"))
    counts = [nav_unread(console, url) for url in pages for _ in range(2)]
    assert [count for count, _queries in counts] == [2, 2, 2, 2]
    settings.INBOX_COUNTS_CACHE_SECONDS = 0
    counted = [nav_unread(console, url) for url in pages]
    # The first page counted; every later page (either of them) read the counts kept.
    assert counts[0][1] == counted[0][1]
    assert counts[1][1] == counted[0][1] - 1
    assert counts[3][1] == counted[1][1] - 1


def test_the_nav_counts_follow_an_item_action_and_a_delivery(console, alice, now):
    run = deliver(alice, ["PostgreSQL one", "PostgreSQL two"], now=now)
    subscriptions = reverse("digests:list")
    assert nav_unread(console, subscriptions)[0] == 2
    item = run.items.order_by("rank").first()
    console.post(reverse("inbox:item_act", args=[item.pk]), {"action": "read"})
    assert nav_unread(console, subscriptions)[0] == 1
    from tests.factories import add_item

    add_item("PostgreSQL three", now=now)
    run_again(run.subscription, now=now + timedelta(minutes=5))
    assert nav_unread(console, subscriptions)[0] == 2


def test_a_page_that_marks_its_item_read_counts_it_at_once(console, alice, now):
    """The reader marks its item read before the page (and its nav) is rendered: the counts
    kept under the version read at the start of the request are not the page's."""
    run = deliver(alice, ["PostgreSQL one", "PostgreSQL two"], now=now)
    assert nav_unread(console, reverse("digests:list"))[0] == 2
    item = run.items.order_by("rank").first()
    assert nav_unread(console, reverse("inbox:item_read", args=[item.pk]))[0] == 1
    assert nav_unread(console, reverse("digests:list"))[0] == 1


# --- The JSON API's Inbox list (cached_api_page) -------------------------------------------

API_ITEMS = "/api/v1/inbox/items"


def api_view(api, query: str = "") -> tuple[list[dict], int]:
    with CaptureQueriesContext(connection) as captured:
        response = api.get(API_ITEMS + query)
    assert response.status_code == 200, response.content
    return response.json()["results"], len(captured.captured_queries)


def test_a_repeated_api_page_costs_one_query_for_3_or_30_items(api, alice, now):
    deliver(alice, [f"PostgreSQL note {n}" for n in range(30)], now=now, max_items=30)
    for query in ("?limit=3", "", "?state=unread"):
        first, _queries = api_view(api, query)
        again, queries = api_view(api, query)
        assert queries == 1  # the token, its user and their preferences (the Inbox's version)
        assert again == first and len(again) == (3 if query == "?limit=3" else 30)


def test_the_api_list_shows_the_readers_own_action_at_once(api, alice, now):
    run = deliver(alice, ["PostgreSQL note"], now=now)
    item = run.items.get()
    assert api_view(api)[0][0]["read"] is False
    assert api.post(f"{API_ITEMS}/{item.pk}/actions", {"action": "read"}).status_code == 200
    results, queries = api_view(api)
    assert results[0]["read"] is True and queries > 1  # built again, not the old copy
    assert api_view(api, "?state=unread")[0] == []
    # The console's action too: one version for both.
    api_view(api, "?state=saved")
    from django.test import Client

    console = Client()
    console.force_login(alice)
    console.post(reverse("inbox:item_act", args=[item.pk]), {"action": "save"})
    assert [i["id"] for i in api_view(api, "?state=saved")[0]] == [item.pk]


def test_the_api_list_shows_a_delivery_and_a_rename_at_once(api, alice, now):
    run = deliver(alice, ["PostgreSQL first"], now=now, name="Databases")
    assert [i["title"] for i in api_view(api)[0]] == ["PostgreSQL first"]
    from tests.factories import add_item

    add_item("PostgreSQL second", now=now)
    run_again(run.subscription, now=now + timedelta(minutes=5))
    assert "PostgreSQL second" in [i["title"] for i in api_view(api)[0]]
    subscription = Subscription.objects.get(pk=run.subscription_id)
    update_subscription(subscription, {"name": "Data stores"}, now=now)
    assert {i["subscription_name"] for i in api_view(api)[0]} == {"Data stores"}


def test_another_users_api_list_is_never_served(api, alice, bob, now):
    deliver(alice, ["PostgreSQL for Alice"], now=now)
    assert len(api_view(api)[0]) == 1
    from tests.conftest import api_client_for

    assert api_view(api_client_for(bob))[0] == []


def test_with_the_cache_off_every_api_page_is_built(api, alice, now, settings):
    deliver(alice, ["PostgreSQL note"], now=now)
    api_view(api)
    settings.INBOX_PAGE_CACHE_SECONDS = 0
    assert api_view(api)[1] == 2  # the token; the page with its marks
