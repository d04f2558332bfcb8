"""Property-based tests (Hypothesis) over every reader's parse step: whatever bytes a server or
a file hands it, only the reader's typed error escapes — never a TypeError, RecursionError or
any other crash — and the sanitizer's output never holds anything a browser would run.

Example counts are modest (the whole CI must stay well under 30 minutes); the strategies build
the shapes that matter (feeds, OPML, HTML with scripts and handlers, JSON of any type where a
string belongs) rather than random bytes alone.
"""

from __future__ import annotations

import json
import os

import lxml.html
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from ingest.canonical import canonicalize_url
from ingest.crawl.service import (
    decode_html,
    detail_entry,
    looks_like_detail,
    main_content,
    page_links,
)
from ingest.feeds.parse import FeedParseError, parse_feed
from ingest.fetching.fetch import FetchResult
from ingest.library.opml import OPMLError, parse_opml
from ingest.search.providers.searxng import SearxngResponseError, parse_results
from ingest.text.extract import ExtractionError, extract_main_content
from ingest.text.sanitize import html_to_text, sanitize_html
from ingest.watch.listing import ListingError, extract_listing
from tests.bench.sanitize import unsafe_findings

# More for a deeper search now and then: READER_PROPERTY_EXAMPLES=1000 pytest this file.
EXAMPLES = int(os.environ.get("READER_PROPERTY_EXAMPLES", "40"))
PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,  # a loaded 2-core machine: time is bounded by other tests
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
BASE = "https://site.example/posts/"

# --- strategies -------------------------------------------------------------------------------


def words(text: str) -> list[str]:
    return text.split()


TEXT = st.text(
    alphabet=st.sampled_from([*"ab <>&\"';:/=#?-_.0123456789\n\tjavascript", "é", "漢"]),
    max_size=30,
)
URLS = st.sampled_from(
    [
        "https://site.example/a",
        "/relative/b",
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "jav&#x61;script:alert(1)",
        "java\tscript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)",
        "http://[::1",
        "mailto:a@b.example",
        "",
    ]
)
HTML_TAGS = st.sampled_from(
    words(
        "a p div span b i script style svg math iframe object form input img body html head title "
        "article section ul li table tr td h1 h2 base meta link template noscript"
    )
)
ATTRIBUTE_NAMES = st.sampled_from(
    words(
        "href src onclick onerror onload style xlink:href formaction action class id title "
        "srcset http-equiv content rel"
    )
)


def _attributes(draw_names, draw_values):
    return st.lists(st.tuples(draw_names, draw_values), max_size=3).map(
        lambda pairs: "".join(f' {name}="{value}"' for name, value in pairs)
    )


ATTRIBUTES = _attributes(ATTRIBUTE_NAMES, st.one_of(URLS, TEXT))

HTML = st.recursive(
    TEXT,
    lambda children: st.builds(
        lambda tag, attributes, inner, closed: (
            f"<{tag}{attributes}>{''.join(inner)}" + (f"</{tag}>" if closed else "")
        ),
        HTML_TAGS,
        ATTRIBUTES,
        st.lists(children, max_size=4),
        st.booleans(),
    ),
    max_leaves=25,
)


def _xml_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


FEED_TAGS = st.sampled_from(
    words(
        "title link description item guid pubDate author content:encoded summary content id "
        "updated entry category enclosure dc:creator"
    )
)
FEED_TEXT = st.one_of(
    TEXT,
    HTML.map(_xml_escape),
    HTML.map(lambda h: f"<![CDATA[{h}]]>"),
    st.sampled_from(["&amp;", "&lt;", "&bogus;", "&#0;", "&#x110000;", "]]>"]),
)
FEED_ELEMENT = st.recursive(
    FEED_TEXT,
    lambda children: st.builds(
        lambda tag, attributes, inner: f"<{tag}{attributes}>{''.join(inner)}</{tag}>",
        FEED_TAGS,
        _attributes(st.sampled_from(["href", "type", "rel", "isPermaLink"]), TEXT.map(_xml_escape)),
        st.lists(children, max_size=4),
    ),
    max_leaves=20,
)


