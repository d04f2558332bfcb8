"""The newest items of a set of sources (ingest/pool/recent.py), on SQLite and on PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

from ingest.canonical import url_hash
from ingest.models import ContentItem, ContentItemSource, Source
from ingest.pool.recent import id_set, recent_item_ids


def make_source(name: str) -> Source:
    return Source.objects.create(type="feed", config={"url": name}, config_hash=url_hash(name))


def sighted(source, *, now, hours_ago, also=()):
    url = f"https://pool.example/{source.pk}/{hours_ago}"
    seen = now - timedelta(hours=hours_ago)
    item = ContentItem.objects.create(
        canonical_url=url,
        canonical_url_hash=url_hash(url),
        title=url,
        first_seen_at=seen,
        last_seen_at=seen,
    )
    for other in (source, *also):
        ContentItemSource.objects.create(item=item, source=other, first_seen_at=seen)
    return item.pk


def test_it_returns_the_newest_sightings_of_the_sources_first(db, now):
    alpha, beta, gamma = make_source("alpha"), make_source("beta"), make_source("gamma")
    a1 = sighted(alpha, now=now, hours_ago=1)
    b2 = sighted(beta, now=now, hours_ago=2, also=[alpha])  # seen by both: listed once
    a3 = sighted(alpha, now=now, hours_ago=3)
    sighted(gamma, now=now, hours_ago=1)  # not asked for
    sighted(alpha, now=now, hours_ago=24 * 8)  # before the window
    since = now - timedelta(days=7)
    assert recent_item_ids([alpha.pk, beta.pk], since=since, limit=10) == [a1, b2, a3]
    assert recent_item_ids([alpha.pk, beta.pk], since=since, limit=2) == [a1, b2]
    assert recent_item_ids([beta.pk], since=since, limit=10) == [b2]
    assert recent_item_ids([], since=since, limit=10) == []


def test_many_sources_take_one_range_scan(db, now, monkeypatch):
    from ingest.pool import recent

    sources = [make_source(f"s{n}") for n in range(4)]
    items = [sighted(source, now=now, hours_ago=n + 1) for n, source in enumerate(sources)]
    monkeypatch.setattr(recent, "MAX_WALKS", 2)
    ids = recent_item_ids([s.pk for s in sources], since=now - timedelta(days=1), limit=3)
    assert ids == items[:3]


def test_id_set_is_one_parameter_for_any_number_of_values(db, now):
    source = make_source("alpha")
    wanted = [sighted(source, now=now, hours_ago=n) for n in range(3)]
    found = ContentItem.objects.filter(id__in=id_set([*wanted, 10**9])).values_list("id", flat=True)
    assert sorted(found) == wanted
    hashes = ContentItem.objects.values_list("canonical_url_hash", flat=True)
    assert (
        ContentItem.objects.filter(canonical_url_hash__in=id_set(hashes, db_type="text")).count()
        == 3
    )
