"""Feeds whose text no database takes (a NUL, a lone UTF-16 surrogate, endless titles) are
made storable at the pool's border (ingest/pool/boundary.py); a source that still fails to
store is that source's error row, and the rest of its batch is stored in the same cycle.

Served by a real HTTP server on loopback, read by the real fetch client and parser, stored in
the real database (PostgreSQL refuses a NUL; every database refuses a lone surrogate).
"""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from ingest.models import ContentItem, FetchLog, Source, config_hash
from ingest.pool import boundary
from ingest.refresh import pipeline
from ingest.refresh.pipeline import refresh_many

VERSION = "https://jsonfeed.org/version/1.1"
POISONS = {
    "nul-title": {"title": "Bad\x00feed"},
    "surrogate-title": {"title": "Bad\ud800feed"},
    "nul-item": {"item_title": "Story\x00one"},
    "surrogate-author": {"author": "Ann\udfffe"},
}


def json_feed(name: str, *, title: str = "", item_title: str = "", author: str = "") -> bytes:
    item = {
        "id": f"{name}-1",
        "url": f"https://news.example/{name}/1",
        "title": item_title or f"Story of {name}",
        "content_text": "Some words.",
        "authors": [{"name": author or "Bea"}],
    }
    # json.dumps writes "\u0000" and a lone "\ud800" as escapes, as a hostile feed would.
    return json.dumps({"version": VERSION, "title": title or name, "items": [item]}).encode()


def make_source(url: str, now) -> Source:
    return Source.objects.create(
        type=Source.Type.FEED,
        config={"url": url},
        config_hash=config_hash(Source.Type.FEED, {"url": url}),
        url=url,
        next_refresh_at=now,
    )


def serve_batch(fixture_server, now, good: int) -> tuple[list[Source], list[Source]]:
    bad = [
        make_source(fixture_server.add(f"/{name}.json", json_feed(name, **poison)), now)
        for name, poison in POISONS.items()
    ]
    fine = [
        make_source(fixture_server.add(f"/good-{n}.json", json_feed(f"good-{n}")), now)
        for n in range(good)
    ]
    return bad, fine


def test_storable_drops_nul_and_controls_and_replaces_lone_surrogates():
    assert boundary.storable("a\x00b\x07c\td\ne") == "abc\td\ne"
    assert boundary.storable("x\ud800y") == "x\ufffdy"
    assert boundary.storable("\ud83d\ude00") == "\U0001f600"  # a split pair is joined
    assert boundary.storable("é" * 10, 3) == "ééé"
    assert boundary.storable(None) == ""


def test_poisoned_feeds_in_a_batch_are_stored_clean_beside_the_good_ones(fixture_server, db, now):
    bad, fine = serve_batch(fixture_server, now, good=12)
    outcomes = refresh_many([s.pk for s in bad + fine], now=now, concurrency=4)
    assert sorted(o.source.pk for o in outcomes) == sorted(s.pk for s in bad + fine)
    assert all(o.ok for o in outcomes), [o.error for o in outcomes if not o.ok]
    assert ContentItem.objects.count() == 16
    titles = set(Source.objects.values_list("title", flat=True))
    assert {"Badfeed", "Bad\ufffdfeed"} <= titles
    assert ContentItem.objects.filter(title="Storyone").exists()
    assert ContentItem.objects.filter(author="Ann\ufffde").exists()


def test_a_source_whose_store_raises_is_its_own_error_row_and_the_batch_goes_on(
    fixture_server, db, now, monkeypatch
):
    bad, fine = serve_batch(fixture_server, now, good=6)
    real_upsert = pipeline.upsert_entries

    def upsert_or_break(source, entries, **kwargs):
        if source.pk == bad[0].pk:
            raise ValueError("a store that nobody foresaw")
        return real_upsert(source, entries, **kwargs)

    monkeypatch.setattr(pipeline, "upsert_entries", upsert_or_break)
    outcomes = {o.source.pk: o for o in refresh_many([s.pk for s in bad + fine], now=now)}
    assert len(outcomes) == 10
    broken = outcomes[bad[0].pk]
    assert not broken.ok
    assert "a store that nobody foresaw" in broken.error
    source = Source.objects.get(pk=bad[0].pk)
    assert source.consecutive_failures == 1
    assert source.lease_expires_at is None
    assert source.next_refresh_at == now + pipeline.backoff_after(1)
    assert FetchLog.objects.get(source=source).outcome == FetchLog.Outcome.ERROR
    assert all(outcomes[s.pk].ok for s in fine)
    assert ContentItem.objects.filter(canonical_url__contains="/good-").count() == 6


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_writer_thread_that_raises_is_replaced_and_the_good_feeds_are_stored_at_once(
    fixture_server, now, monkeypatch
):
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("writer threads run on PostgreSQL only (SQLite stores on the caller)")

    class WriterKilled(BaseException):
        pass

    bad, fine = serve_batch(fixture_server, now, good=24)
    real_store = pipeline._store_or_record_failure
    poisoned = {s.pk for s in bad}

    def store_or_die(source, fetched, **kwargs):
        if source.pk in poisoned:
            raise WriterKilled  # what escapes every except Exception
        return real_store(source, fetched, **kwargs)

    monkeypatch.setattr(pipeline, "_store_or_record_failure", store_or_die)
    outcomes = refresh_many([s.pk for s in bad + fine], now=now, concurrency=4)
    assert sorted(o.source.pk for o in outcomes) == sorted(s.pk for s in fine)
    assert Source.objects.filter(pk__in=[s.pk for s in fine], last_refresh_at=now).count() == 24
    assert ContentItem.objects.count() == 24


def test_ingest_json_prints_an_error_row_not_a_traceback(fixture_server, db, now, monkeypatch):
    poisoned = fixture_server.add("/nul.json", json_feed("nul", title="Bad\x00feed"))
    out = StringIO()
    with pytest.raises(SystemExit):  # exit status 1 only if a row is an error
        monkeypatch.setattr(
            pipeline, "upsert_entries", lambda *a, **k: (_ for _ in ()).throw(ValueError("boom"))
        )
        call_command("ingest", poisoned, "--json", stdout=out, stderr=StringIO())
    (row,) = json.loads(out.getvalue())["sources"]
    assert row["status"] == "error"
    assert "boom" in row["error"]


def test_ingest_json_stores_a_poisoned_feed_clean(fixture_server, db):
    poisoned = fixture_server.add("/sur.json", json_feed("sur", title="Bad\ud800feed"))
    out = StringIO()
    call_command("ingest", poisoned, "--json", stdout=out, stderr=StringIO())
    (row,) = json.loads(out.getvalue())["sources"]
    assert row["status"] == "ok" and row["inserted"] == 1
    assert Source.objects.get().title == "Bad\ufffdfeed"