@st.composite
def xml_feeds(draw) -> bytes:
    kind = draw(st.sampled_from(["rss", "atom", "rdf", "garbage"]))
    body = "".join(draw(st.lists(FEED_ELEMENT, max_size=4)))
    if kind == "rss":
        document = f'<rss version="2.0"><channel>{body}<item>{body}</item></channel></rss>'
    elif kind == "atom":
        document = f'<feed xmlns="http://www.w3.org/2005/Atom"><entry>{body}</entry></feed>'
    elif kind == "rdf":
        document = (
            '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
            f'xmlns="http://purl.org/rss/1.0/"><item>{body}</item></rdf:RDF>'
        )
    else:
        document = body
    if draw(st.booleans()):
        cut = draw(st.integers(0, len(document)))
        document = document[:cut]
    return document.encode()


JSON_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), TEXT, URLS, HTML
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(TEXT, children, max_size=3)
    ),
    max_leaves=10,
)
JSON_FEED_KEYS = words(
    "id url external_url title summary content_html content_text date_published "
    "date_modified author authors tags"
)
JSON_ITEMS = st.one_of(
    st.dictionaries(st.sampled_from(JSON_FEED_KEYS), JSON_VALUES, max_size=8),
    st.fixed_dictionaries(
        {"id": URLS, "url": URLS, "content_html": HTML},
        optional={"authors": st.lists(st.fixed_dictionaries({"name": JSON_VALUES}), max_size=2)},
    ),
    JSON_VALUES,
)


@st.composite
def json_feeds(draw) -> bytes:
    document = {
        "version": draw(st.sampled_from(["https://jsonfeed.org/version/1.1", 1, None])),
        "title": draw(JSON_VALUES),
        "home_page_url": draw(st.one_of(URLS, JSON_VALUES)),
        "items": draw(st.one_of(st.lists(JSON_ITEMS, max_size=4), JSON_VALUES)),
    }
    text = json.dumps(document)
    if draw(st.booleans()):  # deep nesting, past what the decoder recurses through
        depth = draw(st.sampled_from([10, 5_000, 200_000]))
        text = text[:-1] + ', "deep": ' + "[" * depth + "]" * depth + "}"
    return text.encode()


def assert_safe(markup: str) -> None:
    assert unsafe_findings(markup) == [], markup
    assert "<script" not in markup.lower(), markup


# --- the sanitizer ------------------------------------------------------------------------------


@PROPERTY
@given(HTML, st.sampled_from(["", BASE]))
def test_sanitized_html_never_holds_an_executable_construct(markup, base_url):
    cleaned = sanitize_html(markup, base_url=base_url)
    assert_safe(cleaned)
    html_to_text(markup)  # and the text path never raises


# --- feeds ------------------------------------------------------------------------------------


def _parsed_or_refused(content: bytes):
    try:
        return parse_feed(content, base_url=BASE)
    except FeedParseError as exc:
        assert str(exc)  # a readable message
        return None


@PROPERTY
@given(st.one_of(xml_feeds(), st.binary(max_size=200)))
def test_any_xml_feed_parses_or_raises_feed_parse_error_and_stores_only_safe_html(content):
    parsed = _parsed_or_refused(content)
    for entry in parsed.entries if parsed else []:
        assert_safe(entry.content_html)


@PROPERTY
@given(json_feeds())
def test_any_json_feed_parses_or_raises_feed_parse_error_and_stores_only_safe_html(content):
    parsed = _parsed_or_refused(content)
    for entry in parsed.entries if parsed else []:
        assert_safe(entry.content_html)
        assert isinstance(entry.title, str) and isinstance(entry.author, str)


# --- OPML -------------------------------------------------------------------------------------

