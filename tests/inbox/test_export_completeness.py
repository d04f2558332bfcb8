"""An export is complete and honest: whatever a subscription references travels with it (so the
document imports), and what the owner deleted does not (so an import's count is what the reader
then sees)."""

from __future__ import annotations

import json

import pytest

from digests.demo import DEMO_EMAIL, set_up_demo
from digests.models import Run, Subscription, SubscriptionSource
from digests.subscriptions.service import soft_delete
from inbox.portability.export import stream_export
from inbox.portability.schema import validate
from ingest.library.bulk_add import SourceSpec, add_sources_to_library
from ingest.models import Source, UserSource
from tests.conftest import api_client_for, make_user
from tests.inbox.portability_data import populate

pytestmark = pytest.mark.django_db


def export_of(user, now) -> bytes:
    return "".join(stream_export(user, now=now)).encode()


def post_import(user, body: bytes):
    """The import through the API, read back from its job (tests.inbox.test_import)."""
    from tests.inbox.test_import import post_import as post_and_follow

    return post_and_follow(api_client_for(user), body)


def test_the_demo_users_own_export_imports(settings, tmp_path, now, django_user_model):
    settings.DATA_DIR = tmp_path
    set_up_demo(now=now)
    demo = django_user_model.objects.get(username=DEMO_EMAIL)
    body = export_of(demo, now)
    document = json.loads(body)
    validate(document)
    listed = {source["id"] for source in document["sources"]}
    referenced = {link["source"] for s in document["subscriptions"] for link in s["sources"]}
    assert referenced and referenced <= listed
    # The demo's feeds are files on this server: listed, but never with the server's path.
    assert str(tmp_path) not in body.decode()

    response = post_import(demo, body)
    assert response.status_code == 200, response.json()
    newcomer = make_user("newcomer@example.com")
    response = post_import(newcomer, body)
    assert response.status_code == 200, response.json()
    summary = response.json()
    assert summary["subscriptions_created"] == len(document["subscriptions"])
    reasons = {refused["reason"] for refused in summary["sources_refused"]}
    assert reasons == {
        "A feed the exporting server read from a local file: it cannot move to another place."
    }


def test_a_source_outside_the_library_travels_with_the_subscription_using_it(alice, bob, now):
    subscriptions, _runs = populate(alice, now=now)
    # A pack's or a followed topic's source: used by a subscription, not in the library.
    (pack,) = add_sources_to_library(
        bob,
        [
            (
                SourceSpec(
                    type=Source.Type.FEED,
                    config={"url": "https://pack.example/feed.xml"},
                    url="https://pack.example/feed.xml",
                ),
                "",
            )
        ],
        now=now,
    )
    UserSource.objects.filter(user=bob).delete()
    SubscriptionSource.objects.create(
        subscription=subscriptions[1], source_id=pack.user_source.source_id
    )

    document = json.loads(export_of(alice, now))
    (entry,) = [s for s in document["sources"] if s["url"] == "https://pack.example/feed.xml"]
    assert entry["in_library"] is False

    carol = make_user("carol@example.com")
    response = post_import(carol, export_of(alice, now))
    assert response.status_code == 200, response.json()
    security = Subscription.objects.get(owner=carol, name="Security")
    assert list(security.sources.values_list("url", flat=True)) == ["https://pack.example/feed.xml"]


def test_a_deleted_subscription_and_its_runs_are_not_exported(alice, bob, now):
    populate(alice, now=now)
    security = Subscription.objects.get(owner=alice, name="Security")
    soft_delete(security, now=now)
    kept_runs = Run.objects.filter(user=alice, subscription__deleted_at__isnull=True).count()

    document = json.loads(export_of(alice, now))
    assert [s["name"] for s in document["subscriptions"]] == ["Databases"]
    assert len(document["runs"]) == kept_runs
    assert len(document["content_states"]) == 12  # what the reader saved or read stays theirs

    response = post_import(bob, export_of(alice, now))
    assert response.status_code == 200, response.json()
    assert response.json()["subscriptions_created"] == 1
    assert list(Subscription.objects.filter(owner=bob).values_list("name", flat=True)) == [
        "Databases"
    ]
    assert not Subscription.objects.filter(owner=bob, deleted_at__isnull=False).exists()
