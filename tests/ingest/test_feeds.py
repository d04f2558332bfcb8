"""Behaviour of parse_feed() on hand-written fixtures (SPEC §4.2) and of normalize_title()
(SPEC §4.4). Fixtures live in tests/ingest/testdata/."""

from __future__ import annotations

import json
import re
import time
import xml.sax
from datetime import UTC, datetime, timedelta
from pathlib import Path

import feedparser.api
import pytest
from feedparser.util import FeedParserDict

from ingest.canonical import canonicalize_url
from ingest.feeds.feedparser_speed import BufferedExpatParser, copy_content_params
from ingest.feeds.parse import (
    MAX_ENTRIES,
    FeedParseError,
    _feedparser_result,
    feedparser_speed,
    parse_feed,
)
from ingest.pool.dedup import normalize_title, usable_for_soft_dedup
from ingest.pool.entries import ParsedFeed
from ingest.text.sanitize import html_to_text, sanitize_html, text_of_sanitized
from tests.bench.corpus import feedparser_as_shipped

TESTDATA = Path(__file__).parent / "testdata"
FIXTURES = [
    "rss2.xml",
    "rss091.xml",
    "rss1_rdf.xml",
    "atom.xml",
    "jsonfeed.json",
    "no_links.xml",
    "reused_guid.xml",
    "billion_laughs.xml",
    "xxe.xml",
    "not_a_feed.html",
]
# Markup that must never survive sanitizing, whatever the feed format.
FORBIDDEN_HTML = re.compile(
    r"<script|<style|<iframe|<svg|<math|<form|<input|<button|<object|<embed"
    r"|\son\w+\s*=|javascript:|xlink:|formaction|\sstyle\s*=",
    re.IGNORECASE,
)


def fixture_bytes(name: str) -> bytes:
    return (TESTDATA / name).read_bytes()


def parse_fixture(name: str, base_url: str = "") -> ParsedFeed:
    return parse_feed(fixture_bytes(name), base_url=base_url)


def assert_utc(value: datetime | None) -> None:
    assert value is not None
    assert value.tzinfo is not None
    assert value.utcoffset() == timedelta(0)


def all_text(feed: ParsedFeed) -> str:
    parts = [feed.title, feed.site_url, feed.language]
    for entry in feed.entries:
        parts += [entry.url, entry.entry_id, entry.title, entry.description]
        parts += [entry.content_html, entry.author]
    return "\n".join(parts)


def rss_with_items(items: list[str], channel: str = "") -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel>'
        f"<title>Generated</title><link>https://gen.example.com/</link>{channel}"
        + "".join(items)
        + "</channel></rss>"
    ).encode()


# --- the fixtures themselves ------------------------------------------------------------------


@pytest.mark.parametrize("name", FIXTURES)
def test_fixtures_are_small(name: str) -> None:
    assert (TESTDATA / name).stat().st_size < 20 * 1024


# --- RSS 2.0 ------------------------------------------------------------------------------------

RSS2_BASE = "https://blog.example.com/feed.xml"


@pytest.fixture
def rss2() -> ParsedFeed:
    return parse_fixture("rss2.xml", base_url=RSS2_BASE)


def test_rss2_feed_metadata(rss2: ParsedFeed) -> None:
    assert rss2.title == "Tidings Test Blog & Friends"
    assert rss2.site_url == "https://blog.example.com/"
    assert rss2.language == "en-us"
    assert rss2.skipped == 0
    assert len(rss2.entries) == 4


def test_rss2_canonical_urls(rss2: ParsedFeed) -> None:
    assert [entry.url for entry in rss2.entries] == [
        "https://blog.example.com/posts/q-and-a/?id=7",
        "https://blog.example.com/posts/relative-link/?page=2",  # relative <link> resolved
        "https://blog.example.com/posts/hostile",
        "https://blog.example.com/posts/guid-only",  # no <link>: the URL guid is the identity
    ]
    for entry in rss2.entries:
        assert canonicalize_url(entry.url) == entry.url


def test_rss2_guid_that_is_not_a_url_is_kept_as_entry_id_only(rss2: ParsedFeed) -> None:
    first = rss2.entries[0]
    assert first.entry_id == "post-0001"
    assert "post-0001" not in first.url


def test_rss2_title_entities_are_decoded_once_and_stay_literal_text(rss2: ParsedFeed) -> None:
    # The XML says "Q&amp;A &lt;b&gt;": the title is the plain text "Q&A <b>", which every
    # template escapes. It is neither "Q&A" (a tag eaten) nor "Q&amp;A &lt;b&gt;".
    assert rss2.entries[0].title == "Q&A <b>"
    assert rss2.entries[0].author == "Tom & Jerry"


def test_rss2_description_is_plain_text_from_html(rss2: ParsedFeed) -> None:
    assert rss2.entries[0].description == "A short summary of the Q&A session."


def test_rss2_published_dates_are_aware_utc(rss2: ParsedFeed) -> None:
    for entry in rss2.entries:
        assert_utc(entry.published_at)
    assert [entry.published_at for entry in rss2.entries] == [
        datetime(2024, 1, 2, 6, 4, 5, tzinfo=UTC),  # 15:04:05 +0900
        datetime(2024, 1, 1, 8, 0, 0, tzinfo=UTC),
        datetime(2024, 1, 1, 4, 59, 59, tzinfo=UTC),  # 23:59:59 -0500 the day before
        datetime(2023, 12, 30, 12, 0, 0, tzinfo=UTC),
    ]