OUTLINE = st.recursive(
    st.builds(
        lambda url, title: f'<outline xmlUrl="{_xml_escape(url)}" title="{_xml_escape(title)}"/>',
        URLS,
        TEXT,
    ),
    lambda children: st.lists(children, max_size=3).map(
        lambda inner: f'<outline text="folder">{"".join(inner)}</outline>'
    ),
    max_leaves=10,
)


@PROPERTY
@given(
    st.one_of(
        st.lists(OUTLINE, max_size=4).map(
            lambda o: f"<opml version='2.0'><body>{''.join(o)}</body></opml>".encode()
        ),
        xml_feeds(),
        st.binary(max_size=200),
        st.just(b'<!DOCTYPE opml [<!ENTITY a "b">]><opml><body/></opml>'),
    )
)
def test_any_opml_file_parses_or_raises_opml_error(content):
    try:
        outlines = parse_opml(content)
    except OPMLError as exc:
        assert exc.args and str(exc)
        return
    assert all(isinstance(o.url, str) and o.url for o in outlines)


# --- pages, list watches, crawls, search results ----------------------------------------------

PAGES = st.one_of(
    HTML.map(lambda h: f"<html><head><title>t</title></head><body>{h}</body></html>"),
    HTML,
    st.binary(max_size=200),
)


@PROPERTY
@given(PAGES)
def test_any_page_extracts_or_raises_extraction_error_with_safe_html(page):
    try:
        extracted = extract_main_content(page, url=BASE + "1")
    except ExtractionError as exc:
        assert exc.message
        return
    assert_safe(extracted.html)


@PROPERTY
@given(PAGES, st.sampled_from(["", "a", "li > a", "div[", "::", "a:has(", "*"]))
def test_any_listing_page_extracts_or_raises_listing_error(page, selector):
    try:
        listing = extract_listing(page, base_url=BASE, selector=selector)
    except ListingError as exc:
        assert exc.message
        return
    assert all(entry.url.startswith(("http://", "https://")) for entry in listing.entries)


@PROPERTY
@given(PAGES)
def test_any_crawled_page_is_read_as_the_crawl_reads_it_without_crashing(page):
    page_url = BASE + "1"
    content = page if isinstance(page, bytes) else page.encode()
    html = decode_html(FetchResult(page_url, 200, {"content-type": "text/html"}, content))
    try:
        doc = lxml.html.document_fromstring(html)
    except (etree.ParserError, ValueError):  # what the crawl catches: "not HTML", skipped
        return
    content_html, text = main_content(html, page_url)
    site = ("site.example", None)
    if looks_like_detail(doc, content_html, text):
        entry = detail_entry(
            doc, html, content_html, text, page_url=page_url, requested=page_url, site=site
        )
        assert_safe(entry.content_html)
        assert entry.url == canonicalize_url(entry.url)
    for link in page_links(doc, page_url):
        assert isinstance(link, str)


SEARCH_RESULT = st.one_of(
    st.fixed_dictionaries(
        {"url": st.one_of(URLS, JSON_VALUES)},
        optional={"title": JSON_VALUES, "content": JSON_VALUES, "publishedDate": JSON_VALUES},
    ),
    JSON_VALUES,
)


@PROPERTY
@given(
    st.one_of(
        st.builds(
            lambda results: json.dumps({"results": results}).encode(),
            st.one_of(st.lists(SEARCH_RESULT, max_size=4), JSON_VALUES),
        ),
        JSON_VALUES.map(lambda v: json.dumps(v).encode()),
        st.sampled_from([b"[" * 100_000, b'{"results": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"]),
        st.binary(max_size=100),
    )
)
def test_any_searxng_answer_parses_or_raises_its_error(content):
    try:
        parsed = parse_results(content, query="q")
    except SearxngResponseError as exc:
        assert str(exc)
        return
    for entry in parsed.entries:
        assert isinstance(entry.title, str) and entry.url.startswith(("http://", "https://"))
