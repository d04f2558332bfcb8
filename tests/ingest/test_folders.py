"""Folders in the source library: on the Sources page and through the JSON API.

Alice files her feeds; Bob, another reader following the same feed, keeps his own folders and
can neither see nor change hers. Deleting a folder never removes a source from the library.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ingest.library.folders import FolderError, create_folder, move_source
from ingest.library.sources import add_to_library
from ingest.models import Folder, Source, UserSource, config_hash
from tests.conftest import api_client_for


def feed(url: str, title: str) -> Source:
    return Source.objects.create(
        type=Source.Type.FEED,
        config={"url": url},
        config_hash=config_hash(Source.Type.FEED, {"url": url}),
        url=url,
        title=title,
    )


@pytest.fixture
def library(alice, bob):
    """Alice follows two feeds, Bob one of them."""
    postgres = feed("https://postgres.example/rss", "Postgres news")
    rust = feed("https://rust.example/feed", "This week in Rust")
    entries = add_to_library(alice, postgres), add_to_library(alice, rust)
    add_to_library(bob, postgres)
    return entries


def folder_of(entry: UserSource) -> str | None:
    entry.refresh_from_db()
    return entry.folder.name if entry.folder_id else None


def test_a_reader_files_sources_into_folders_on_the_sources_page(client, alice, library):
    postgres, rust = library
    client.force_login(alice)
    response = client.post(reverse("ingest:folder-create"), {"name": "  Databases "})
    assert response.status_code == 302
    databases = Folder.objects.get(user=alice)
    assert databases.name == "Databases"

    client.post(reverse("ingest:move", args=[postgres.pk]), {"folder": databases.pk})
    assert folder_of(postgres) == "Databases" and folder_of(rust) is None
    page = client.get(reverse("ingest:list")).content.decode()
    assert f'<option value="{databases.pk}" selected>Databases</option>' in page

    client.post(reverse("ingest:folder-rename", args=[databases.pk]), {"name": "Data"})
    assert folder_of(postgres) == "Data"
    client.post(reverse("ingest:move", args=[postgres.pk]), {"folder": ""})
    assert folder_of(postgres) is None


def test_deleting_a_folder_keeps_its_sources_in_the_library(client, alice, library):
    postgres, _rust = library
    databases = create_folder(alice, "Databases", now=postgres.added_at)
    move_source(alice, postgres.pk, databases.pk)
    client.force_login(alice)
    client.post(reverse("ingest:folder-delete", args=[databases.pk]))
    assert not Folder.objects.exists()
    assert folder_of(postgres) is None and alice.library.count() == 2


def test_refused_folder_names_are_shown_and_change_nothing(client, alice, library):
    client.force_login(alice)
    create_folder(alice, "News", now=library[0].added_at)
    for name, reason in [("", "Give the folder a name."), ("x" * 101, "at most 100")]:
        response = client.post(reverse("ingest:folder-create"), {"name": name})
        assert response.status_code == 400 and reason in response.content.decode()
    # Names are unique per reader as written (apps' labels are): "news" is another folder.
    assert client.post(reverse("ingest:folder-create"), {"name": "news"}).status_code == 302
    assert sorted(Folder.objects.values_list("name", flat=True)) == ["News", "news"]
    refused = client.post(reverse("ingest:folder-create"), {"name": "News"})
    assert refused.status_code == 400 and "already have a folder named News" in (
        refused.content.decode()
    )
    assert Folder.objects.count() == 2


def test_another_readers_folders_and_sources_are_out_of_reach(client, alice, bob, library):
    postgres, _rust = library
    alices = create_folder(alice, "Databases", now=postgres.added_at)
    bobs = create_folder(bob, "Mine", now=postgres.added_at)
    bob_entry = UserSource.objects.get(user=bob)
    with pytest.raises(FolderError) as refused:
        move_source(alice, postgres.pk, bobs.pk)
    assert refused.value.field == "folder"
    with pytest.raises(FolderError):
        move_source(alice, bob_entry.pk, alices.pk)
    client.force_login(bob)
    client.post(reverse("ingest:folder-rename", args=[alices.pk]), {"name": "Hijacked"})
    client.post(reverse("ingest:folder-delete", args=[alices.pk]))
    response = client.post(reverse("ingest:move", args=[bob_entry.pk]), {"folder": alices.pk})
    assert response.status_code == 400
    assert Folder.objects.get(pk=alices.pk).name == "Databases"
    assert folder_of(bob_entry) is None and folder_of(postgres) is None


def test_the_sources_page_costs_the_same_queries_with_more_folders(client, alice, library):
    client.force_login(alice)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("ingest:list")).status_code == 200
        return len(captured.captured_queries)

    create_folder(alice, "One", now=library[0].added_at)
    move_source(alice, library[0].pk, Folder.objects.get(name="One").pk)
    queries()  # the first view counts the nav (then kept under the Inbox version)
    before = queries()
    for n in range(5):
        folder = create_folder(alice, f"Folder {n}", now=library[0].added_at)
        move_source(alice, library[n % 2].pk, folder.pk)
    assert queries() == before


def test_the_api_lists_creates_renames_moves_and_deletes_folders(alice, bob, library):
    postgres, rust = library
    api = api_client_for(alice)
    created = api.post("/api/v1/folders", {"name": "Databases"}, format="json")
    assert created.status_code == 201, created.content
    folder = created.json()
    assert folder["name"] == "Databases" and folder["source_count"] == 0
    assert created["Location"].endswith(f"/api/v1/folders/{folder['id']}")

    moved = api.patch(f"/api/v1/sources/{postgres.pk}", {"folder": folder["id"]}, format="json")
    assert moved.status_code == 200, moved.content
    assert (moved.json()["folder"], moved.json()["folder_name"]) == (folder["id"], "Databases")
    listed = {s["id"]: s["folder_name"] for s in api.get("/api/v1/sources").json()["results"]}
    assert listed == {postgres.pk: "Databases", rust.pk: None}
    assert api.get("/api/v1/folders").json()["results"][0]["source_count"] == 1

    renamed = api.patch(f"/api/v1/folders/{folder['id']}", {"name": "Data"}, format="json")
    assert renamed.json()["name"] == "Data"
    assert api.delete(f"/api/v1/folders/{folder['id']}").status_code == 204
    assert api.get(f"/api/v1/sources/{postgres.pk}").json()["folder"] is None

    # Bob's client cannot reach Alice's folder, nor file into it.
    mine = api.post("/api/v1/folders", {"name": "Kept"}, format="json").json()
    bobs = api_client_for(bob)
    assert bobs.get(f"/api/v1/folders/{mine['id']}").status_code == 404
    bob_entry = UserSource.objects.get(user=bob)
    refused = bobs.patch(f"/api/v1/sources/{bob_entry.pk}", {"folder": mine["id"]}, format="json")
    assert refused.status_code == 404 and "folder" in refused.json()["error"]["fields"]


@pytest.mark.parametrize(
    ("path", "body", "field", "status"),
    [
        ("/api/v1/folders", {"name": ""}, "name", 400),
        ("/api/v1/folders", {"name": "x" * 101}, "name", 400),
        ("/api/v1/folders", {"name": "Databases", "colour": "red"}, "colour", 400),
        ("/api/v1/folders", {"name": "Taken"}, "name", 409),  # in use: a conflict
    ],
)
def test_the_api_refuses_bad_folders_naming_the_field(alice, library, path, body, field, status):
    api = api_client_for(alice)
    api.post("/api/v1/folders", {"name": "Taken"}, format="json")
    response = api.post(path, body, format="json")
    assert response.status_code == status, response.content
    assert field in response.json()["error"]["fields"]
    assert Folder.objects.count() == 1


def test_moving_a_source_needs_a_folder_id_or_null(alice, library):
    api = api_client_for(alice)
    for body in ({"folder": "Databases"}, {"folder": 0}):
        response = api.patch(f"/api/v1/sources/{library[0].pk}", body, format="json")
        assert response.status_code == 400 and "folder" in response.json()["error"]["fields"]
    # An empty PATCH changes nothing (it names nothing to change).
    assert api.patch(f"/api/v1/sources/{library[0].pk}", {}, format="json").status_code == 200
    assert folder_of(library[0]) is None