def test_rss2_content_encoded_is_the_body_and_keeps_safe_markup(rss2: ParsedFeed) -> None:
    body = rss2.entries[0].content_html
    assert "<p>" in body
    assert "<strong>Q&amp;A</strong>" in body
    assert '<a href="https://example.org/ref"' in body
    assert 'rel="noopener noreferrer nofollow"' in body
    assert '<img src="https://blog.example.com/img/qa.png" alt="Q and A">' in body


def test_rss2_relative_urls_in_content_are_made_absolute(rss2: ParsedFeed) -> None:
    body = rss2.entries[1].content_html
    assert 'href="https://blog.example.com/about"' in body
    assert 'src="https://blog.example.com/img/rel.png"' in body
    assert 'href="/' not in body
    assert 'src="/' not in body


def test_rss2_hostile_markup_is_removed(rss2: ParsedFeed) -> None:
    hostile = rss2.entries[2]
    assert not FORBIDDEN_HTML.search(hostile.content_html)
    assert "alert" not in hostile.content_html
    assert "steal" not in hostile.content_html
    assert "evil.example" not in hostile.content_html
    # What is safe stays.
    assert "<p>" in hostile.content_html
    assert '<a href="https://blog.example.com/safe"' in hostile.content_html
    assert "Click" in hostile.description
    assert "alert" not in hostile.description


# --- RSS 0.91 and RSS 1.0 (RDF) -----------------------------------------------------------------


def test_rss091() -> None:
    feed = parse_fixture("rss091.xml")
    assert feed.title == "Old School News"
    assert feed.site_url == "http://oldschool.example.net/"
    assert feed.language == "en"
    assert [entry.url for entry in feed.entries] == [
        "http://oldschool.example.net/news/cafe.html",
        "http://oldschool.example.net/news/second.html",  # upper case, :80 and ./ normalised
    ]
    assert [entry.title for entry in feed.entries] == ["Café opens downtown", "Second story"]
    assert feed.entries[0].description == "A new café has opened."
    # No dates in the feed: the pool uses first-seen time instead.
    assert all(entry.published_at is None for entry in feed.entries)


def test_rss1_rdf() -> None:
    feed = parse_fixture("rss1_rdf.xml")
    assert feed.title == "RDF Example Journal"
    assert feed.site_url == "https://rdf.example.org/"
    assert feed.language == "de"
    assert [entry.url for entry in feed.entries] == [
        "https://rdf.example.org/articles/1",  # mc_cid / mc_eid removed
        "https://rdf.example.org/articles/2",
    ]
    assert [entry.title for entry in feed.entries] == ["First RDF article", "Second RDF article"]
    assert feed.entries[0].author == "Ada Example"
    assert feed.entries[0].published_at == datetime(2024, 2, 10, 8, 30, tzinfo=UTC)
    assert feed.entries[1].published_at == datetime(2024, 2, 11, 0, 0, tzinfo=UTC)
    for entry in feed.entries:
        assert_utc(entry.published_at)


# --- Atom ---------------------------------------------------------------------------------------


@pytest.fixture
def atom() -> ParsedFeed:
    return parse_fixture("atom.xml", base_url="https://atom.example.com/feed.atom")


def test_atom_metadata_and_urls(atom: ParsedFeed) -> None:
    assert atom.title == "Atom & Eve"
    assert atom.site_url == "https://atom.example.com/"
    assert atom.language == "en"
    assert [entry.url for entry in atom.entries] == [
        "https://atom.example.com/2024/03/shapes",  # gclid and spm removed
        "https://atom.example.com/2024/02/updated-only",
    ]
    assert atom.entries[0].entry_id == "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a"


def test_atom_html_title_is_decoded_once(atom: ParsedFeed) -> None:
    # type="html" with "Shapes &amp;amp; &lt;i&gt;forms&lt;/i&gt;": the HTML is
    # "Shapes &amp; <i>forms</i>", whose text is "Shapes & forms".
    assert atom.entries[0].title == "Shapes & forms"
    assert atom.entries[0].author == "Eve Example"
    assert atom.entries[0].description == "Shapes, forms and math."


def test_atom_dates_prefer_published_then_updated(atom: ParsedFeed) -> None:
    assert atom.entries[0].published_at == datetime(2024, 3, 1, 7, 0, tzinfo=UTC)
    assert atom.entries[1].published_at == datetime(2024, 2, 20, 23, 30, tzinfo=UTC)
    for entry in atom.entries:
        assert_utc(entry.published_at)


def test_atom_svg_math_and_form_payloads_are_removed(atom: ParsedFeed) -> None:
    body = atom.entries[0].content_html
    assert not FORBIDDEN_HTML.search(body)
    assert "alert" not in body
    assert "evil.example" not in body
    assert "password" not in body
    assert "<p>Before the svg.</p>" in body
    assert '<a href="https://atom.example.com/more"' in body


def test_atom_xhtml_content_is_kept(atom: ParsedFeed) -> None:
    assert "<p>XHTML <b>content</b>.</p>" in atom.entries[1].content_html
    assert atom.entries[1].description == "XHTML content."


