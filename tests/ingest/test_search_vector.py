"""PostgreSQL: the ingest path cuts the full-text document's words itself
(ingest/pool/search_index.py `pg_words()`) instead of the server's regexp_replace, and a refresh
stores a feed in fewer statements.
What a search finds must not change: the document is the one the former generated column's
expression computes, row for row."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ingest.models import ContentItem, FetchLog, Source
from ingest.pool import search_index
from ingest.pool.search_index import pg_document_words, search_pool
from ingest.refresh.pipeline import refresh_source

pytestmark = pytest.mark.postgres

TESTDATA = Path(__file__).parent / "testdata"
FEEDS = ["rss2.xml", "atom.xml", "rss091.xml", "rss1_rdf.xml", "jsonfeed.json", "reused_guid.xml"]
WHEN = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)

# Texts where the server's tokenizer and the database's locale could disagree with a naive
# Python split: each must come out the same, or be left to the server (None).
EDGE_CASES = [
    ("Hello, World!", "GPT-3.5 and C++ at github.com/x, mail me@example.org"),
    ("", "only a description"),
    ("a title only", ""),
    ("", ""),
    ("—", "… · ¡¿ —"),
    ("It’s “quoted”\u00a0text", "Don’t stop\u2009— thin space\tand\ttabs\nand lines"),
    ("Café au lait", "naïve façade"),
    ("生成AI の規制", "大模型 AI芯片"),
    ("Emoji 🚀 launch", "price €5 ©2026 ™"),
    ("Rails 4.0.1 gem 482e0c05fb25ae9a8d261f301054fc182e7b4447", "sha 66e189a5331dabc6"),
    ("1e5 0x1F 12abc abc12 007 99e6b3", "E10 e5 5e 5E5"),
    ("<b>bold</b> &amp; &#169; entities", "<p>tags <a href='x'>link</a></p>"),
    ("x " + "b" * 2046 + " y", "z"),
    ("x " + "b" * 2047 + " y", "z"),
    ("x " + "b" * 2048 + " y", "z"),
    ("", "a " * 255),
    ("", "a " * 256),
    ("a a", "a " * 254),
    ("", "word " * 17000),
    ("", "x" * 100_001),
    ("UPPER lower MiXeD", "İstanbul ß ﬁ"),
    ("under_score snake_case", "semi;colon back\\slash 'quote' \"dq\" colon:1"),
]


def _server_document(title: str, description: str, published_at, first_seen_at) -> str:
    """The former generated column's expression, evaluated by the server over these values."""
    expression = search_index._PG_DOCUMENT
    for column in search_index._PG_DOCUMENT_COLUMNS:
        expression = expression.replace(f"({column}", f"(%({column})s").replace(
            f" {column})", f" %({column})s)"
        )
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT ({expression})::text",
            {
                "title": title,
                "description": description,
                "published_at": published_at,
                "first_seen_at": first_seen_at,
            },
        )
        return cursor.fetchone()[0]


