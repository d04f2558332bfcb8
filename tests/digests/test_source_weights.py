"""A subscription's source weights (SubscriptionSource.weight): set through the API, read by
the ranking, said in "why selected"."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from digests.models import Subscription, SubscriptionSource
from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from ingest.library.sources import add_to_library
from ingest.models import Source
from tests.factories import add_item


def library_source(user, name: str) -> Source:
    source = Source.objects.create(
        type="feed", config={"url": f"https://{name}.example/feed"}, config_hash=name * 8
    )
    source.title = name.title()
    source.save(update_fields=["title"])
    add_to_library(user, source)
    return source


@pytest.fixture
def two_sources(alice, now):
    """Two sources with one equally good item each about PostgreSQL, the newer in `quiet`."""
    loud, quiet = library_source(alice, "loud"), library_source(alice, "quiet")
    add_item("PostgreSQL vacuum explained", now=now, age_hours=5, source=loud)
    add_item("PostgreSQL indexes explained", now=now, age_hours=1, source=quiet)
    return loud, quiet


def subscription_with(alice, now, sources, **data):
    base = {
        "name": "Databases",
        "interests": ["PostgreSQL"],
        "cron": "0 8 * * *",
        "min_score": 0,
        "source_ids": [s.pk for s in sources],
    }
    return create_subscription(alice, base | data, now=now)


def ranked_titles(subscription, now) -> list[str]:
    run = runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)
    return list(run.items.order_by("rank").values_list("title", flat=True))


def test_a_weighted_source_ranks_its_items_higher_and_says_so(alice, now, two_sources):
    loud, quiet = two_sources
    unweighted = subscription_with(alice, now, two_sources, name="Plain")
    assert runner.preview(unweighted, now=now).selected[0].title == (
        "PostgreSQL indexes explained"  # the newer one, all else equal
    )
    weighted = subscription_with(
        alice, now, two_sources, source_weights={str(loud.pk): 2, str(quiet.pk): 0.5}
    )
    selected = runner.preview(weighted, now=now).selected
    assert [c.title for c in selected] == [
        "PostgreSQL vacuum explained",
        "PostgreSQL indexes explained",
    ]
    assert "ranked higher: you weighted Loud ×2" in selected[0].reason()
    assert "ranked lower: you weighted Quiet ×0.5" in selected[1].reason()
    assert ranked_titles(weighted, now)[0] == "PostgreSQL vacuum explained"


def test_weights_cost_one_query_whatever_the_number_of_candidates(alice, now, two_sources):
    loud, quiet = two_sources
    plain = subscription_with(alice, now, two_sources, name="Plain")
    weighted = subscription_with(alice, now, two_sources, source_weights={str(loud.pk): 2})

    def queries(subscription) -> int:
        with CaptureQueriesContext(connection) as captured:
            runner.score_candidates(subscription, now=now)
        return len(captured)

    assert queries(weighted) == queries(plain) + 1
    for n in range(20):
        add_item(f"PostgreSQL tip {n}", now=now, source=loud if n % 2 else quiet)
    assert queries(weighted) == queries(plain) + 1


def test_the_api_shows_and_changes_weights(api, alice, now, two_sources):
    loud, quiet = two_sources
    body = api.post(
        "/api/v1/subscriptions",
        {
            "name": "Databases",
            "interests": ["PostgreSQL"],
            "cron": "0 8 * * *",
            "source_ids": [loud.pk, quiet.pk],
            "source_weights": {str(loud.pk): 1.5},
        },
        format="json",
    ).json()
    assert body["source_weights"] == {str(loud.pk): 1.5, str(quiet.pk): 1.0}
    changed = api.patch(
        f"/api/v1/subscriptions/{body['id']}",
        {"source_weights": {str(quiet.pk): 0.25}},
        format="json",
    )
    assert changed.status_code == 200, changed.json()
    assert changed.json()["source_weights"] == {str(loud.pk): 1.5, str(quiet.pk): 0.25}


@pytest.mark.parametrize(
    ("weights", "fragment", "status"),
    [
        ({"LOUD": 4.01}, "from 0.25 to 4", 400),
        ({"LOUD": [2]}, "from 0.25 to 4", 400),
        ({"LOUD": 0}, "from 0.25 to 4", 400),
        ({"LOUD": "2"}, "from 0.25 to 4", 400),
        ({"LOUD": True}, "from 0.25 to 4", 400),
        # A key that names no source of the subscription: what exists decides (404).
        ({"abc": 2}, "Not a source of this subscription: 'abc'", 404),
        ({"99999": 2}, "Not a source of this subscription: 99999", 404),
    ],
)
def test_bad_weights_are_refused_naming_the_field_and_change_nothing(
    api, alice, now, two_sources, weights, fragment, status
):
    loud, quiet = two_sources
    subscription = subscription_with(alice, now, [loud, quiet])
    weights = {(str(loud.pk) if k == "LOUD" else k): v for k, v in weights.items()}
    response = api.patch(
        f"/api/v1/subscriptions/{subscription.pk}",
        {"source_weights": weights, "name": "Renamed"},
        format="json",
    )
    assert response.status_code == status
    assert fragment in response.json()["error"]["fields"]["source_weights"]
    assert Subscription.objects.get(pk=subscription.pk).name == "Databases"
    assert set(SubscriptionSource.objects.values_list("weight", flat=True)) == {1.0}


def test_a_weight_for_a_source_being_removed_is_refused(api, alice, now, two_sources):
    loud, quiet = two_sources
    subscription = subscription_with(alice, now, [loud, quiet])
    response = api.patch(
        f"/api/v1/subscriptions/{subscription.pk}",
        {"source_ids": [quiet.pk], "source_weights": {str(loud.pk): 2}},
        format="json",
    )
    assert response.status_code == 404  # no longer a source of it: what exists decides
    assert (
        "Not a source of this subscription"
        in (response.json()["error"]["fields"]["source_weights"])
    )
    assert SubscriptionSource.objects.filter(subscription=subscription).count() == 2