# --- JSON Feed ----------------------------------------------------------------------------------


@pytest.fixture
def jsonfeed() -> ParsedFeed:
    return parse_fixture("jsonfeed.json", base_url="https://json.example.com/feed.json")


def test_jsonfeed_metadata(jsonfeed: ParsedFeed) -> None:
    assert jsonfeed.title == "JSON & Friends"
    assert jsonfeed.site_url == "https://json.example.com/"
    assert jsonfeed.language == "en-GB"
    assert len(jsonfeed.entries) == 3
    assert jsonfeed.skipped == 1  # the item that is not an object


def test_jsonfeed_urls_and_ids(jsonfeed: ParsedFeed) -> None:
    assert [entry.url for entry in jsonfeed.entries] == [
        "https://json.example.com/2024/04/first",  # utm_source and ref removed
        "https://elsewhere.example.org/article",  # external_url when there is no url
        "https://json.example.com/2024/04/relative",  # relative to home_page_url
    ]
    assert [entry.entry_id for entry in jsonfeed.entries] == [
        "https://json.example.com/2024/04/first",
        "2",
        "3",
    ]


def test_jsonfeed_text_fields_are_plain_text(jsonfeed: ParsedFeed) -> None:
    first, second, third = jsonfeed.entries
    assert first.title == "First <JSON> item"
    assert first.description == "A summary in plain text: 1 < 2 & 3 > 2."
    assert first.author == "Jo Json"
    assert second.title == "External only"
    assert second.author == "Old Style Author"  # JSON Feed 1.0 "author"
    assert second.description == "Plain text with <tags> that must stay literal."
    # content_text is text: escaped into the HTML body, not parsed as markup.
    assert second.content_html == "Plain text with &lt;tags&gt; that must stay literal."
    # No title: the start of the text stands in.
    assert third.title == "An item without a title."


def test_jsonfeed_content_html_is_sanitized(jsonfeed: ParsedFeed) -> None:
    body = jsonfeed.entries[0].content_html
    assert not FORBIDDEN_HTML.search(body)
    assert "evil" not in body
    assert '<p>Hello <a href="https://json.example.com/x"' in body


def test_jsonfeed_dates(jsonfeed: ParsedFeed) -> None:
    first, second, third = jsonfeed.entries
    assert first.published_at == datetime(2024, 4, 1, 1, 0, tzinfo=UTC)  # 10:00 +09:00
    assert_utc(first.published_at)
    assert second.published_at == datetime(2024, 4, 3, 8, 0, tzinfo=UTC)  # date_modified
    assert_utc(second.published_at)
    assert third.published_at is None


def test_jsonfeed_with_byte_order_mark() -> None:
    feed = parse_feed(b"\xef\xbb\xbf" + fixture_bytes("jsonfeed.json"))
    assert len(feed.entries) == 3


def test_jsonfeed_tolerates_wrong_types_in_items() -> None:
    document = {
        "version": "https://jsonfeed.org/version/1",
        "title": "Odd types",
        "home_page_url": "https://odd.example.com/",
        "items": [
            {
                "id": 17,
                "url": "https://odd.example.com/17",
                "title": "Numbers everywhere",
                "date_published": 1700000000,
                "date_modified": ["2024-01-01"],
                "authors": ["not an object", {"name": "Real Name"}],
            },
            {"id": "naive", "url": "https://odd.example.com/n", "date_published": "2024-05-05"},
        ],
    }
    feed = parse_feed(json.dumps(document).encode())
    first, second = feed.entries
    assert first.entry_id == "17"
    assert first.published_at is None
    assert first.author == "Real Name"
    assert second.published_at == datetime(2024, 5, 5, tzinfo=UTC)


@pytest.mark.parametrize(
    "content",
    [
        b'{"version": "1.0", "items": []}',  # not a JSON Feed version URL
        b'{"title": "no version"}',
        b'{"version": "https://jsonfeed.org/version/1.1", "items": {"a": 1}}',
        b'{"version": "https://jsonfeed.org/version/1.1", "items": [',  # truncated
        b"{not json at all",
    ],
)
def test_jsonfeed_invalid_documents_are_refused(content: bytes) -> None:
    with pytest.raises(FeedParseError):
        parse_feed(content)


# --- identity fallbacks ---------------------------------------------------------------------


def test_items_without_links_fall_back_to_a_title_and_content_hash() -> None:
    feed = parse_fixture("no_links.xml")
    urls = [entry.url for entry in feed.entries]
    assert len(urls) == 3
    assert len(set(urls)) == 3  # same title, different content: still different items
    for url in urls:
        assert url.startswith("https://linkless.example.com/#tidings-entry-")
    # A guid of "42" is not a URL: it is neither the identity nor turned into a link.
    assert feed.entries[0].entry_id == "42"
    assert not any(url.rstrip("/").endswith("/42") for url in urls)


def test_fallback_identity_is_stable_across_parses() -> None:
    first = parse_fixture("no_links.xml")
    second = parse_fixture("no_links.xml")
    assert [e.url for e in first.entries] == [e.url for e in second.entries]


