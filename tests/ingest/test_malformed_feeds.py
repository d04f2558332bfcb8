"""Malformed JSON Feeds and hostile bytes end in the reader's typed error with a readable
message (FeedParseError, then SourceError / the command's JSON), never a TypeError or
RecursionError."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from ingest.feeds.parse import FeedParseError, parse_feed
from ingest.library.sources import SourceError, ensure_feed_source
from ingest.models import Source
from ingest.search.providers.searxng import SearxngResponseError, parse_results

VERSION = "https://jsonfeed.org/version/1.1"


def json_feed(**item) -> bytes:
    return json.dumps({"version": VERSION, "title": "T", "items": [item]}).encode()


DEEP = b'{"version": "%s", "items": %s}' % (VERSION.encode(), b"[" * 100_000 + b"]" * 100_000)


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (json_feed(id="1", authors=5), "item 1 'authors' is a number, not a list"),
        (json_feed(id="1", authors="Ann"), "item 1 'authors' is text, not a list"),
        (json_feed(id="1", tags=5), "item 1 'tags' is not a list of strings"),
        (json_feed(id="1", tags=[{"x": 1}]), "item 1 'tags' is not a list of strings"),
        (json_feed(id="1", title={"en": "x"}), "item 1 'title' is an object, not a string"),
        (json_feed(id="1", url=["https://e.example/"]), "item 1 'url' is a list"),
        (
            json.dumps({"version": VERSION, "title": ["x"], "items": []}).encode(),
            "'title' is a list",
        ),
        (DEEP, "nested too deeply"),
    ],
    ids=[
        "authors-number",
        "authors-text",
        "tags-number",
        "tags-objects",
        "title-object",
        "url-list",
        "feed-title-list",
        "deep-nesting",
    ],
)
def test_a_malformed_json_feed_is_a_feed_parse_error_naming_what_is_wrong(document, message):
    with pytest.raises(FeedParseError) as raised:
        parse_feed(document)
    assert message in str(raised.value)


def test_numbers_are_read_as_text_and_odd_authors_passed_over():
    parsed = parse_feed(
        json_feed(
            id=42,
            url="https://e.example/42",
            title="Answer",
            authors=["Ann", {"name": ["A", "B"]}, {"name": "Bea"}],
            date_published={"y": 2024},
        )
    )
    entry = parsed.entries[0]
    assert (entry.entry_id, entry.author, entry.published_at) == ("42", "Bea", None)


def test_an_out_of_range_character_reference_is_a_feed_parse_error():
    """feedparser's loose parser raised ValueError from chr() (found by the property tests)."""
    document = b"<rss><channel><item><title>&#x110000; & x</title></item></channel></rss>"
    with pytest.raises(FeedParseError, match="could not be read"):
        parse_feed(document)


def test_a_deeply_nested_searxng_answer_is_its_typed_error():
    with pytest.raises(SearxngResponseError):
        parse_results(b'{"results": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", query="q")


def test_adding_a_malformed_json_feed_is_refused_with_the_reason(db, fixture_server, now):
    url = fixture_server.add(
        "/feed.json", json_feed(id="1", authors=5), Content_Type="application/feed+json"
    )
    with pytest.raises(SourceError) as raised:
        ensure_feed_source(url, now=now)
    assert "'authors' is a number" in raised.value.message
    assert not Source.objects.exists()


def test_ingest_json_prints_json_for_a_malformed_json_feed(db, tmp_path):
    path = tmp_path / "feed.json"
    path.write_bytes(DEEP)
    out = StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("ingest", str(path), "--json", stdout=out, stderr=StringIO())
    assert exit_.value.code == 1
    row = json.loads(out.getvalue())["sources"][0]
    assert row["status"] == "error" and "nested too deeply" in row["error"]


def test_a_link_with_a_broken_ipv6_host_falls_back_to_a_content_identity():
    """urljoin raised ValueError on "http://[::1" (found by the property tests)."""
    parsed = parse_feed(json_feed(id="http://[::1", url="http://[::1", content_html="<p>x</p>"))
    assert "#tidings-entry-" in parsed.entries[0].url
    rss = b'<rss version="2.0"><channel><item><link>http://[::1</link></item></channel></rss>'
    assert "#tidings-entry-" in parse_feed(rss).entries[0].url
