"""The account export carries the library's folders and each source's folder; an import
restores them, matching folders by name, never twice, and a document from before folders
still imports."""

from __future__ import annotations

import json
from datetime import timedelta

import jsonschema
import pytest
from django.utils import timezone

from inbox.portability.schema import export_schema
from ingest.library.folders import create_folder, move_source
from ingest.models import Folder, UserSource
from tests.conftest import api_client_for
from tests.inbox.portability_data import populate
from tests.inbox.test_import import export_of, post_import, row_counts

pytestmark = pytest.mark.django_db

BLOG = "https://blog.example/feed.xml"


def filed(user) -> dict[str, str]:
    """{source address: folder name ("" for none)} of the user's library."""
    return {
        entry.source.url: entry.folder.name if entry.folder else ""
        for entry in UserSource.objects.filter(user=user).select_related("source", "folder")
    }


def folder_names(user) -> list[str]:
    return list(Folder.objects.filter(user=user).order_by("name").values_list("name", flat=True))


@pytest.fixture
def alices(alice):
    """Alice's account with her blog in the folder "Reading" and an empty folder "Later"."""
    now = timezone.now()
    populate(alice, now=now)
    reading = create_folder(alice, "Reading", now=now)
    create_folder(alice, "Later", now=now)
    move_source(alice, UserSource.objects.get(user=alice).pk, reading.pk)
    return alice


def test_the_export_lists_the_folders_and_each_sources_folder(alices):
    document = json.loads(export_of(alices))
    jsonschema.validate(document, export_schema())
    assert document["folders"] == [{"name": "Later"}, {"name": "Reading"}]
    assert [(s["url"], s["folder"]) for s in document["sources"]] == [(BLOG, "Reading")]


def test_an_import_restores_the_folders_and_never_makes_them_twice(alices, bob):
    client = api_client_for(bob)
    assert post_import(client, export_of(alices)).status_code == 200
    assert folder_names(bob) == ["Later", "Reading"]
    assert filed(bob) == {BLOG: "Reading"}

    # A newer export of the same account, and Alice's own export back into her account.
    later = export_of(alices, now=timezone.now() + timedelta(minutes=5))
    assert post_import(client, later).status_code == 200
    assert post_import(api_client_for(alices), later).status_code == 200
    assert folder_names(bob) == ["Later", "Reading"] == folder_names(alices)
    assert Folder.objects.count() == 4


def test_an_existing_folder_is_matched_whatever_its_case_and_the_accounts_filing_wins(alices, bob):
    now = timezone.now()
    mine = create_folder(bob, "reading", now=now)
    assert post_import(api_client_for(bob), export_of(alices)).status_code == 200
    assert folder_names(bob) == ["Later", "reading"]
    assert filed(bob) == {BLOG: "reading"}
    assert UserSource.objects.get(user=bob).folder_id == mine.pk

    # Bob moves his copy of the blog; importing Alice's newer export does not move it back.
    elsewhere = create_folder(bob, "Elsewhere", now=now)
    move_source(bob, UserSource.objects.get(user=bob).pk, elsewhere.pk)
    later = export_of(alices, now=now + timedelta(minutes=5))
    assert post_import(api_client_for(bob), later).status_code == 200
    assert filed(bob) == {BLOG: "Elsewhere"}


def test_a_document_from_before_folders_still_imports(alices, bob):
    document = json.loads(export_of(alices))
    del document["folders"]
    for source in document["sources"]:
        del source["folder"]
    response = post_import(api_client_for(bob), json.dumps(document).encode())
    assert response.status_code == 200, response.json()
    assert response.json()["sources_added"] == 1
    assert folder_names(bob) == [] and filed(bob) == {BLOG: ""}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["folders"].append({"name": "x" * 101}), "folders.2.name"),
        (lambda d: d["folders"].append({"title": "Later"}), "folders.2.name"),
        (lambda d: d["sources"][0].update(folder=7), "sources.0.folder"),
    ],
)
def test_a_bad_folder_refuses_the_whole_document_naming_it(alices, bob, change, field):
    document = json.loads(export_of(alices))
    change(document)
    client = api_client_for(bob)
    before = row_counts()
    response = post_import(client, json.dumps(document).encode())
    assert response.status_code == 400
    assert field in response.json()["error"]["fields"]
    assert row_counts() == before