def test_fallback_identity_does_not_depend_on_the_other_items() -> None:
    full = parse_fixture("no_links.xml")
    alone = parse_feed(
        rss_with_items(
            [
                "<item><title>New pricing</title>"
                "<description>Prices change on 1 February.</description></item>"
            ],
            channel="",
        ).replace(b"https://gen.example.com/", b"https://linkless.example.com/")
    )
    assert alone.entries[0].url == full.entries[1].url


def test_fallback_identity_changes_with_the_content() -> None:
    def parse_one(description: str) -> str:
        item = f"<item><title>Same</title><description>{description}</description></item>"
        return parse_feed(rss_with_items([item])).entries[0].url

    assert parse_one("one") == parse_one("one")
    assert parse_one("one") != parse_one("two")


def test_reused_guid_is_split_into_separate_identities() -> None:
    feed = parse_fixture("reused_guid.xml")
    urls = [entry.url for entry in feed.entries]
    assert len(urls) == 3
    assert len(set(urls)) == 3
    assert "https://reused.example.com/newsletter" not in urls
    assert all(url.startswith("https://reused.example.com/#tidings-entry-") for url in urls)
    # The feed's own id is still recorded.
    assert {entry.entry_id for entry in feed.entries} == {"https://reused.example.com/newsletter"}
    assert urls == [entry.url for entry in parse_fixture("reused_guid.xml").entries]


def test_a_url_guid_used_once_is_the_identity() -> None:
    item = "<item><title>Once</title><guid>https://gen.example.com/p/1</guid></item>"
    assert parse_feed(rss_with_items([item])).entries[0].url == "https://gen.example.com/p/1"


def test_repeated_identical_items_keep_one_identity() -> None:
    item = (
        "<item><title>Same</title><guid>https://gen.example.com/same</guid>"
        "<description>Same body.</description></item>"
    )
    feed = parse_feed(rss_with_items([item, item]))
    assert [entry.url for entry in feed.entries] == ["https://gen.example.com/same"] * 2


def test_items_sharing_one_link_with_different_content_are_split() -> None:
    items = [
        f"<item><title>Post {n}</title><link>https://gen.example.com/</link>"
        f"<description>Body {n}</description></item>"
        for n in range(3)
    ]
    urls = [entry.url for entry in parse_feed(rss_with_items(items)).entries]
    assert len(set(urls)) == 3
    assert "https://gen.example.com/" not in urls


def test_real_link_wins_over_a_guid_that_precedes_it() -> None:
    # feedparser marks such an item guidislink even though <link> is there.
    item = "<item><guid>99</guid><link>https://gen.example.com/real</link><title>T</title></item>"
    assert parse_feed(rss_with_items([item])).entries[0].url == "https://gen.example.com/real"


# --- character encoding -------------------------------------------------------------------------


def atom_with_accents(prolog: str) -> str:
    return (
        f'{prolog}<feed xmlns="http://www.w3.org/2005/Atom"><title>Café</title>'
        '<link href="https://example.com/"/><entry><title>Ünïcode</title>'
        '<link href="https://example.com/wiki/Café"/><id>tag:example.com,2024:é</id>'
        "<author><name>José Müller</name></author>"
        '<content type="html">&lt;p&gt;naïve&lt;/p&gt;</content></entry></feed>'
    )


@pytest.mark.parametrize("base_url", ["", "https://example.com/feed.xml"])
@pytest.mark.parametrize(
    "content",
    [
        atom_with_accents("").encode(),
        atom_with_accents('<?xml version="1.0"?>').encode(),
        atom_with_accents('<?xml version="1.0" encoding="iso-8859-1"?>').encode("iso-8859-1"),
    ],
    ids=["no-declaration", "declaration-without-encoding", "declared-latin-1"],
)
def test_document_encoding_is_honoured_in_attributes_and_text(content: bytes, base_url: str):
    """XML without an encoding declaration or BOM is UTF-8. Regression found by `python -m
    tests.bench edgecases`: with only Content-Location in response_headers, feedparser took the
    bytes for an HTTP response without a Content-Type, decoded them as ISO-8859-1 and repaired
    element text but not attributes or author names: the link became .../Caf%C3%83%C2%A9 and
    the author "JosÃ© MÃ¼ller"."""
    feed = parse_feed(content, base_url=base_url)
    entry = feed.entries[0]
    assert feed.title == "Café"
    assert entry.title == "Ünïcode"
    assert entry.url == canonicalize_url("https://example.com/wiki/Caf%C3%A9")
    assert entry.entry_id == "tag:example.com,2024:é"
    assert entry.author == "José Müller"
    assert "naïve" in entry.content_html


# --- feedparser's strict parser -----------------------------------------------------------------


def test_feedparser_runs_on_the_buffered_expat_driver() -> None:
    # xml.sax.make_parser() falls back to the default driver when ours fails to import.
    assert isinstance(
        xml.sax.make_parser(feedparser.api.PREFERRED_XML_PARSERS),  # noqa: S317 (no parsing)
        BufferedExpatParser,
    )


