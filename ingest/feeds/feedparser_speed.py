"""Speed-ups for feedparser's strict parser that change nothing it returns
(tests/ingest/test_feeds.py compares its results with and without them, and they were checked
on the 285 real feeds and the 2,107 files of feedparser's own edge-case suite). Each replaces a
name feedparser looks up at run time; `shipped()` puts feedparser's own back.

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

3. Content parameters. Every text construct's parameters (type, language, base: strings) are
   copied with `copy.deepcopy`, whose generic machinery cost more than the rest of storing the
   value. A dict of immutable values is copied as a dict; anything else still deep.

4. FeedParserDict lookups. `get()` and `[]` walk a chain of special cases (legacy aliases such
   as "description" or "guid", computed keys such as "enclosures") before the dict lookup, and
   feedparser makes about a hundred of them per entry. A key that is none of those special ones
   is answered by the dict at once; the special ones still take feedparser's own path.

5. Base URIs. Every start tag joins the current base with its own (`xml:base` or the same base
   again), which is a full `urllib.parse.urljoin` per element. The join is a pure function of
   two strings and a feed repeats the same pair for every element: a small LRU answers them.
"""

from __future__ import annotations

import contextlib
import copy
import types
from functools import lru_cache
from xml.sax.expatreader import ExpatParser

import feedparser.api
import feedparser.html
import feedparser.mixin
import feedparser.urls
from feedparser.util import FeedParserDict

# Longer text still arrives whole, in several callbacks of this many characters.
TEXT_BUFFER_CHARS = 256 * 1024
# A feed can hold a great many distinct characters; past this the table stops growing.
MAX_REMEMBERED_CHARACTERS = 1 << 16
# A feed has a handful of distinct bases (its own, an entry's xml:base, a link's).
REMEMBERED_BASE_JOINS = 1024


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


_IMMUTABLE = (str, int, float, bool, type(None))


def copy_content_params(params):
    """`copy.deepcopy(params)` for feedparser's content parameters: the same result."""
    if type(params) is FeedParserDict and all(type(v) in _IMMUTABLE for v in params.values()):
        return FeedParserDict(params)
    return copy.deepcopy(params)


# What `copy` means inside feedparser.mixin, where `copy.deepcopy` only ever copies content
# parameters.
_mixin_copy = types.SimpleNamespace(deepcopy=copy_content_params)

_SHIPPED_GETITEM = FeedParserDict.__getitem__
_SHIPPED_GET = FeedParserDict.get
# The keys FeedParserDict.__getitem__ treats specially: aliases and computed keys.
_SPECIAL_KEYS = frozenset(FeedParserDict.keymap) | {
    "category",
    "enclosures",
    "license",
    "updated",
    "updated_parsed",
}


def _getitem(self, key):
    if key in _SPECIAL_KEYS:
        return _SHIPPED_GETITEM(self, key)
    return dict.__getitem__(self, key)


def _get(self, key, default=None):
    if key in _SPECIAL_KEYS:
        return _SHIPPED_GET(self, key, default)
    return dict.get(self, key, default)


_SHIPPED = {
    (feedparser.api, "PREFERRED_XML_PARSERS"): feedparser.api.PREFERRED_XML_PARSERS,
    (feedparser.mixin, "_cp1252"): feedparser.html._cp1252,
    (feedparser.mixin, "copy"): copy,
    (feedparser.mixin, "_urljoin"): feedparser.urls._urljoin,
    (feedparser.mixin, "make_safe_absolute_uri"): feedparser.urls.make_safe_absolute_uri,
    (FeedParserDict, "__getitem__"): _SHIPPED_GETITEM,
    (FeedParserDict, "get"): _SHIPPED_GET,
}
_FAST = {
    (feedparser.api, "PREFERRED_XML_PARSERS"): [__name__],
    (feedparser.mixin, "_cp1252"): Cp1252Table(feedparser.html._cp1252),
    (feedparser.mixin, "copy"): _mixin_copy,
    (feedparser.mixin, "_urljoin"): lru_cache(REMEMBERED_BASE_JOINS)(feedparser.urls._urljoin),
    (feedparser.mixin, "make_safe_absolute_uri"): lru_cache(REMEMBERED_BASE_JOINS)(
        feedparser.urls.make_safe_absolute_uri
    ),
    (FeedParserDict, "__getitem__"): _getitem,
    (FeedParserDict, "get"): _get,
}


def _apply(values: dict) -> None:
    for (owner, name), value in values.items():
        setattr(owner, name, value)


def install() -> None:
    """Turn the speed-ups on, process-wide (ingest.feeds.parse does on import)."""
    _apply(_FAST)


@contextlib.contextmanager
def shipped():
    """Inside: feedparser as installed, for baselines and comparisons. Not thread-safe: the
    names are process-wide."""
    current = {key: getattr(*key) for key in _SHIPPED}
    _apply(_SHIPPED)
    try:
        yield
    finally:
        _apply(current)
