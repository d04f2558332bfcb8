"""Two speed-ups for feedparser's strict parser that change nothing it returns
(tests/ingest/test_feeds.py compares its results with and without them). On the 285 real
feeds of the ingest benchmark they take a third off feedparser's time.

1. The SAX driver: Python's expat reader with text buffering on. Unbuffered, expat reports
   character data in pieces, breaking at every newline and every entity reference, and
   feedparser appends each piece in Python: an escaped HTML description ("&lt;p&gt;Hello...")
   arrives as hundreds of callbacks. Buffered, a run of text is one callback. feedparser asks
   `xml.sax.make_parser()` for the first importable driver module named in
   `feedparser.api.PREFERRED_XML_PARSERS`: this module is one (`create_parser`).

2. The windows-1252 table. feedparser maps C1 control characters to the characters
   windows-1252 puts there with `text.translate(table)` on every element's text, and a plain
   dict answers each character it lacks (almost all of them) with a KeyError that translate
   then swallows: on non-ASCII text that was feedparser's single largest cost. This table
   answers a missing character with itself and remembers it, so after the first sight of a
   character the lookup is a hit.
"""

from __future__ import annotations

from xml.sax.expatreader import ExpatParser

import feedparser.api
import feedparser.mixin

# Longer text still arrives whole, in several callbacks of this many characters.
TEXT_BUFFER_CHARS = 256 * 1024
# A feed can hold a great many distinct characters; past this the table stops growing.
MAX_REMEMBERED_CHARACTERS = 1 << 16


class BufferedExpatParser(ExpatParser):
    def reset(self):
        super().reset()
        self._parser.buffer_text = True
        self._parser.buffer_size = TEXT_BUFFER_CHARS


def create_parser(*args, **kwargs) -> BufferedExpatParser:
    return BufferedExpatParser(*args, **kwargs)


class Cp1252Table(dict):
    """feedparser's windows-1252 mapping; every other character maps to itself."""

    def __missing__(self, codepoint: int) -> int:
        if len(self) < MAX_REMEMBERED_CHARACTERS:
            self[codepoint] = codepoint
        return codepoint


def install() -> None:
    feedparser.api.PREFERRED_XML_PARSERS = [__name__]
    if not isinstance(feedparser.mixin._cp1252, Cp1252Table):
        feedparser.mixin._cp1252 = Cp1252Table(feedparser.mixin._cp1252)