def _document_from_words(words: tuple[str, str], published_at, first_seen_at) -> str:
    """The document as the ingest path has the server compute it, from Python's words."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT ("
            + search_index._pg_vector("%s::text", "%s::text", "%s::timestamptz", "%s::timestamptz")
            + ")::text",
            [*words, published_at, first_seen_at],
        )
        return cursor.fetchone()[0]


def _refresh_fixture_feeds(now: datetime) -> list[Source]:
    sources = []
    for name in FEEDS:
        source = Source.objects.create(
            type=Source.Type.FEED,
            config={"file": str(TESTDATA / name)},
            config_hash=f"vector-{name}",
            title=name,
        )
        assert refresh_source(source, now=now).ok
        sources.append(source)
    return sources


@pytest.fixture
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("the search_vector column exists on PostgreSQL only")


@pytest.mark.django_db
@pytest.mark.parametrize(("title", "description"), EDGE_CASES)
def test_the_words_cut_in_python_give_the_servers_document(postgresql_only, title, description):
    words = pg_document_words(title, description)
    for published_at in (None, WHEN - timedelta(days=400), datetime(1969, 12, 31, 23, tzinfo=UTC)):
        server = _server_document(title, description, published_at, WHEN)
        if words is not None:
            assert _document_from_words(words, published_at, WHEN) == server


def test_text_with_ascii_letters_and_punctuation_is_cut_in_python_the_rest_by_the_server():
    assert pg_document_words("It’s “quoted”", "GPT-3.5 and C++") == (
        "It s  quoted ",
        "GPT 3 5 and C  ",
    )
    assert pg_document_words("Café", "x") is None
    assert pg_document_words("Launch", "🚀") is None
    assert pg_document_words("", "x" * 100_001) == ("", "x" * 100_000)


@pytest.mark.django_db
def test_every_stored_document_equals_the_former_generated_column(postgresql_only, now):
    _refresh_fixture_feeds(now)
    ContentItem.objects.create(
        canonical_url="https://example.org/orm",
        canonical_url_hash="orm-row",
        title="Written through the ORM: naïve café",
        description="the trigger fills it",
        first_seen_at=now,
        last_seen_at=now,
    )
    rows = list(
        ContentItem.objects.values_list(
            "id", "title", "description", "published_at", "first_seen_at"
        )
    )
    assert len(rows) > 10
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, {search_index.PG_COLUMN}::text FROM {search_index.TABLE}")  # noqa: S608
        stored = dict(cursor.fetchall())
    for item_id, *values in rows:
        assert stored[item_id] == _server_document(*values), item_id
    # An update of the text recomputes it.
    item = ContentItem.objects.get(canonical_url_hash="orm-row")
    ContentItem.objects.filter(pk=item.pk).update(title="Renamed headline")
    item.refresh_from_db()
    assert search_pool(["renamed headline"], since=now - timedelta(days=1), until=now) == [item.pk]


@pytest.mark.django_db
def test_searches_find_the_same_items_as_with_the_servers_document(postgresql_only, now):
    _refresh_fixture_feeds(now)
    queries = [["the"], ["a"], ["feed"], ["item", "entry"], ["example"], ["news"], ["first post"]]
    window = {"since": now - timedelta(days=3650), "until": now + timedelta(days=1)}
    found = {
        (tuple(terms), order): search_pool(terms, order=order, limit=100, **window)
        for terms in queries
        for order in ("relevance", "recent")
    }
    assert any(found.values())
    with connection.cursor() as cursor:  # the former column's values, computed by the server
        cursor.execute(
            f"UPDATE {search_index.TABLE} SET {search_index.PG_COLUMN} = "  # noqa: S608
            f"{search_index._PG_DOCUMENT}"
        )
    for (terms, order), ids in found.items():
        assert search_pool(list(terms), order=order, limit=100, **window) == ids, (terms, order)


WORDS = [
    "council",
    "budget",
    "river",
    "bridge",
    "school",
    "library",
    "transit",
    "housing",
    "market",
    "festival",
    "museum",
    "harbour",
    "election",
    "court",
    "hospital",
    "stadium",
    "airport",
    "railway",
    "garden",
    "theatre",
]


def _feed_file(folder: Path, items: int = 6) -> Path:
    entries = "".join(
        f"<item><title>Story {n}: {WORDS[n]} news</title>"
        f"<link>https://news.example/story-{n}</link>"
        f"<description>{' '.join(WORDS[(n + k) % len(WORDS)] for k in range(40))} {n}</description>"
        "<pubDate>Thu, 19 Nov 2026 08:00:00 GMT</pubDate></item>"
        for n in range(items)
    )
    path = folder / "feed.xml"
    path.write_text(
        '<?xml version="1.0"?><rss version="2.0"><channel><title>News</title>'
        f"<link>https://news.example/</link>{entries}</channel></rss>"
    )
    return path


@pytest.mark.django_db
def test_a_feed_is_stored_in_eight_statements(postgresql_only, now, tmp_path):
    """Opening the refresh's transaction; the known items; the new items; their sightings with
    their simhash bands; the near and the soft duplicates; the source's row with its fetch log
    (and synchronous_commit off); the commit. 11 before (a SET LOCAL, the bands and the fetch
    log apart)."""
    source = Source.objects.create(
        type=Source.Type.FEED,
        config={"file": str(_feed_file(tmp_path))},
        config_hash="statements",
        title="news",
    )
    with CaptureQueriesContext(connection) as queries:
        outcome = refresh_source(source, now=now)
    assert outcome.ok and outcome.counts.inserted == 6
    assert len(queries.captured_queries) == 8, [q["sql"][:40] for q in queries.captured_queries]
    log = FetchLog.objects.get(source=source)
    assert (log.outcome, log.fetched, log.inserted) == ("ok", 6, 6)
    source.refresh_from_db()
    assert source.last_refresh_at == now and source.status == "active"
    assert source.next_refresh_at is None  # a file: no HTTP caching headers to plan by
    # Seen again: nothing new, fewer statements still.
    with CaptureQueriesContext(connection) as queries:
        again = refresh_source(source, now=now + timedelta(hours=1))
    assert again.ok and again.counts.inserted == 0
    assert len(queries.captured_queries) <= 8
    assert FetchLog.objects.filter(source=source).count() == 2


@pytest.mark.django_db
def test_a_refresh_commits_without_waiting_for_the_disk(postgresql_only, now):
    source = Source.objects.create(
        type=Source.Type.FEED,
        config={"file": str(TESTDATA / "rss2.xml")},
        config_hash="sync-commit",
        title="rss2",
    )
    seen = []

    def spy(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if sql.startswith("WITH source AS"):
            with connection.cursor() as cursor:
                cursor.execute("SHOW synchronous_commit")
                seen.append(cursor.fetchone()[0])
        return result

    with connection.execute_wrapper(spy):
        refresh_source(source, now=now)
    assert seen == ["off"]