def test_feedparser_speed_ups_change_nothing_it_returns() -> None:
    # Escaped markup and entity references are where unbuffered expat splits text most.
    # \x80 is the euro sign in windows-1252: feedparser's table maps it.
    description = (
        "&lt;p&gt;"
        + "Fish &amp;amp; chips &#8212; caf&#233; \u00a3\x80 \uc548\n" * 20_000
        + "&lt;/p&gt;"
    )
    content = rss_with_items(
        [
            f"<item><title>Q&amp;A &lt;b&gt;</title><link>https://gen.example.com/{n}</link>"
            f"<description>{description}</description></item>"
            for n in range(3)
        ]
    )
    ours = _feedparser_result(content, "https://gen.example.com/feed")
    with feedparser_as_shipped(keep_our_doctype=True):
        shipped = _feedparser_result(content, "https://gen.example.com/feed")
    assert ours.entries == shipped.entries
    assert ours.entries[0].summary.count("Fish &amp; chips — café") == 20_000


# Nested xml:base, xhtml and escaped content, enclosures, categories and legacy aliases: each
# takes one of the paths the speed-ups shortcut (base joins, content parameters, dict lookups).
ATOM_WITH_BASES = """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://atom.example.com/blog/"
      xml:lang="en">
  <title type="html">Bases &amp;amp; &lt;b&gt;markup&lt;/b&gt;</title>
  <subtitle>Caf\u00e9 \u0080 notes</subtitle>
  <link href="./" rel="alternate"/>
  <id>urn:uuid:1</id>
  <updated>2026-11-20T10:00:00Z</updated>
  <entry xml:base="posts/2026/">
    <title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">An <b>xhtml</b> title</div>
    </title>
    <link href="first.html"/>
    <link rel="enclosure" type="audio/mpeg" length="12" href="../media/ep1.mp3"/>
    <id>tag:atom.example.com,2026:1</id>
    <category term="python"/><category term="feeds"/>
    <published>2026-11-20T09:00:00+09:00</published>
    <summary type="html">&lt;p&gt;See &lt;a href="../x"&gt;x&lt;/a&gt;&lt;/p&gt;</summary>
    <content type="xhtml" xml:base="deeper/" xml:lang="ko">
      <div xmlns="http://www.w3.org/1999/xhtml"><p>\uc548\ub155 <a href="y">y</a>
        <img src="z.png"/> \u0093quoted\u0094</p></div>
    </content>
  </entry>
  <entry>
    <title>Second</title>
    <link href="/second"/>
    <id>tag:atom.example.com,2026:2</id>
    <content type="text">plain &lt;text&gt;</content>
    <content type="html" src="https://atom.example.com/src"/>
  </entry>
</feed>
""".encode()


@pytest.mark.parametrize(
    "content",
    [ATOM_WITH_BASES, *(fixture_bytes(name) for name in FIXTURES if name.endswith(".xml"))],
)
def test_feedparser_speed_ups_return_what_feedparser_returns(content: bytes) -> None:
    ours = _feedparser_result(content, "https://atom.example.com/feed")
    with feedparser_speed.shipped():
        shipped = _feedparser_result(content, "https://atom.example.com/feed")
    assert ours.feed == shipped.feed
    assert ours.entries == shipped.entries
    assert (ours.bozo, ours.version, ours.encoding) == (
        shipped.bozo,
        shipped.version,
        shipped.encoding,
    )


def test_feedparser_speed_ups_on_a_feed_with_nested_bases() -> None:
    result = _feedparser_result(ATOM_WITH_BASES, "https://atom.example.com/feed")
    first, second = result.entries
    # Every base is joined onto the one around it.
    assert first.link == "https://atom.example.com/blog/posts/2026/first.html"
    assert first.enclosures[0].href == "https://atom.example.com/blog/posts/media/ep1.mp3"
    assert first.content[0].base == "https://atom.example.com/blog/posts/2026/deeper/"
    assert first.content[0].language == "ko"
    # Content parameters are copied per text construct, not shared: the parser clears its own
    # after each one.
    assert first.content[0].type == "application/xhtml+xml"
    assert first.summary_detail.type == "text/html"
    assert [c.type for c in second.content] == ["text/plain", "text/html"]
    assert second.content[1].src == "https://atom.example.com/src"
    # Legacy aliases and computed keys still answer.
    assert first.category == "python"
    assert first.description == first.summary
    assert first.guid == "tag:atom.example.com,2026:1"
    assert result.feed.tagline == "Caf\u00e9 \u20ac notes"  # windows-1252 0x80: the euro
    assert "\u201cquoted\u201d" in first.content[0].value


def test_content_params_that_are_not_plain_values_are_still_copied_deep() -> None:
    nested = FeedParserDict(type="text/html", extra=["a"])
    copied = copy_content_params(nested)
    assert copied == nested
    assert copied["extra"] is not nested["extra"]
    plain = FeedParserDict(type="text/html", language=None, base="https://x.example/")
    copied = copy_content_params(plain)
    assert copied == plain and copied is not plain
    assert type(copied) is FeedParserDict


def test_shipped_puts_feedparser_back_and_the_speed_ups_return_after() -> None:
    fast_get = FeedParserDict.get
    with feedparser_speed.shipped():
        assert FeedParserDict.get is not fast_get
        assert feedparser.api.PREFERRED_XML_PARSERS == ["drv_libxml2"]
    assert FeedParserDict.get is fast_get
    assert feedparser.api.PREFERRED_XML_PARSERS == ["ingest.feeds.feedparser_speed"]


