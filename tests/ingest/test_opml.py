"""OPML import and export: in the service, the console and the API.

Import writes rows only; it never fetches. A refused outline is reported with its reason and
the others are kept; a refused file writes nothing at all.
"""

from __future__ import annotations

import socket
from datetime import timedelta
from pathlib import Path

import defusedxml.ElementTree as DefusedET
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from ingest.fetching import fetch
from ingest.library.folders import create_folder, move_source
from ingest.library.opml import MAX_OPML_BYTES, MAX_OPML_FEEDS, OPMLError, export_opml, import_opml
from ingest.library.sources import add_to_library
from ingest.models import ContentItem, Folder, Source, UserSource, config_hash
from ingest.refresh.pipeline import claim_due_sources, refresh_source

OPML_DIR = Path(__file__).parent / "testdata" / "opml"
NESTED_URLS = {
    "https://postgres.example.com/rss/",
    "https://sqlite.example.com/atom.xml",
    "https://tj.example.org/feed.xml",
    "http://top.example.net/atom.xml",
}


def opml(name: str) -> bytes:
    return (OPML_DIR / name).read_bytes()


def opml_with(outlines: str) -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8"?><opml version="2.0"><head><title>t</title>'
        f"</head><body>{outlines}</body></opml>"
    ).encode()


def library(user) -> dict[str, str]:
    """The user's library as {feed url: name shown}."""
    return {
        entry.source.url: entry.display_name or entry.source.display_name
        for entry in UserSource.objects.filter(user=user).select_related("source")
    }


def row_counts() -> tuple[int, int]:
    return Source.objects.count(), UserSource.objects.count()


# --- Import ---------------------------------------------------------------------------------


def test_it_imports_feeds_from_nested_folders_in_canonical_form(alice, now):
    report = import_opml(alice, opml("nested.opml"), now=now)

    assert [(o.url, o.status) for o in report.outlines] == [
        ("https://postgres.example.com/rss/", "added"),
        ("https://sqlite.example.com/atom.xml", "added"),
        ("https://tj.example.org/feed.xml?utm_source=opml", "added"),
        ("HTTP://Top.Example.NET:80/atom.xml", "added"),
    ]
    assert library(alice) == {
        "https://postgres.example.com/rss/": "Postgres Weekly",
        "https://sqlite.example.com/atom.xml": "SQLite notes",
        "https://tj.example.org/feed.xml": "Tom & Jerry's <blog>",
        "http://top.example.net/atom.xml": "Top level",
    }
    source = Source.objects.get(url="https://postgres.example.com/rss/")
    assert source.type == Source.Type.FEED
    assert source.config == {"url": "https://postgres.example.com/rss/"}
    assert source.config_hash == config_hash("feed", {"url": "https://postgres.example.com/rss/"})
    assert source.refresh_mode == Source.RefreshMode.SCHEDULED
    assert source.next_refresh_at == now
    # The outline's htmlUrl is reported but the shared row's site address comes from the feed.
    assert report.outlines[0].html_url == "https://postgres.example.com/"
    assert source.site_url == ""
    assert source.title == ""


def test_it_reads_opml_1_0_titles_and_character_references(alice, now):
    report = import_opml(alice, opml("version1.opml"), now=now)
    assert [(o.title, o.status) for o in report.outlines] == [
        ("Café news", "added"),
        ("Scripting News", "added"),
    ]
    assert library(alice)["http://cafe.example.com/rss.xml"] == "Café news"


def test_importing_the_same_file_twice_adds_nothing(alice, now):
    import_opml(alice, opml("nested.opml"), now=now)
    before = row_counts()

    again = import_opml(alice, opml("nested.opml"), now=now + timedelta(hours=1))

    assert row_counts() == before
    assert {o.status for o in again.outlines} == {"already_in_library"}
    assert (again.added, again.already_in_library) == (0, 4)
    assert all(o.user_source_id for o in again.outlines)


def test_it_recognises_a_library_feed_under_another_spelling(alice, now):
    import_opml(
        alice, opml_with('<outline text="x" xmlUrl="https://feeds.example.com/a"/>'), now=now
    )

    report = import_opml(
        alice,
        opml_with('<outline text="x" xmlUrl="HTTPS://Feeds.Example.com:443/a?utm_campaign=z#f"/>'),
        now=now,
    )

    assert report.outlines[0].status == "already_in_library"
    assert Source.objects.count() == 1


