"""Folders through the reading apps: Google Reader labels (tag/list, subscription/list
categories, label streams, subscription/edit with a= and r=, rename-tag, disable-tag) and Fever
groups, as the apps send them. A subscription is in the folder of each source it reads; the
console's Sources page shows what the app filed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from digests.models import SubscriptionSource
from ingest.library.folders import create_folder, move_source
from ingest.library.sources import add_to_library
from ingest.models import Folder, Source, config_hash
from tests.inbox.test_reader_apps import (
    READ,
    READING_LIST,
    FeverClient,
    GReader,
    app_password,
    deliver,
)

LABEL = "user/-/label/"


def feed(url: str) -> Source:
    return Source.objects.create(
        type=Source.Type.FEED,
        config={"url": url},
        config_hash=config_hash(Source.Type.FEED, {"url": url}),
        url=url,
        title=url,
    )


@pytest.fixture
def filed(alice, now):
    """Alice's PG brief (4 items) reads a feed in her folder "Databases"; her Rust brief (3)
    reads a feed in no folder."""
    pg = deliver(alice, now, "PG", "PostgreSQL", 4)
    rust = deliver(alice, now, "Rust", "Rust", 3)
    postgres, rust_feed = feed("https://postgres.example/rss"), feed("https://rust.example/feed")
    entries = add_to_library(alice, postgres), add_to_library(alice, rust_feed)
    SubscriptionSource.objects.create(subscription_id=pg.subscription_id, source=postgres)
    SubscriptionSource.objects.create(subscription_id=rust.subscription_id, source=rust_feed)
    databases = create_folder(alice, "Databases", now=now)
    move_source(alice, entries[0].pk, databases.pk)
    return pg, rust, databases, entries


def test_folders_are_labels_with_their_subscriptions_and_items(alice, filed):
    pg, rust, _databases, _entries = filed
    app = GReader("alice@example.com", app_password(alice))
    assert {"id": LABEL + "Databases", "type": "folder"} in app.json("tag/list")["tags"]
    categories = {
        s["title"]: s["categories"] for s in app.json("subscription/list")["subscriptions"]
    }
    assert categories["PG"] == [{"id": LABEL + "Databases", "label": "Databases"}]
    assert categories["Rust"] == []

    in_folder = app.all_ids(s=LABEL + "Databases", n=3)
    assert sorted(map(int, in_folder)) == sorted(pg.items.values_list("pk", flat=True))
    assert app.all_ids(s=f"user/{alice.pk}/label/Databases") == in_folder
    assert app.all_ids(s=LABEL + "Nothing here") == []
    contents = app.json(f"stream/contents/{LABEL}Databases", {"n": 10})["items"]
    assert len(contents) == 4 and all(LABEL + "Databases" in i["categories"] for i in contents)
    everything = app.json(f"stream/contents/{READING_LIST}", {"n": 10})["items"]
    rust_items = [
        i for i in everything if i["origin"]["streamId"] == f"feed/{rust.subscription_id}"
    ]
    assert rust_items and not any(LABEL + "Databases" in i["categories"] for i in rust_items)

    # Marking the folder read reads its subscriptions' items only.
    assert app.post("mark-all-as-read", {"s": LABEL + "Databases"}).content == b"OK"
    assert sorted(app.all_ids(s=READING_LIST, xt=READ)) == sorted(
        str(pk) for pk in rust.items.values_list("pk", flat=True)
    )


def test_an_app_files_a_source_renames_and_deletes_folders(client, alice, filed):
    _pg, _rust, _databases, (postgres, rust_feed) = filed
    app = GReader("alice@example.com", app_password(alice))
    rust_stream = "feed/https://rust.example/feed"
    moved = app.post("subscription/edit", {"ac": "edit", "s": rust_stream, "a": LABEL + "Langs"})
    assert moved.content == b"OK"
    rust_feed.refresh_from_db()
    assert rust_feed.folder.name == "Langs"
    categories = {
        s["title"]: s["categories"] for s in app.json("subscription/list")["subscriptions"]
    }
    assert categories["Rust"] == [{"id": LABEL + "Langs", "label": "Langs"}]
    # The console's Sources page shows what the app filed.
    client.force_login(alice)
    page = client.get(reverse("ingest:list")).content.decode()
    assert f'<option value="{rust_feed.folder_id}" selected>Langs</option>' in page

    renamed = app.post("rename-tag", {"s": LABEL + "Langs", "dest": LABEL + "Languages"})
    assert renamed.content == b"OK"
    assert sorted(Folder.objects.values_list("name", flat=True)) == ["Databases", "Languages"]
    unfiled = {"ac": "edit", "s": rust_stream, "r": LABEL + "Languages"}
    assert app.post("subscription/edit", unfiled).content == b"OK"
    rust_feed.refresh_from_db()
    assert rust_feed.folder is None

    assert app.post("disable-tag", {"s": LABEL + "Databases"}).content == b"OK"
    postgres.refresh_from_db()
    assert postgres.folder is None and alice.library.count() == 2
    assert app.json("subscription/list")["subscriptions"][0]["categories"] == []


@pytest.mark.parametrize(
    ("path", "data", "field"),
    [
        (
            "subscription/edit",
            {"ac": "edit", "s": "feed/https://rust.example/feed", "a": "x"},
            "a:",
        ),
        (
            "subscription/edit",
            {"ac": "edit", "s": "feed/https://no.example/", "a": LABEL + "X"},
            "s:",
        ),
        (
            "subscription/edit",
            {"ac": "edit", "s": "feed/https://rust.example/feed", "a": LABEL},
            "a:",
        ),
        ("rename-tag", {"s": LABEL + "Databases", "dest": LABEL + ""}, "dest:"),
        ("rename-tag", {"s": LABEL + "Nope", "dest": LABEL + "New"}, "s:"),
        ("disable-tag", {"s": "user/-/state/com.google/read"}, "s:"),
    ],
)
def test_malformed_folder_edits_get_a_400_naming_them_and_change_nothing(
    alice, filed, path, data, field
):
    app = GReader("alice@example.com", app_password(alice))
    response = app.post(path, data)
    assert response.status_code == 400, response.content
    assert response.content.decode().startswith(field)
    assert list(Folder.objects.values_list("name", flat=True)) == ["Databases"]
    assert alice.library.filter(folder__isnull=False).count() == 1


def test_a_subscription_is_not_filed_itself(alice, filed):
    pg = filed[0]
    app = GReader("alice@example.com", app_password(alice))
    data = {"ac": "edit", "s": f"feed/{pg.subscription_id}", "a": LABEL + "Elsewhere"}
    refused = app.post("subscription/edit", data)
    assert refused.status_code == 400 and refused.content.decode().startswith("s:")
    assert not Folder.objects.filter(name="Elsewhere").exists()


def test_another_users_folders_are_invisible(alice, bob, filed, now):
    deliver(bob, now, "Bob's", "Kernel", 2)
    app = GReader("bob@example.com", app_password(bob))
    assert not [t for t in app.json("tag/list")["tags"] if t["id"].startswith(LABEL)]
    assert app.all_ids(s=LABEL + "Databases") == []
    refused = app.post("rename-tag", {"s": LABEL + "Databases", "dest": LABEL + "Mine"})
    assert refused.status_code == 400
    fever = FeverClient(bob, app_password(bob))
    assert [g["title"] for g in fever("groups")["groups"]] == ["Tidings"]
    assert Folder.objects.get().name == "Databases"


def test_fever_groups_are_folders(alice, filed):
    pg, rust, databases, _entries = filed
    fever = FeverClient(alice, app_password(alice))
    body = fever("groups")
    assert body["groups"] == [
        {"id": 1, "title": "Tidings"},
        {"id": databases.pk + 1, "title": "Databases"},
    ]
    members = {g["group_id"]: g["feed_ids"] for g in body["feeds_groups"]}
    assert members[databases.pk + 1] == str(pg.subscription_id)
    assert members[1] == f"{rust.subscription_id},{2**40}"  # and the Briefs feed

    fever("mark", mark="group", **{"as": "read"}, id=databases.pk + 1)
    unread = fever("unread_item_ids")["unread_item_ids"].split(",")
    assert sorted(map(int, unread)) == sorted(rust.items.values_list("pk", flat=True))
    fever("mark", mark="group", **{"as": "read"}, id=1)
    assert fever("unread_item_ids")["unread_item_ids"] == ""
