"""The subscriptions list's first page and every page's sources are read by queries compiled
once (digests/subscriptions/api.py, config/compiled_query.py): the same answer, links
included, as DRF's own paginator over the ORM's queries."""

from __future__ import annotations

import pytest

from config.api.pagination import NewestFirstCursorPagination
from digests.models import Subscription, SubscriptionSource
from ingest.models import Source

PAGE_SIZE = 50


def _source(n: int) -> Source:
    return Source.objects.create(type="feed", config={"url": f"u{n}"}, config_hash=f"{n:064d}")


def _subscription(owner, name: str, sources=(), **fields) -> Subscription:
    subscription = Subscription.objects.create(owner=owner, name=name, cron="0 8 * * *", **fields)
    for source, weight in sources:
        SubscriptionSource.objects.create(subscription=subscription, source=source, weight=weight)
    return subscription


@pytest.fixture
def interleaved(alice, bob, now):
    """Alice's subscriptions with Bob's and her own deleted ones between them, all with
    sources: more than a page of hers."""
    feeds = [_source(n) for n in range(3)]
    for n in range(PAGE_SIZE + 5):
        _subscription(alice, f"Alice {n}", [(feeds[n % 3], 1 + n % 4)])
        if n % 10 == 0:
            _subscription(bob, f"Bob {n}", [(feeds[0], 0.5), (feeds[1], 2.0), (feeds[2], 3.0)])
            _subscription(alice, f"Gone {n}", [(feeds[2], 0.25)], deleted_at=now)
    return feeds


def _as_drf_pages_it(monkeypatch):
    """DRF's own paginator over the ORM's queryset for every page."""
    monkeypatch.setattr(
        NewestFirstCursorPagination,
        "paginate_first_page",
        lambda self, request, first_page, queryset, view=None: self.paginate_queryset(
            queryset(), request, view
        ),
    )


def _all_pages(api, path: str) -> list[dict]:
    bodies = []
    while path:
        answer = api.get(path)
        assert answer.status_code == 200, answer.content
        bodies.append(answer.json())
        path = bodies[-1]["next"]
    return bodies


def test_the_compiled_first_page_answers_as_drfs_paginator(api, alice, interleaved, monkeypatch):
    compiled = _all_pages(api, "/api/v1/subscriptions")
    _as_drf_pages_it(monkeypatch)
    by_drf = _all_pages(api, "/api/v1/subscriptions")
    assert compiled == by_drf  # every page, every link
    assert [len(body["results"]) for body in compiled] == [PAGE_SIZE, 5]
    listed = [row["name"] for body in compiled for row in body["results"]]
    assert listed == [f"Alice {n}" for n in reversed(range(PAGE_SIZE + 5))]


def test_a_page_lists_only_its_own_subscriptions_sources(api, alice, interleaved):
    """Bob's subscriptions and Alice's deleted ones sit between hers, inside the id range the
    sources are read by: none of their sources show."""
    feeds = interleaved
    results = [row for body in _all_pages(api, "/api/v1/subscriptions") for row in body["results"]]
    for row in results:
        n = int(row["name"].split()[1])
        assert row["source_ids"] == [feeds[n % 3].pk]
        assert row["source_weights"] == {str(feeds[n % 3].pk): 1 + n % 4}


def test_other_limits_and_filters_take_the_orms_way_with_the_same_answer(api, alice, interleaved):
    default = api.get("/api/v1/subscriptions").json()
    stated = api.get(f"/api/v1/subscriptions?limit={PAGE_SIZE}").json()
    assert stated["results"] == default["results"]
    assert stated["next"] == default["next"] + f"&limit={PAGE_SIZE}"
    shorter = api.get("/api/v1/subscriptions?limit=7").json()
    assert shorter["results"] == default["results"][:7]
    since = api.get("/api/v1/subscriptions?updated_since=2000-01-01T00:00:00Z").json()
    assert since["results"] == default["results"]


def test_an_empty_list_and_a_list_of_one(api, alice, bob):
    _subscription(bob, "Bob's", [(_source(1), 2.0)])
    assert api.get("/api/v1/subscriptions").json() == {
        "next": None,
        "previous": None,
        "results": [],
    }
    _subscription(alice, "Mine")
    body = api.get("/api/v1/subscriptions").json()
    assert [row["name"] for row in body["results"]] == ["Mine"]
    assert body["results"][0]["source_ids"] == []
    assert body["next"] is None


def test_a_repeat_list_compiles_no_query(api, alice, interleaved, compiles):
    first = api.get("/api/v1/subscriptions")  # compiles what it must, once
    compiles.clear()
    again = api.get("/api/v1/subscriptions")
    assert again.json() == first.json()
    assert compiles == []


def test_the_list_keeps_its_query_count(api, alice, interleaved, django_assert_num_queries):
    api.get("/api/v1/subscriptions")
    with django_assert_num_queries(3):  # the token, the page, its sources
        api.get("/api/v1/subscriptions")
    with django_assert_num_queries(3):
        api.get("/api/v1/subscriptions?limit=7")