def test_it_reuses_a_shared_source_stored_under_the_files_own_spelling(alice, bob, now):
    raw = "https://Legacy.example.com/feed"
    legacy = Source.objects.create(
        type="feed", config={"url": raw}, config_hash=config_hash("feed", {"url": raw}), url=raw
    )
    add_to_library(bob, legacy)

    report = import_opml(alice, opml_with(f'<outline text="Legacy" xmlUrl="{raw}"/>'), now=now)

    assert report.outlines[0].status == "added"
    assert Source.objects.count() == 1
    assert UserSource.objects.get(user=alice).source == legacy


def test_two_users_importing_the_same_feed_share_one_source(alice, bob, now):
    import_opml(alice, opml("nested.opml"), now=now)
    report = import_opml(bob, opml("nested.opml"), now=now)

    assert report.added == 4
    assert Source.objects.count() == 4
    assert UserSource.objects.count() == 8


def test_it_refuses_unsafe_addresses_with_the_reason_and_keeps_the_rest(alice, now):
    report = import_opml(alice, opml("refused.opml"), now=now)

    by_title = {o.title: o for o in report.outlines}
    assert by_title["Good one"].status == "added"
    assert by_title["Another good one"].status == "added"
    assert by_title["Good one again"].status == "duplicate"
    assert "https://good.example.com/feed.xml" in by_title["Good one again"].reason
    refusals = {
        "Private network": "private",
        "Cloud metadata": "link-local",
        "Loopback in decimal": "loopback",
        "Local file": "Only http and https addresses can be fetched, not 'file'",
        "FTP": "Only http and https addresses can be fetched, not 'ftp'",
        "SSH port": "Port 22 is not allowed",
    }
    for title, fragment in refusals.items():
        assert by_title[title].status == "refused", title
        assert fragment in by_title[title].reason, (title, by_title[title].reason)
    assert (report.added, report.duplicate, report.refused) == (2, 1, 6)
    assert set(library(alice)) == {
        "https://good.example.com/feed.xml",
        "https://other.example.com/rss",
    }
    assert Source.objects.count() == 2


@pytest.mark.parametrize(
    "url",
    ["http://localhost/feed", "http://[::1]/feed", "http://[::ffff:10.0.0.1]/feed", "javascript:x"],
)
def test_it_refuses_loopback_names_and_embedded_private_addresses(alice, now, url):
    report = import_opml(alice, opml_with(f'<outline text="x" xmlUrl="{url}"/>'), now=now)
    assert report.outlines[0].status == "refused"
    assert report.outlines[0].reason
    assert Source.objects.count() == 0


def test_import_never_touches_the_network(alice, now, monkeypatch):
    def no_network(*args, **kwargs):
        raise AssertionError("OPML import must not resolve or fetch anything")

    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    monkeypatch.setattr(fetch, "fetch", no_network)
    monkeypatch.setattr(fetch, "resolve_checked", no_network)

    report = import_opml(alice, opml("nested.opml"), now=now)

    assert report.added == 4


def test_imported_feeds_are_claimed_by_the_next_tick_and_refresh(alice, now, fixture_server):
    rss = (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>Fixture</title>'
        "<link>https://fixture.example/</link><item><title>Hello from the fixture</title>"
        "<link>https://fixture.example/1</link></item></channel></rss>"
    )
    url = fixture_server.add("/feed.xml", rss, Content_Type="application/rss+xml")
    import_opml(alice, opml_with(f'<outline text="Fixture" xmlUrl="{url}"/>'), now=now)
    assert fixture_server.requests == []  # nothing fetched during the import

    claimed = claim_due_sources(now=now)
    assert [source.url for source in claimed] == [url]
    outcome = refresh_source(claimed[0], now=now)

    assert outcome.ok, outcome.error
    assert ContentItem.objects.get().title == "Hello from the fixture"
    assert Source.objects.get().title == "Fixture"


