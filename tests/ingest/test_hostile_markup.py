"""Hostile markup parses in bounded time: deep nesting is flattened and each field capped
before nh3 (whose parser is quadratic in nesting depth); a feed is parsed once when added; a
feed file is capped like a fetched feed."""

from __future__ import annotations

import html
import json
import random
import re
import time
from io import StringIO

import pytest
from django.core.management import call_command

from ingest.feeds import parse as feed_parse
from ingest.fetching import fetch
from ingest.library.sources import ensure_feed_source
from ingest.models import ContentItem, Source
from ingest.text.sanitize import (
    _TAG_START,
    MAX_MARKUP_CHARS,
    MAX_NESTING_DEPTH,
    _depth_bound,
    _depths,
    bound_markup,
    html_to_text,
    sanitize_html,
)

# Before the bounds, 80,000 nested elements took 26 s and 160,000 about four minutes; now each
# parse below takes well under a second. Measured in CPU seconds of this process, so a busy
# machine (other test workers, other jobs) cannot make a bounded parse look unbounded.
SECONDS = 10.0


def nested(tag: str, depth: int, text: str = "deep") -> str:
    return f"<{tag}>" * depth + text + f"</{tag}>" * depth


def max_depth(markup: str) -> int:
    depth = deepest = 0
    for closing, name in re.findall(r"<(/?)([a-z0-9]+)", markup):
        if name in {"br", "img", "hr"}:
            continue
        depth += -1 if closing else 1
        deepest = max(deepest, depth)
    return deepest


def timed(call, *args, **kwargs):
    started = time.process_time()
    result = call(*args, **kwargs)
    return result, time.process_time() - started


@pytest.mark.parametrize(
    "markup",
    [
        nested("div", 160_000),
        nested("blockquote", 80_000),
        "<ul><li>" * 80_000 + "deep",
        # Distinct attributes defeat the parser's own limit on reopened formatting elements.
        "".join(f'<b title="{n}">' for n in range(40_000)) + "<p>deep</p>" * 1000,
        # End tags of elements never opened are ignored by the parser: they must not hide depth.
        "<div></span>" * 80_000 + "deep",
    ],
    ids=["div", "blockquote", "list", "formatting", "stray-end-tags"],
)
def test_deeply_nested_markup_is_sanitized_in_bounded_time_and_keeps_its_text(markup):
    cleaned, seconds = timed(sanitize_html, markup)
    text, text_seconds = timed(html_to_text, markup)
    assert seconds + text_seconds < SECONDS
    assert "deep" in cleaned and "deep" in text
    assert max_depth(cleaned) <= MAX_NESTING_DEPTH


def test_shallow_markup_is_left_alone():
    article = "<article><h2>Title</h2>" + "<p>A <a href='https://e.example/'>link</a>.</p>" * 400
    assert bound_markup(article) == article
    within = nested("div", MAX_NESTING_DEPTH)
    assert bound_markup(within) == within


def test_deeper_tags_are_dropped_with_their_end_tags_and_attributes():
    markup = nested("div", MAX_NESTING_DEPTH).replace("deep", nested('span class=">x"', 3))
    bounded = bound_markup(markup)
    assert bounded.count("<div>") == MAX_NESTING_DEPTH
    assert "span" not in bounded and "deep" in bounded


def test_the_quick_depth_bound_is_never_below_the_walk():
    """bound_markup skips the exact walk when a cheaper bound (`_depth_bound`) is within the
    limit: that bound must never be lower than the depth the walk finds, or a deep fragment
    would slip through unflattened. Mixed case, void, stray and misnested end tags."""
    names = ["div", "p", "b", "span", "br", "img", "DIV", "li", "ul"]
    generator = random.Random(20)
    for _ in range(3000):
        tags = [
            f"</{name}>" if generator.random() < 0.45 else f"<{name}>"
            for name in generator.choices(names, k=generator.randint(1, 80))
        ]
        starts = _TAG_START.findall("".join(tags))
        assert _depth_bound(starts) >= max(_depths(starts), default=0), "".join(tags)


def test_each_field_is_capped_before_the_sanitizer():
    huge = "<p>" + "word " * (MAX_MARKUP_CHARS // 4) + "</p><p>tail</p>"
    cleaned = sanitize_html(huge)
    assert len(cleaned) <= MAX_MARKUP_CHARS + 16
    assert "tail" not in cleaned


def rss(description: str) -> bytes:
    return (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><item><title>a'
        "</title><link>https://e.example/a</link><description>"
        + html.escape(description)
        + "</description></item></channel></rss>"
    ).encode()


def atom_xhtml(body: str) -> bytes:
    return (
        '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>'
        '<entry><title>a</title><link href="https://e.example/a"/><id>https://e.example/a</id>'
        '<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">'
        + body
        + "</div></content></entry></feed>"
    ).encode()


@pytest.mark.parametrize(
    "document",
    [
        rss(nested("div", 160_000)),
        atom_xhtml(nested("div", 160_000)),
        # Not well-formed (a bare "&"): feedparser's loose parser reads it.
        rss(nested("div", 160_000)).replace(b"deep", b"deep & more").replace(b"&lt;", b"<"),
    ],
    ids=["rss-escaped-160k", "atom-xhtml-160k", "loose-160k"],
)
def test_a_feed_of_160k_nested_elements_under_the_cap_parses_in_seconds(document):
    assert len(document) < fetch.FEED_MAX_BYTES
    parsed, seconds = timed(feed_parse.parse_feed, document, base_url="https://e.example/")
    assert seconds < SECONDS
    assert len(parsed.entries) == 1
    if b"&lt;" in document:  # well-formed: the text is kept (the loose parser may drop it)
        assert "deep" in parsed.entries[0].content_html


def test_adding_a_feed_parses_it_once(db, fixture_server, monkeypatch, now):
    calls = []
    real = feed_parse._feedparser_result

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(feed_parse, "_feedparser_result", counting)
    url = fixture_server.add("/feed", rss("<p>hello</p>"), Content_Type="application/rss+xml")
    _source, refresh = ensure_feed_source(url, now=now)
    assert refresh.ok and refresh.counts.inserted == 1
    assert len(calls) == 1


def run_ingest(*args) -> tuple[int, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command("ingest", *args, stdout=out, stderr=err)
        return 0, out.getvalue()
    except SystemExit as exit_:
        return exit_.code, out.getvalue()


def test_ingest_file_is_capped_like_a_fetched_feed(db, tmp_path):
    path = tmp_path / "big.xml"
    path.write_bytes(rss("<p>" + "x" * (fetch.FEED_MAX_BYTES + 10) + "</p>"))
    code, out = run_ingest(str(path), "--json")
    assert code == 1
    row = json.loads(out)["sources"][0]
    assert "larger than 5 MB" in row["error"]
    assert not Source.objects.exists() and not ContentItem.objects.exists()


def test_ingest_file_parses_it_once(db, tmp_path, monkeypatch):
    calls = []
    real = feed_parse._feedparser_result
    monkeypatch.setattr(
        feed_parse, "_feedparser_result", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    path = tmp_path / "feed.xml"
    path.write_bytes(rss("<p>hello</p>"))
    assert run_ingest(str(path), "--json")[0] == 0
    assert len(calls) == 1
