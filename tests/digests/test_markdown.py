"""The narrative's Markdown as HTML: a small subset, escaped first, links only to http(s)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from digests.narrative.markdown import render
from digests.narrative.summaries import template_narrative


def test_paragraphs_lists_emphasis_and_links():
    html = render(
        "**[Lead](https://a.example/x?a=1&b=2)** is *big*, `code` too.\n"
        "Same paragraph.\n\n- one\n- two\n\nSources:\n1. [A](https://a.example)\n2. [B](http://b.example)"
    )
    assert html == (
        '<p><strong><a href="https://a.example/x?a=1&amp;b=2" target="_blank" '
        'rel="noopener noreferrer nofollow">Lead</a></strong> is <em>big</em>, '
        "<code>code</code> too. Same paragraph.</p>"
        "<ul><li>one</li><li>two</li></ul>"
        "<p>Sources:</p>"
        '<ol><li><a href="https://a.example" target="_blank" rel="noopener noreferrer nofollow">'
        "A</a></li>"
        '<li><a href="http://b.example" target="_blank" rel="noopener noreferrer nofollow">'
        "B</a></li></ol>"
    )


@pytest.mark.parametrize(
    "markdown",
    [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "[x](javascript:alert(1))",
        "[x](JAVASCRIPT:alert(1))",
        "[x](data:text/html;base64,PHNjcmlwdD4=)",
        '[x](https://e.example/" onmouseover="alert(1))',
        "[x](//evil.example/a)",
        "**<b onclick=alert(1)>x</b>**",
    ],
)
def test_nothing_executable_survives(markdown):
    tags = []

    class Collector(HTMLParser):
        def handle_starttag(self, tag, attrs):
            tags.append((tag, dict(attrs)))

    Collector().feed(render(markdown))
    for tag, attrs in tags:
        assert tag in {"p", "strong", "em", "a", "code"}
        assert not [name for name in attrs if name.startswith("on")]
        if tag == "a":
            assert attrs["href"].startswith("https://")


def test_escaped_markdown_stays_literal():
    html = render(r"\*not italic\* and \[not a link\](https://a.example) and a\_b")
    assert html == "<p>*not italic* and [not a link](https://a.example) and a_b</p>"


def test_the_template_narrative_renders_with_its_titles_escaped():
    markdown = template_narrative(
        "PG & <friends>",
        [
            {
                "title": "A *star* <b>",
                "url": "https://a.example/(x)",
                "summary": "Two **bold** words.",
                "source_name": "Eng",
            }
        ],
        "en",
    )
    html = render(markdown)
    assert (
        "<strong>A *star* &lt;b&gt;</strong> leads this issue of PG &amp; &lt;friends&gt;" in html
    )
    assert "Two **bold** words." in html
    assert 'href="https://a.example/%28x%29"' in html


def test_headings_become_small_headings():
    assert render("# Top\ntext") == "<h3>Top</h3><p>text</p>"