def test_importing_does_not_touch_other_users_libraries(alice, bob, now):
    import_opml(
        bob, opml_with('<outline text="Bob named it" xmlUrl="https://b.example/f"/>'), now=now
    )
    bobs = list(UserSource.objects.filter(user=bob).values())

    import_opml(
        alice, opml_with('<outline text="Alice named it" xmlUrl="https://b.example/f"/>'), now=now
    )

    assert list(UserSource.objects.filter(user=bob).values()) == bobs
    assert library(alice) == {"https://b.example/f": "Alice named it"}


# --- Refused files ----------------------------------------------------------------------------


def assert_refused(user, data: bytes, code: str, fragment: str, now) -> None:
    before = row_counts()
    with pytest.raises(OPMLError) as caught:
        import_opml(user, data, now=now)
    assert caught.value.code == code
    assert caught.value.field == "file"
    assert fragment in caught.value.message, caught.value.message
    assert row_counts() == before


def test_it_refuses_a_file_that_is_not_xml(alice, now):
    assert_refused(alice, opml("not_xml.csv"), "not_xml", "not well-formed XML", now)


def test_it_refuses_an_empty_file(alice, now):
    assert_refused(alice, b"  \n", "empty", "empty", now)


def test_it_refuses_an_opml_file_with_an_entity_bomb(alice, now):
    assert_refused(alice, opml("entity_bomb.opml"), "forbidden_xml", "entities", now)


def test_it_refuses_an_opml_file_with_external_entities(alice, now):
    assert_refused(alice, opml("xxe.opml"), "forbidden_xml", "external-entity", now)


def test_it_refuses_a_file_over_one_megabyte(alice, now):
    padding = "<!--" + "x" * MAX_OPML_BYTES + "-->"
    data = opml_with(f'<outline text="x" xmlUrl="https://a.example/f"/>{padding}')
    assert_refused(alice, data, "too_large", "at most 1,048,576 bytes", now)


def test_it_refuses_a_file_with_more_than_a_thousand_feeds(alice, now):
    outlines = "".join(
        f'<outline text="{n}" xmlUrl="https://f{n}.example.com/rss"/>'
        for n in range(MAX_OPML_FEEDS + 1)
    )
    assert_refused(alice, opml_with(outlines), "too_many_feeds", "more than 1,000 feeds", now)


def test_it_accepts_exactly_a_thousand_feeds(alice, now, django_assert_max_num_queries):
    outlines = "".join(
        f'<outline text="{n}" xmlUrl="https://f{n}.example.com/rss"/>'
        for n in range(MAX_OPML_FEEDS)
    )
    # Bulk inserts are batched by the database's parameter limit (SQLite: ~60 sources a
    # batch, a little fewer library rows since they carry a folder; PostgreSQL: one); never a
    # query per feed. Two more: the savepoint that makes feeds and folders all or nothing.
    with django_assert_max_num_queries(43):
        report = import_opml(alice, opml_with(outlines), now=now)
    assert report.added == MAX_OPML_FEEDS
    assert UserSource.objects.filter(user=alice).count() == MAX_OPML_FEEDS