def test_blank_lines_before_the_xml_declaration_do_not_force_the_loose_parser() -> None:
    content = (
        b"\n\n<?xml version='1.0' encoding='UTF-8'?>\n"
        b"<?xml-stylesheet type='text/xsl' href='/style.xsl'?>\n"
        + rss_with_items(
            ["<item><title>Caf\xc3\xa9</title><link>https://gen.example.com/a</link></item>"]
        ).split(b"?>", 1)[1]
    )
    result = _feedparser_result(content, "")
    assert not result.bozo, result.get("bozo_exception")
    assert [entry.title for entry in parse_feed(content).entries] == ["Caf\u00e9"]


# --- hostile XML ------------------------------------------------------------------------------


def timed_parse(content: bytes, base_url: str = "") -> tuple[ParsedFeed, float]:
    started = time.perf_counter()
    feed = parse_feed(content, base_url=base_url)
    return feed, time.perf_counter() - started


def test_billion_laughs_is_not_expanded() -> None:
    feed, elapsed = timed_parse(fixture_bytes("billion_laughs.xml"))
    assert elapsed < 2
    assert "lollol" not in all_text(feed)
    assert len(all_text(feed)) < 5_000
    assert [entry.url for entry in feed.entries] == ["https://bomb.example.com/ha"]


def test_external_entities_are_not_resolved() -> None:
    passwd = Path("/etc/passwd")
    secrets = passwd.read_text().splitlines()[:3] if passwd.exists() else []
    feed, elapsed = timed_parse(fixture_bytes("xxe.xml"))
    assert elapsed < 2
    text = all_text(feed)
    assert "root:" not in text
    assert "/bin/" not in text
    for line in filter(None, secrets):
        assert line not in text
    hostname = Path("/etc/hostname")
    if hostname.exists() and hostname.read_text().strip():
        assert hostname.read_text().strip() not in text
    assert [entry.url for entry in feed.entries] == ["https://xxe.example.com/leak"]


def quadratic_blowup(prolog_separator: str = "\n", encoding: str = "utf-8") -> bytes:
    """One 5 KB entity referenced 2 000 times: 11 KB of XML, 10 MB if expanded."""
    value = "A" * 5_000
    body = (
        '<rss version="2.0"><channel><title>Q</title><link>https://q.example.com/</link>'
        "<item><title>q</title><link>https://q.example.com/a</link><description>"
        + "&a;" * 2_000
        + "</description></item></channel></rss>"
    )
    declaration = f'<?xml version="1.0" encoding="{encoding}"?>'
    doctype = f'<!DOCTYPE rss [{prolog_separator}<!ENTITY a "{value}">{prolog_separator}]>'
    return (declaration + prolog_separator + doctype + prolog_separator + body).encode(encoding)


@pytest.mark.parametrize(
    "content",
    [
        quadratic_blowup("\n"),
        quadratic_blowup(""),  # DOCTYPE on the declaration's line
        quadratic_blowup("\n", encoding="utf-16"),
        b'<?xml version="1.0"?>\n<!DOCTYPE rss [\n<!-- ]> -->\n<!ENTITY x "]>">\n'
        + quadratic_blowup("\n").split(b"?>\n", 1)[1].replace(b"<!DOCTYPE rss [\n", b"", 1),
    ],
    ids=["multiline", "same-line", "utf-16", "brackets-in-subset"],
)
def test_internal_entities_are_never_expanded(content: bytes) -> None:
    feed, elapsed = timed_parse(content)
    assert elapsed < 2
    assert len(feed.entries) == 1
    assert "AAAAAAAAAA" not in all_text(feed)
    assert len(all_text(feed)) < 20_000


def test_a_body_that_is_a_local_path_is_not_opened(tmp_path: Path) -> None:
    # feedparser opens bytes that name an existing file; a server must not make us read ours.
    local = tmp_path / "local-feed.xml"
    local.write_text(
        '<rss version="2.0"><channel><title>LOCAL SECRET</title><item><title>secret</title>'
        "<link>https://local.example.com/s</link></item></channel></rss>"
    )
    with pytest.raises(FeedParseError) as excinfo:
        parse_feed(str(local).encode())
    assert "SECRET" not in str(excinfo.value)


def test_etc_passwd_as_a_body_is_just_a_malformed_feed() -> None:
    with pytest.raises(FeedParseError) as excinfo:
        parse_feed(b"/etc/passwd")
    assert "root" not in str(excinfo.value)


# --- malformed input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        fixture_bytes("not_a_feed.html"),
        b"",
        b"   \n\t",
        b"\x00\x01\x02\xff\xfe garbage \x89PNG\r\n\x1a\n",
        bytes(range(256)) * 4,
        b"Just some text, not XML.",
        b"[1, 2, 3]",
        b"<html><body><p>unclosed",
        b"<?xml version='1.0'?><notafeed><x>1</x></notafeed>",
    ],
    ids=[
        "html-page",
        "empty",
        "whitespace",
        "binary",
        "all-bytes",
        "text",
        "json-array",
        "broken-html",
        "other-xml",
    ],
)
def test_malformed_non_feeds_raise_feed_parse_error(content: bytes) -> None:
    with pytest.raises(FeedParseError):
        parse_feed(content, base_url="https://example.com/feed")