def test_a_thousand_feeds_in_fifty_folders_cost_four_queries_more(
    alice, now, django_assert_max_num_queries
):
    outlines = "".join(
        f'<outline text="Folder {f}">'
        + "".join(
            f'<outline text="{n}" xmlUrl="https://f{f}-{n}.example.com/rss"/>' for n in range(20)
        )
        + "</outline>"
        for f in range(MAX_OPML_FEEDS // 20)
    )
    # The folders read, created in one insert and read back; every feed filed in one update.
    with django_assert_max_num_queries(43 + 4):
        report = import_opml(alice, opml_with(outlines), now=now)
    assert report.added == MAX_OPML_FEEDS
    assert Folder.objects.filter(user=alice).count() == 50
    assert UserSource.objects.filter(user=alice, folder__name="Folder 7").count() == 20


def folders_of(user) -> dict[str, str]:
    """The user's library as {feed url: folder name ("" for none)}."""
    return {
        entry.source.url: entry.folder.name if entry.folder else ""
        for entry in UserSource.objects.filter(user=user).select_related("source", "folder")
    }


def test_it_files_feeds_into_the_folder_outline_they_are_in(alice, now):
    report = import_opml(alice, opml("nested.opml"), now=now)

    # The nearest enclosing folder outline names the folder; feeds at the top level stay in none.
    assert folders_of(alice) == {
        "https://postgres.example.com/rss/": "Databases",
        "https://sqlite.example.com/atom.xml": "Deeper still",
        "https://tj.example.org/feed.xml": "Tech",
        "http://top.example.net/atom.xml": "",
    }
    assert [o.folder for o in report.outlines] == ["Databases", "Deeper still", "Tech", ""]
    assert sorted(Folder.objects.filter(user=alice).values_list("name", flat=True)) == [
        "Databases",
        "Deeper still",
        "Tech",
    ]


def test_it_matches_an_existing_folder_whatever_its_case_and_keeps_the_users_filing(alice, now):
    news = create_folder(alice, "News", now=now)
    mine = create_folder(alice, "Mine", now=now)
    import_opml(alice, opml_with('<outline xmlUrl="https://kept.example.com/rss"/>'), now=now)
    move_source(alice, UserSource.objects.get(user=alice).pk, mine.pk)
    data = opml_with(
        '<outline text="  news ">'
        '<outline text="A" xmlUrl="https://a.example.com/rss"/>'
        '<outline text="Kept" xmlUrl="https://kept.example.com/rss"/></outline>'
        '<outline title="Brand new"><outline text="B" xmlUrl="https://b.example.com/rss"/>'
        '</outline><outline text="NEWS"><outline text="C" xmlUrl="https://c.example.com/rss"/>'
        "</outline>"
    )

    import_opml(alice, data, now=now)
    import_opml(alice, data, now=now)  # again: no second folder, nothing moves

    assert folders_of(alice) == {
        "https://a.example.com/rss": "News",
        "https://kept.example.com/rss": "Mine",
        "https://b.example.com/rss": "Brand new",
        "https://c.example.com/rss": "News",
    }
    assert Folder.objects.filter(user=alice).count() == 3
    assert Folder.objects.get(user=alice, name="News").pk == news.pk


def test_a_refused_file_creates_no_folder(alice, now):
    outlines = (
        '<outline text="Big">'
        + "".join(
            f'<outline text="{n}" xmlUrl="https://f{n}.example.com/rss"/>'
            for n in range(MAX_OPML_FEEDS + 1)
        )
        + "</outline>"
    )
    assert_refused(alice, opml_with(outlines), "too_many_feeds", "more than 1,000 feeds", now)
    assert not Folder.objects.exists()


def test_a_failing_write_leaves_neither_feeds_nor_folders(alice, now, monkeypatch):
    from ingest.library import opml as opml_module

    def broken(*args, **kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(opml_module, "file_entries", broken)
    with pytest.raises(RuntimeError):
        import_opml(alice, opml("nested.opml"), now=now)
    assert row_counts() == (0, 0)


def test_it_refuses_a_file_without_feed_outlines(alice, now):
    assert_refused(alice, opml("no_outlines.opml"), "no_outlines", 'has an "xmlUrl"', now)


def test_it_refuses_a_feed_offered_as_opml(alice, now):
    rss = (Path(__file__).parent / "testdata" / "rss2.xml").read_bytes()
    assert_refused(alice, rss, "not_opml", "It looks like a feed", now)


def test_a_refused_file_keeps_the_existing_library(alice, now):
    import_opml(alice, opml("nested.opml"), now=now)
    assert_refused(alice, opml("entity_bomb.opml"), "forbidden_xml", "entities", now)
    assert set(library(alice)) == NESTED_URLS


# --- Export -----------------------------------------------------------------------------------


def test_export_writes_opml_2_with_escaped_titles(alice, now):
    import_opml(alice, opml("nested.opml"), now=now)
    Source.objects.filter(url="https://postgres.example.com/rss/").update(
        site_url="https://postgres.example.com/"
    )

    document = export_opml(alice, now=now)

    assert document.startswith(b"<?xml version='1.0' encoding='utf-8'?>")
    assert b"Tom &amp; Jerry's &lt;blog&gt;" in document
    root = DefusedET.fromstring(document)
    assert root.tag == "opml"
    assert root.get("version") == "2.0"
    assert root.find("head/dateCreated").text == "Fri, 20 Nov 2026 09:00:00 GMT"
    outlines = {o.get("xmlUrl"): o for o in root.iterfind(".//outline[@xmlUrl]")}
    assert set(outlines) == NESTED_URLS
    assert outlines["https://tj.example.org/feed.xml"].get("text") == "Tom & Jerry's <blog>"
    assert outlines["https://postgres.example.com/rss/"].get("htmlUrl") == (
        "https://postgres.example.com/"
    )
    assert outlines["https://postgres.example.com/rss/"].get("type") == "rss"


def test_export_writes_each_folder_as_an_outline_holding_its_feeds(alice, now):
    import_opml(alice, opml("nested.opml"), now=now)
    create_folder(alice, "Empty", now=now)

    root = DefusedET.fromstring(export_opml(alice, now=now))

    body = root.find("body")
    tree = [
        (o.get("text"), [(c.get("xmlUrl"), c.get("type")) for c in o])
        if o.get("xmlUrl") is None
        else o.get("xmlUrl")
        for o in body
    ]
    assert tree == [
        ("Databases", [("https://postgres.example.com/rss/", "rss")]),
        ("Deeper still", [("https://sqlite.example.com/atom.xml", "rss")]),
        ("Tech", [("https://tj.example.org/feed.xml", "rss")]),
        "http://top.example.net/atom.xml",
    ]


def test_export_then_import_carries_the_folders_to_another_user(alice, bob, now):
    import_opml(alice, opml("nested.opml"), now=now)
    import_opml(bob, export_opml(alice, now=now), now=now)
    assert folders_of(bob) == folders_of(alice)
    assert folders_of(bob)["https://postgres.example.com/rss/"] == "Databases"


def test_export_costs_one_query_however_many_folders(alice, now, django_assert_num_queries):
    import_opml(alice, opml("nested.opml"), now=now)
    with django_assert_num_queries(1):
        export_opml(alice, now=now)


def test_export_leaves_out_sources_without_a_feed_address(alice, now):
    from ingest.library.packs import install_pack

    install_pack(alice, "korean-news", now=now)
    root = DefusedET.fromstring(export_opml(alice, now=now))
    urls = [o.get("xmlUrl") for o in root.iter("outline")]
    assert len(urls) == 6
    assert all(url.startswith("https://") for url in urls)


def test_export_then_import_gives_another_user_the_same_library(alice, bob, now):
    import_opml(alice, opml("nested.opml"), now=now)
    import_opml(alice, opml("version1.opml"), now=now)

    report = import_opml(bob, export_opml(alice, now=now), now=now)

    assert report.added == 6
    assert library(bob) == library(alice)
    assert set(UserSource.objects.filter(user=bob).values_list("source_id", flat=True)) == set(
        UserSource.objects.filter(user=alice).values_list("source_id", flat=True)
    )
    assert Source.objects.count() == 6


def test_export_of_an_empty_library_is_a_valid_document(alice, now):
    root = DefusedET.fromstring(export_opml(alice, now=now))
    assert root.find("body") is not None
    assert list(root.iter("outline")) == []


# --- Console ----------------------------------------------------------------------------------


def upload(name: str, data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="text/x-opml")


def test_the_console_imports_an_uploaded_file_and_shows_the_report(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("ingest:opml-import"), {"file": upload("refused.opml", opml("refused.opml"))}
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "Import finished: 2 added, 0 already in your library, 1 listed twice, 6 refused." in body
    assert "resolves" not in body
    assert "is a private address" in body
    assert len(library(alice)) == 2


def test_the_console_shows_a_refused_file_and_writes_nothing(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("ingest:opml-import"), {"file": upload("bomb.opml", opml("entity_bomb.opml"))}
    )
    assert response.status_code == 400
    assert "which are refused" in response.content.decode()
    assert row_counts() == (0, 0)


def test_the_console_asks_for_a_file(client, alice):
    client.force_login(alice)
    response = client.post(reverse("ingest:opml-import"), {})
    assert response.status_code == 400
    assert "Choose an OPML file to import." in response.content.decode()


def test_the_console_export_downloads_the_library(client, alice, now):
    import_opml(alice, opml("nested.opml"), now=now)
    client.force_login(alice)
    response = client.get(reverse("ingest:opml-export"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/x-opml; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    assert len(list(DefusedET.fromstring(response.content).iterfind(".//outline[@xmlUrl]"))) == 4


def test_the_console_opml_pages_need_a_login(client, db):
    for response in (
        client.get(reverse("ingest:opml-export")),
        client.post(reverse("ingest:opml-import"), {"file": upload("a.opml", opml("nested.opml"))}),
    ):
        assert response.status_code == 302
        assert "/accounts/login/" in response["Location"]
    assert row_counts() == (0, 0)


# --- API --------------------------------------------------------------------------------------


def test_the_api_imports_a_multipart_file(api, alice):
    response = api.post(
        "/api/v1/sources/opml", {"file": upload("f.opml", opml("nested.opml"))}, format="multipart"
    )
    assert response.status_code == 200
    body = response.json()
    assert (body["added"], body["already_in_library"], body["refused"]) == (4, 0, 0)
    assert body["outlines"][0] == {
        "url": "https://postgres.example.com/rss/",
        "title": "Postgres Weekly",
        "html_url": "https://postgres.example.com/",
        "status": "added",
        "reason": "",
        "user_source_id": UserSource.objects.get(source__url=body["outlines"][0]["url"]).pk,
        "folder": "Databases",
    }


@pytest.mark.parametrize(
    "content_type", ["text/x-opml", "application/xml", "application/x-www-form-urlencoded"]
)
def test_the_api_imports_a_raw_xml_body(api, alice, content_type):
    response = api.post(
        "/api/v1/sources/opml", data=opml("refused.opml"), content_type=content_type
    )
    assert response.status_code == 200
    body = response.json()
    assert (body["added"], body["duplicate"], body["refused"]) == (2, 1, 6)
    refused = [o for o in body["outlines"] if o["status"] == "refused"]
    assert all(o["reason"] for o in refused)


def test_the_api_refuses_a_bad_file_with_the_error_shape(api, alice):
    response = api.post("/api/v1/sources/opml", data=opml("xxe.opml"), content_type="text/xml")
    assert response.status_code == 422  # a file the server will not read: not bad input
    error = response.json()["error"]
    assert error["code"] == "forbidden_xml"
    assert "entities" in error["fields"]["file"]
    assert error["message"].startswith("file: ")
    assert row_counts() == (0, 0)


def test_the_api_refuses_a_file_too_large_with_413(api, alice):
    data = b"<opml>" + b" " * MAX_OPML_BYTES + b"</opml>"
    response = api.post("/api/v1/sources/opml", data=data, content_type="text/x-opml")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"
    assert row_counts() == (0, 0)


def test_the_api_wants_the_multipart_field_named_file(api, alice):
    response = api.post(
        "/api/v1/sources/opml", {"opml": upload("f.opml", opml("nested.opml"))}, format="multipart"
    )
    assert response.status_code == 400
    assert "file" in response.json()["error"]["fields"]


def test_the_api_exports_opml_whatever_the_client_accepts(api, alice, now):
    import_opml(alice, opml("nested.opml"), now=now)
    for accept in ("*/*", "application/json", "text/x-opml"):
        response = api.get("/api/v1/sources/opml", HTTP_ACCEPT=accept)
        assert response.status_code == 200, accept
        assert response["Content-Type"] == "text/x-opml; charset=utf-8"
        assert {
            o.get("xmlUrl")
            for o in DefusedET.fromstring(response.content).iterfind(".//outline[@xmlUrl]")
        } == (NESTED_URLS)


def test_the_api_export_is_only_the_callers_library(api, alice, bob, now):
    import_opml(bob, opml("nested.opml"), now=now)
    response = api.get("/api/v1/sources/opml")
    assert list(DefusedET.fromstring(response.content).iter("outline")) == []


def test_the_opml_api_needs_a_token(db):
    client = APIClient()
    assert client.get("/api/v1/sources/opml").status_code == 401
    response = client.post(
        "/api/v1/sources/opml", data=opml("nested.opml"), content_type="text/x-opml"
    )
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"
    assert row_counts() == (0, 0)