# --- caps -----------------------------------------------------------------------------------


def test_entry_count_is_capped() -> None:
    items = [
        f"<item><title>Item {n}</title><link>https://gen.example.com/items/{n}</link></item>"
        for n in range(MAX_ENTRIES + 100)
    ]
    feed = parse_feed(rss_with_items(items))
    assert len(feed.entries) == MAX_ENTRIES
    assert feed.skipped == 100
    assert feed.entries[0].url == "https://gen.example.com/items/0"
    assert feed.entries[-1].url == f"https://gen.example.com/items/{MAX_ENTRIES - 1}"


def test_json_entry_count_is_capped() -> None:
    document = {
        "version": "https://jsonfeed.org/version/1.1",
        "title": "Many",
        "items": [
            {"id": str(n), "url": f"https://gen.example.com/j/{n}", "title": f"J {n}"}
            for n in range(MAX_ENTRIES + 100)
        ],
    }
    feed = parse_feed(json.dumps(document).encode())
    assert len(feed.entries) == MAX_ENTRIES
    assert feed.skipped == 100


def test_long_fields_are_truncated() -> None:
    item = (
        f"<item><title>{'T' * 2_000}</title><link>https://gen.example.com/long</link>"
        f"<description>{'word ' * 2_000}</description></item>"
    )
    entry = parse_feed(rss_with_items([item])).entries[0]
    assert len(entry.title) == 500
    assert len(entry.description) <= 2_000


# --- sanitize helpers -----------------------------------------------------------------------


REL = 'rel="noopener noreferrer nofollow"'


@pytest.mark.parametrize(
    ("fragment", "expected"),
    [
        ('<a href="/x">x</a>', f'<a href="https://site.example/x" {REL}>x</a>'),
        ('<img src="pic.png">', '<img src="https://site.example/dir/pic.png">'),
        ('<a href="//cdn.example/x">x</a>', f'<a href="https://cdn.example/x" {REL}>x</a>'),
        ('<a href="mailto:a@example.com">m</a>', f'<a href="mailto:a@example.com" {REL}>m</a>'),
        ('<a href="javascript:alert(1)">j</a>', f"<a {REL}>j</a>"),
        ('<a href=" java\tscript:alert(1)">j</a>', f"<a {REL}>j</a>"),
        ('<img src="data:image/png;base64,AAAA">', "<img>"),
        ('<p title="t" onclick="x()">p</p>', '<p title="t">p</p>'),
        ("<!-- comment --><b>b</b>", "<b>b</b>"),
        ('<img alt="a > b" src="p.png">', '<img alt="a &gt; b" src="https://site.example/dir/p.png">'),
        ('<a title=\'say "hi"\' href="?q=1&amp;r=2">q</a>',
         '<a title="say &quot;hi&quot;" href="https://site.example/dir/page?q=1&amp;r=2" '
         f'{REL}>q</a>'),
        # text that looks like an attribute is text: left alone
        ('<p>write href="/x" in the tag</p>', '<p>write href="/x" in the tag</p>'),
        ('<a href="https://ok.example/a">a</a>', f'<a href="https://ok.example/a" {REL}>a</a>'),
        ("<div>a</div><div>b</div>", "<div>a</div><div>b</div>"),
    ],
)  # fmt: skip
def test_sanitize_html_with_base_url(fragment: str, expected: str) -> None:
    assert sanitize_html(fragment, base_url="https://site.example/dir/page") == expected


def test_sanitize_html_without_base_keeps_relative_urls() -> None:
    assert sanitize_html('<img src="/a.png">') == '<img src="/a.png">'
    assert sanitize_html("") == ""


@pytest.mark.parametrize(
    ("fragment", "expected"),
    [
        ("<p>a</p><p>b</p>", "a b"),
        ("Tom &amp; Jerry", "Tom & Jerry"),
        ("AT&amp;amp;T", "AT&amp;T"),  # decoded once
        ("<script>alert(1)</script>text", "text"),
        ("  many \n\n spaces  ", "many spaces"),
        ("", ""),
    ],
)
def test_html_to_text(fragment: str, expected: str) -> None:
    assert html_to_text(fragment) == expected


TEXT_FRAGMENTS = [
    "<p>a</p><p>b</p>",
    "<div>one</div><div>two</div><section>three</section>",
    "Tom &amp; Jerry &lt;3 &nbsp; x",
    '<img alt="a > b" src="/p.png">after<br>line',
    "<ul><li>x</li><li>y</li></ul><table><tr><td>1</td><td>2</td></tr></table>",
    "<script>alert(1)</script><style>p{}</style>visible",
    "<b>bold</b>text<i>it</i> <a href='/x'>link</a>",
]


@pytest.mark.parametrize("fragment", TEXT_FRAGMENTS)
def test_text_of_sanitized_html_is_the_text_of_the_fragment(fragment: str) -> None:
    """Feeds take a body's description from the sanitized body instead of parsing the raw
    HTML twice: the text must be the same."""
    cleaned = sanitize_html(fragment, base_url="https://site.example/")
    assert text_of_sanitized(cleaned) == html_to_text(fragment)


def test_text_of_long_html_is_read_from_its_start() -> None:
    paragraphs = "".join(
        f"<p>Paragraph {n} says <b>something</b> &amp; more.</p>" for n in range(4000)
    )
    whole = html_to_text(paragraphs)
    assert len(whole) > 100_000
    for limit in (50, 2000):
        assert html_to_text(paragraphs, limit=limit)[:limit] == whole[:limit]
        cleaned = sanitize_html(paragraphs)
        assert text_of_sanitized(cleaned, limit=limit)[:limit] == whole[:limit]
    # A start that is mostly markup holds too little text: the whole fragment is read.
    sparse = '<img src="https://site.example/x.png">' * 5000 + "<p>the only words</p>"
    assert html_to_text(sparse, limit=2000) == "the only words"
    assert text_of_sanitized(sanitize_html(sparse), limit=2000) == "the only words"


# --- normalize_title (soft dedup, SPEC §4.4) ----------------------------------------------------


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("OpenAI Releases GPT-5", "openai releases gpt 5"),
        ("ＯｐｅｎＡＩ　Ｒｅｌｅａｓｅｓ　ＧＰＴ－５", "openai releases gpt 5"),  # full width
        ("OPENAI RELEASES GPT-5", "openai releases gpt 5"),
        ("OpenAI releases GPT-5 - The Verge", "openai releases gpt 5"),
        ("OpenAI releases GPT-5 | TechCrunch", "openai releases gpt 5"),
        ("OpenAI releases GPT-5 — Ars Technica", "openai releases gpt 5"),
        ("OpenAI releases GPT-5 [Updated]", "openai releases gpt 5"),
        ("OpenAI releases GPT-5 (video)", "openai releases gpt 5"),
        ("OpenAI releases GPT-5 【速報】", "openai releases gpt 5"),
        ("OpenAI releases GPT-5 （動画）", "openai releases gpt 5"),
        ("OpenAI releases GPT-5 [Updated] (video)", "openai releases gpt 5"),
        ("  OpenAI   releases\tGPT-5  ", "openai releases gpt 5"),
        ("삼성전자, 3분기 실적 발표 - 한국경제", "삼성전자 3분기 실적 발표"),
        ("삼성전자, 3분기 실적 발표 [종합]", "삼성전자 3분기 실적 발표"),
        ("ﾃｽﾄ カタカナ", "テスト カタカナ"),  # half-width katakana folded
        ("Straße der Einheit", "strasse der einheit"),
        ("Python 3.13: what's new", "python 3 13 what s new"),
        ("", ""),
    ],
)
def test_normalize_title(title: str, expected: str) -> None:
    assert normalize_title(title) == expected


def test_normalize_title_makes_width_and_suffix_variants_equal() -> None:
    variants = [
        "Rust 2024 edition is out",
        "Ｒｕｓｔ ２０２４ ｅｄｉｔｉｏｎ ｉｓ ｏｕｔ",
        "RUST 2024 EDITION IS OUT - Rust Blog",
        "Rust 2024 edition is out [Updated]",
        "Rust 2024 edition is out | This Week in Rust",
    ]
    assert len({normalize_title(v) for v in variants}) == 1


def test_normalize_title_keeps_different_titles_different() -> None:
    assert normalize_title("Rust 2024 edition is out") != normalize_title("Rust 2021 edition")


def test_normalize_title_is_bounded() -> None:
    assert len(normalize_title("word " * 1_000)) == 500


def test_short_titles_are_not_used_for_soft_dedup() -> None:
    assert not usable_for_soft_dedup(normalize_title("Update"))
    assert usable_for_soft_dedup(normalize_title("OpenAI releases GPT-5"))


GREEK = "\u039a\u03b1\u03bb\u03b7\u03bc\u03ad\u03c1\u03b1"


def test_the_http_charset_decodes_an_undeclared_document_but_never_overrides_a_declaration():
    body = f"<rss version='2.0'><channel><title>{GREEK}</title></channel></rss>"
    undeclared = body.encode("iso-8859-7")
    headers = {"content-type": "text/xml; charset=iso-8859-7"}
    assert parse_feed(undeclared, headers=headers).title == GREEK
    declared = ("<?xml version='1.0' encoding='utf-8'?>" + body).encode("utf-8")
    assert parse_feed(declared, headers=headers).title == GREEK


def test_content_language_is_the_language_of_a_feed_that_names_none():
    body = b"<rss version='2.0'><channel><title>T</title></channel></rss>"
    assert parse_feed(body, headers={"content-language": "ko-KR"}).language == "ko-KR"
    named = b"<rss version='2.0'><channel><title>T</title><language>en</language></channel></rss>"
    assert parse_feed(named, headers={"content-language": "ko-KR"}).language == "en"


def test_only_an_undeclared_document_takes_the_servers_charset():
    from ingest.feeds.parse import _content_type_for

    http = "text/xml; charset=ISO-8859-7"
    assert _content_type_for(b"<rss/>", http) == "application/xml; charset=ISO-8859-7"
    assert _content_type_for(b"<?xml version='1.0' encoding='utf-8'?><rss/>", http) == (
        "application/xml"
    )
    assert _content_type_for(b"\xef\xbb\xbf<rss/>", http) == "application/xml"
    assert _content_type_for(b"<rss/>", "text/xml") == "application/xml"
