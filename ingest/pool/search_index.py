"""Full-text search over the content pool: the first cut for topic-only runs and the local-pool
search provider (SPEC §4.6, §6 step 2).

`search_pool()` returns the ids of active items in a time window that mention any of the terms.
It is a recall step: `digests.runs.scoring` decides afterwards what really matches, so the index may
return a little more than the scorer keeps, never less. Two kinds of term:

- Word terms (ASCII with at least one letter or digit) go to a word index: PostgreSQL's
  `search_vector` (a stored `tsvector`, 'simple' config, GIN index; filled by the ingest path,
  `pg_words()`, else by a trigger with the same expression) or SQLite's FTS5
  table `ingest_contentitem_fts` ('unicode61'). Both sides see text with every run of
  non-alphanumerics turned into one space, so "GPT-3.5", "github.com/x" and "C++" become plain
  word sequences and a term matches as a phrase of whole words — what the scorer's
  word-boundary pattern accepts.
- Substring terms (anything else: CJK, Korean, accented words, "++") match anywhere inside a
  word, as the scorer does for them (a Cyrillic term as its stem, `terms.shared_part()`: the
  scorer accepts it in every case, "Оренбурга" in "Оренбурге"); neither word tokenizer can
  split Chinese. The scorer cuts CJK interests into words (ingest/text/segment.py) and asks
  for those words, so a substring match is always at least what it keeps; when the terms hold
  CJK, their Latin words (生成AI → "AI") are looked for as substrings too, since the word
  index sees "生成aiの規制" as one token. Only rows with
  non-ASCII text can contain a non-ASCII term, and those rows are indexed apart: in SQLite an
  FTS5 trigram table (3.34+) for terms of three characters or more and a partial index walked
  with LIKE for shorter ones; in PostgreSQL a partial index walked with ILIKE. ASCII terms
  without letters or digits fall back to (I)LIKE over the pool.

Two orders: "relevance" (text rank, title 2.5 x description, then newest; every match in the
window is ranked) and "recent" (newest first, reading the index only until `limit` matches are
found, so the cost stays flat as the pool grows; runs use it, as they used newest-first before
there was an index). In SQLite "newest" is the latest arrival in the pool (FTS5 hands rowids out
in order). In PostgreSQL it is publication time: `search_vector` also holds one lexeme for the
UTC day of publication (`~20779`), so the GIN index alone narrows matches to a run of days, and
"recent" asks for the last two days first, then spans doubling back to the window's start,
stopping once it has `limit`. Matches of the different kinds are interleaved, so no kind crowds
out another.

The SQLite index lives outside Django's model (FTS5 virtual tables kept in sync by triggers);
the PostgreSQL column too (the model is shared with SQLite). Migration `ingest.0003` installs
both (on PostgreSQL a stored generated column); `ingest.0014` turns the PostgreSQL column into
one the ingest path fills, with a trigger for every other writer (install_postgresql_filled()).
Django's SQLite backend rebuilds a table to alter it, which drops its triggers:
`ensure_index()` runs after every `migrate` and puts them back (re-indexing) if they went
missing. In PostgreSQL the trigger reads `title`, `description`, `published_at` and
`first_seen_at` when it runs, so their types can change without touching `search_vector`; a
change of the document's expression must change `_pg_document()` and `pg_words()` together
(a test holds them equal) and recompute the column.
"""

# SQL here is built from constant identifiers and %s placeholders only.
# ruff: noqa: S608

from __future__ import annotations

import logging
import re
import sqlite3
import unicodedata
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from functools import cache
from itertools import chain, zip_longest
from typing import Literal

from django.db import connections

from ingest.text.segment import has_cjk
from ingest.text.terms import clean_term, shared_part, term_form

logger = logging.getLogger(__name__)

TABLE = "ingest_contentitem"
FTS_TABLE = "ingest_contentitem_fts"
TRIGRAM_TABLE = "ingest_contentitem_fts_trigram"
PG_COLUMN = "search_vector"
PG_INDEX = "ingest_contentitem_search_idx"
PG_FUNCTION = "ingest_contentitem_search_vector"
NON_ASCII_INDEX = "ingest_contentitem_non_ascii_idx"
# FTS5's trigram tokenizer arrived in SQLite 3.34.0.
SQLITE_HAS_TRIGRAM = sqlite3.sqlite_version_info >= (3, 34, 0)
TRIGRAM_MIN_CHARS = 3
# A tsvector holds at most 1 MB; descriptions are capped far below this at ingest anyway.
PG_MAX_INDEXED_CHARS = 100_000
TITLE_WEIGHT, DESCRIPTION_WEIGHT = 2.5, 1.0
FIRST_SPAN_DAYS = 2
MAX_WINDOW_DAYS = 366

Order = Literal["relevance", "recent"]

_WHEN = f"COALESCE({TABLE}.published_at, {TABLE}.first_seen_at)"
_ASCII_WORD = re.compile(r"[a-z0-9]+")


def _non_ascii(row: str) -> str:
    """SQLite: true when the row's title or description has a non-ASCII character (the byte
    length of UTF-8 text exceeds its length in characters)."""
    text = f"({row}.title || {row}.description)"
    return f"length(CAST({text} AS BLOB)) > length({text})"


# PostgreSQL: the same test, spelled so that the partial index and the query match exactly.
_PG_NON_ASCII = (
    f"(octet_length({TABLE}.title) + octet_length({TABLE}.description) > "
    f"char_length({TABLE}.title) + char_length({TABLE}.description))"
)


def _words(term: str) -> list[str]:
    return _ASCII_WORD.findall(term.lower())


def is_word_term(term: str) -> bool:
    return term.isascii() and bool(_words(term))


_FULL_WIDTH = {code: code + 0xFEE0 for code in range(0x21, 0x7F)}


def _with_full_width(term: str) -> list[str]:
    """A CJK term with Latin letters or digits in it, also as Japanese and Chinese text often
    writes them — full width ("AIエージェント" and "ＡＩエージェント"). The scorer folds both
    (ingest/text/terms.py); the index sees the text as written."""
    if term.isascii() or not any(c.isascii() and c.isalnum() for c in term):
        return [term]
    return [term, term.translate(_FULL_WIDTH)]


def _phrases(term: str) -> list[tuple[str, ...]]:
    """The word sequences a word term stands for: its last word in each form the scorer
    accepts (ingest/text/terms.py), "language model" and "language models"."""
    form = term_form(term)
    return list(dict.fromkeys(tuple(_words(form.stem + ending)) for ending in form.endings))


def search_pool(
    terms: Iterable[str],
    *,
    since: datetime | None = None,
    until: datetime | None = None,
    limit: int = 100,
    order: Order = "relevance",
    using: str = "default",
) -> list[int]:
    """Ids of active pool items whose publication (else first-seen) time is within
    [since, until] and whose title or description mentions any of `terms`."""
    if order not in ("relevance", "recent"):
        raise ValueError(f"order must be 'relevance' or 'recent', not {order!r}")
    clean = list(dict.fromkeys(clean_term(t) for t in terms if t and t.strip()))
    if not clean or limit <= 0:
        return []
    clean = list(dict.fromkeys(chain.from_iterable(_with_full_width(t) for t in clean)))
    connection = connections[using]
    words = [t for t in clean if is_word_term(t)]
    # A substring search for every form the scorer accepts: a Cyrillic word without its ending.
    non_ascii = list(dict.fromkeys(shared_part(t) for t in clean if not t.isascii()))
    if any(map(has_cjk, non_ascii)):
        # A Latin word written against Chinese, Japanese or Korean text (生成AIの規制, AI芯片) is
        # part of one long token to the word index, yet the scorer finds it there: for a CJK
        # query its Latin words are also looked for inside the rows with non-ASCII text.
        non_ascii += words
    symbols = [t for t in clean if t.isascii() and not is_word_term(t)]
    query = _Query(connection, since, until, limit, order)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            ranked = [
                _pg_words(cursor, words, query),
                _like(cursor, non_ascii, query, operator="ILIKE", only=_PG_NON_ASCII),
                _like(cursor, symbols, query, operator="ILIKE"),
            ]
        elif connection.vendor == "sqlite":
            trigram = [t for t in non_ascii if SQLITE_HAS_TRIGRAM and len(t) >= TRIGRAM_MIN_CHARS]
            ranked = [
                _sqlite_words(cursor, words, query),
                _sqlite_trigram(cursor, trigram, query),
                _like(
                    cursor,
                    [t for t in non_ascii if t not in trigram],
                    query,
                    operator="LIKE",
                    only=_non_ascii(TABLE),
                ),
                _like(cursor, symbols, query, operator="LIKE"),
            ]
        else:  # pragma: no cover - only the two supported databases
            raise NotImplementedError(f"no full-text search for {connection.vendor}")
    return _interleave(ranked, limit)


def _interleave(ranked: Sequence[list[int]], limit: int) -> list[int]:
    seen: dict[int, None] = {}
    for item_id in chain.from_iterable(zip_longest(*ranked)):
        if item_id is not None:
            seen.setdefault(item_id, None)
    return list(seen)[:limit]


class _Query:
    """What every kind of match shares: the window (active items in [since, until]) with its
    adapted parameters, the limit and the order."""

    def __init__(self, connection, since, until, limit: int, order: Order):
        self.since, self.until, self.limit = since, until, limit
        self.recent = order == "recent"
        self.by_arrival = connection.vendor == "sqlite"
        clauses, self.params = [f"{TABLE}.status = 'active'"], []
        for bound, operator in ((since, ">="), (until, "<=")):
            if bound is not None:
                clauses.append(f"{_WHEN} {operator} %s")
                self.params.append(connection.ops.adapt_datetimefield_value(bound))
        self.window = " AND ".join(clauses)

    def order_by(self, rank: str = "") -> str:
        if self.recent and self.by_arrival:
            return f"{TABLE}.id DESC"
        if self.recent or not rank:
            return f"{_WHEN} DESC, {TABLE}.id DESC"
        return f"{rank}, {_WHEN} DESC, {TABLE}.id DESC"

    def day_spans(self) -> list[tuple[int, int]]:
        """PostgreSQL: runs of UTC days (first, last) to search in turn, newest first — the last
        FIRST_SPAN_DAYS days, then spans doubling back to `since`; one span for "relevance"."""
        if self.since is None or self.until is None:
            return []
        first, last = _day(self.since), _day(self.until)
        if last - first >= MAX_WINDOW_DAYS:
            return []  # a tsquery of thousands of days would cost more than it saves
        spans, high, width = [], last, FIRST_SPAN_DAYS if self.recent else last - first + 1
        while high >= first:
            low = max(first, high - width + 1)
            spans.append((low, high))
            high, width = low - 1, width * 2
        return spans


def _day(moment: datetime) -> int:
    return int(moment.timestamp() // 86400)  # UTC days since the epoch, as in _PG_DAY


def _day_lexemes(first: int, last: int) -> str:
    return " | ".join(f"'~{day}'" for day in range(first, last + 1))


def _day_start(day: int) -> datetime:
    return datetime.fromtimestamp(day * 86400, tz=UTC)


_SPAN_LATERAL = (
    "SELECT picked.id FROM (VALUES {values}) AS span({columns}) CROSS JOIN LATERAL ({inner}) "
    "AS picked LIMIT %s"
)
# One row per span, newest first: the nested loop runs a span's scan only while the outer LIMIT
# still wants rows, so a popular term stops after the first span or two.


def _fetch_ids(cursor, sql: str, params: list) -> list[int]:
    cursor.execute(sql, params)
    return [row[0] for row in cursor.fetchall()]


def _pg_words(cursor, terms: list[str], query: _Query) -> list[int]:
    if not terms:
        return []
    tsquery = " | ".join(
        "(" + " <-> ".join(f"'{w}'" for w in phrase) + ")" for t in terms for phrase in _phrases(t)
    )
    spans = query.day_spans()
    if not spans:
        rank = f"ts_rank({TABLE}.{PG_COLUMN}, query) DESC"
        return _fetch_ids(
            cursor,
            f"SELECT {TABLE}.id FROM {TABLE}, to_tsquery('simple', %s) AS query "
            f"WHERE {TABLE}.{PG_COLUMN} @@ query AND {query.window} "
            f"ORDER BY {query.order_by(rank)} LIMIT %s",
            [tsquery, *query.params, query.limit],
        )
    rank = f"ts_rank({TABLE}.{PG_COLUMN}, span.query) DESC"
    inner = (
        f"SELECT {TABLE}.id FROM {TABLE} WHERE {TABLE}.{PG_COLUMN} @@ span.query "
        f"AND {query.window} ORDER BY {query.order_by(rank)} LIMIT %s"
    )
    return _fetch_ids(
        cursor,
        _SPAN_LATERAL.format(
            values=", ".join(["(to_tsquery('simple', %s) && %s::tsquery)"] * len(spans)),
            columns="query",
            inner=inner,
        ),
        [
            *chain.from_iterable((tsquery, _day_lexemes(*span)) for span in spans),
            *query.params,
            query.limit,
            query.limit,
        ],
    )


def _fts5_phrase(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _sqlite_match(cursor, table: str, match: str, query: _Query) -> list[int]:
    # For "recent" the FTS5 table hands out rowids newest first and the LIMIT stops the walk.
    rank = f"bm25({table}, {TITLE_WEIGHT}, {DESCRIPTION_WEIGHT})"
    order = f"{table}.rowid DESC" if query.recent else query.order_by(rank)
    return _fetch_ids(
        cursor,
        f"SELECT {TABLE}.id FROM {table} JOIN {TABLE} ON {TABLE}.id = {table}.rowid "
        f"WHERE {table} MATCH %s AND {query.window} ORDER BY {order} LIMIT %s",
        [match, *query.params, query.limit],
    )


def _sqlite_words(cursor, terms: list[str], query: _Query) -> list[int]:
    if not terms:
        return []
    match = " OR ".join(_fts5_phrase(" ".join(phrase)) for t in terms for phrase in _phrases(t))
    return _sqlite_match(cursor, FTS_TABLE, match, query)


def _sqlite_trigram(cursor, terms: list[str], query: _Query) -> list[int]:
    if not terms:
        return []
    return _sqlite_match(cursor, TRIGRAM_TABLE, " OR ".join(_fts5_phrase(t) for t in terms), query)


def _like_pattern(term: str) -> str:
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _like(cursor, terms: list[str], query: _Query, *, operator: str, only: str = "") -> list[int]:
    """Substring matches, newest first. `only` restricts the walk to the rows with non-ASCII
    text, through the partial index NON_ASCII_INDEX whose condition it repeats (in PostgreSQL
    span by span, like the words). Terms without letter case (Chinese, Korean) use LIKE: the
    same answer as ILIKE, without case-folding every row."""
    if not terms:
        return []
    patterns = [(_like_pattern(t), operator if t.lower() != t.upper() else "LIKE") for t in terms]
    matches = " OR ".join(
        f"{TABLE}.title {op} %s ESCAPE '\\' OR {TABLE}.description {op} %s ESCAPE '\\'"
        for _pattern, op in patterns
    )
    likes = list(chain.from_iterable((p, p) for p, _op in patterns))
    inner = (
        f"SELECT {TABLE}.id FROM {TABLE} WHERE {only + ' AND ' if only else ''}{query.window} "
        f"AND ({matches}) {{span}} ORDER BY {query.order_by()} LIMIT %s"
    )
    spans = query.day_spans() if only and not query.by_arrival else []
    if not spans:
        return _fetch_ids(cursor, inner.format(span=""), [*query.params, *likes, query.limit])
    return _fetch_ids(
        cursor,
        _SPAN_LATERAL.format(
            values=", ".join(["(%s::timestamptz, %s::timestamptz)"] * len(spans)),
            columns="low, high",
            inner=inner.format(span=f"AND {_WHEN} >= span.low AND {_WHEN} < span.high"),
        ),
        [
            *chain.from_iterable((_day_start(low), _day_start(high + 1)) for low, high in spans),
            *query.params,
            *likes,
            query.limit,
            query.limit,
        ],
    )


# --- Schema: installed by migration ingest.0003, repaired by ensure_index() ------------------

# Runs of non-alphanumerics become one space on both sides of the match (see the docstring).
# `~<day>` is the UTC day of publication (else first sight); no text token can start with "~".
_PG_DOCUMENT_COLUMNS = ("title", "description", "published_at", "first_seen_at")
_PG_WORDS_ONLY = "'[^[:alnum:]]+', ' ', 'g'"


def _pg_vector(title: str, description: str, published: str, first_seen: str) -> str:
    """The SQL of the document over these SQL expressions: `title` and `description` are the
    text with every run of non-alphanumerics already one space."""
    day = (
        f"floor(date_part('epoch', (COALESCE({published}, {first_seen}) AT TIME ZONE 'UTC')) "
        "/ 86400)"
    )
    return (
        f"setweight(to_tsvector('simple'::regconfig, {title}), 'A') || "
        f"setweight(to_tsvector('simple'::regconfig, {description}), 'B') || "
        f"array_to_tsvector(ARRAY['~' || ({day})::bigint::text])"
    )


def _pg_document(row: str = "") -> str:
    """The SQL of the document over the columns of `row` ("NEW" in the trigger)."""
    title, description, published, first_seen = (
        f"{row}.{column}" if row else column for column in _PG_DOCUMENT_COLUMNS
    )
    return _pg_vector(
        f"regexp_replace({title}, {_PG_WORDS_ONLY})",
        f"regexp_replace(left({description}, {PG_MAX_INDEXED_CHARS}), {_PG_WORDS_ONLY})",
        published,
        first_seen,
    )


_PG_DOCUMENT = _pg_document()

# The ingest path cuts the text into words itself (`pg_words()`), so that the server only runs
# its tokenizer: the `regexp_replace` was about half of the document's cost. Python's cut must
# be the server's: it is, for ASCII letters and digits and for punctuation, spaces and control
# characters, which no locale counts as letters or digits. Text with any other character
# (an accented or CJK letter, a symbol) is left to the server's own expression (None).
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_ASCII_WORDS = bytes(byte if chr(byte).isalnum() and byte < 0x80 else 0x20 for byte in range(256))


@cache
def _is_separator(char: str) -> bool:
    """A character no locale counts as a letter or digit: punctuation, a space, a control."""
    category = unicodedata.category(char)
    return category[0] in "PZ" or category == "Cc"


def pg_words(text: str, limit: int | None = None) -> str | None:
    """`text` (its first `limit` characters) with every character but an ASCII letter or digit
    turned into a space — the words the server's `regexp_replace` leaves, with the same
    tokens between them — or None where that depends on the database's locale."""
    if limit is not None:
        text = text[:limit]
    if not text.isascii():
        # Non-ASCII punctuation and spaces (’ “ — …, no-break space) become spaces; any
        # other non-ASCII character leaves the row to the server.
        for char in set(_NON_ASCII.findall(text)):
            if not _is_separator(char):
                return None
            text = text.replace(char, " ")
    return text.encode("ascii").translate(_ASCII_WORDS).decode("ascii")


def pg_document_words(title: str, description: str) -> tuple[str, str] | None:
    """The two texts the ingest path hands to PG_INSERT_DOCUMENT, or None for the trigger."""
    title_words = pg_words(title)
    if title_words is None:
        return None
    description_words = pg_words(description, PG_MAX_INDEXED_CHARS)
    if description_words is None:
        return None
    return title_words, description_words


def pg_insert_document(row: str) -> str:
    """The document over `row`'s columns `title_words`, `description_words` (pg_document_words(),
    NULL for the trigger) and the dates, for a multi-row INSERT ... SELECT."""
    return (
        f"CASE WHEN {row}.title_words IS NULL THEN NULL ELSE "
        + _pg_vector(
            f"{row}.title_words",
            f"{row}.description_words",
            f"{row}.published_at",
            f"{row}.first_seen_at",
        )
        + " END"
    )


def install_postgresql(schema_editor) -> None:
    """Migration ingest.0003: the column as it was first shipped, a stored generated column
    (adding it computes it for every existing row, a table rewrite). Migration ingest.0014
    turns it into a column the ingest path fills (install_postgresql_filled())."""
    schema_editor.execute(
        f"ALTER TABLE {TABLE} ADD COLUMN {PG_COLUMN} tsvector "
        f"GENERATED ALWAYS AS ({_PG_DOCUMENT}) STORED"
    )
    schema_editor.execute(f"CREATE INDEX {PG_INDEX} ON {TABLE} USING GIN ({PG_COLUMN})")
    # The rows a non-ASCII term can match, newest first (a few percent of an English pool).
    schema_editor.execute(
        f"CREATE INDEX {NON_ASCII_INDEX} ON {TABLE} (({_WHEN}) DESC, id DESC) WHERE {_PG_NON_ASCII}"
    )


def uninstall_postgresql(schema_editor) -> None:
    for index in (NON_ASCII_INDEX, PG_INDEX):
        schema_editor.execute(f"DROP INDEX IF EXISTS {index}")
    _drop_pg_triggers(schema_editor)
    schema_editor.execute(f"ALTER TABLE {TABLE} DROP COLUMN IF EXISTS {PG_COLUMN}")


def install_postgresql_filled(schema_editor) -> None:
    """Migration ingest.0014: `search_vector` stops being a generated column (its values stay:
    no table rewrite) and is filled instead by whoever inserts a row — the ingest path from
    the words `pg_words()` cut in Python, every other writer by the trigger below, which
    computes the same expression as before for a row inserted without it, for an update of a
    column it is made of, and for a row pg_words() leaves to the server."""
    schema_editor.execute(f"ALTER TABLE {TABLE} ALTER COLUMN {PG_COLUMN} DROP EXPRESSION")
    schema_editor.execute(
        f"CREATE FUNCTION {PG_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        f"NEW.{PG_COLUMN} := {_pg_document('NEW')}; RETURN NEW; END $$"
    )
    schema_editor.execute(
        f"CREATE TRIGGER {PG_FUNCTION}_insert BEFORE INSERT ON {TABLE} FOR EACH ROW "
        f"WHEN (NEW.{PG_COLUMN} IS NULL) EXECUTE FUNCTION {PG_FUNCTION}()"
    )
    changed = " OR ".join(
        f"OLD.{column} IS DISTINCT FROM NEW.{column}" for column in _PG_DOCUMENT_COLUMNS
    )
    schema_editor.execute(
        f"CREATE TRIGGER {PG_FUNCTION}_update BEFORE UPDATE OF "
        f"{', '.join(_PG_DOCUMENT_COLUMNS)} ON {TABLE} FOR EACH ROW WHEN ({changed}) "
        f"EXECUTE FUNCTION {PG_FUNCTION}()"
    )


def uninstall_postgresql_filled(schema_editor) -> None:
    """The reverse of ingest.0014: the generated column again (a table rewrite, and the GIN
    index built anew)."""
    _drop_pg_triggers(schema_editor)
    schema_editor.execute(f"DROP INDEX IF EXISTS {PG_INDEX}")
    schema_editor.execute(f"ALTER TABLE {TABLE} DROP COLUMN IF EXISTS {PG_COLUMN}")
    schema_editor.execute(
        f"ALTER TABLE {TABLE} ADD COLUMN {PG_COLUMN} tsvector "
        f"GENERATED ALWAYS AS ({_PG_DOCUMENT}) STORED"
    )
    schema_editor.execute(f"CREATE INDEX {PG_INDEX} ON {TABLE} USING GIN ({PG_COLUMN})")


def _drop_pg_triggers(schema_editor) -> None:
    for event in ("insert", "update"):
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {PG_FUNCTION}_{event} ON {TABLE}")
    schema_editor.execute(f"DROP FUNCTION IF EXISTS {PG_FUNCTION}()")


# Only rows with non-ASCII text go to the trigram table: a non-ASCII term cannot occur in an
# ASCII-only row, and English rows would otherwise dominate its size.


def _sqlite_triggers() -> dict[str, str]:
    insert_words = (
        f"INSERT INTO {FTS_TABLE}(rowid, title, description) "
        "VALUES (new.id, new.title, new.description);"
    )
    delete_words = (
        f"INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, title, description) "
        "VALUES ('delete', old.id, old.title, old.description);"
    )
    triggers = {
        f"{FTS_TABLE}_ai": f"AFTER INSERT ON {TABLE} BEGIN {insert_words} END",
        f"{FTS_TABLE}_ad": f"AFTER DELETE ON {TABLE} BEGIN {delete_words} END",
        f"{FTS_TABLE}_au": (
            f"AFTER UPDATE OF title, description ON {TABLE} "
            "WHEN old.title IS NOT new.title OR old.description IS NOT new.description "
            f"BEGIN {delete_words} {insert_words} END"
        ),
    }
    if SQLITE_HAS_TRIGRAM:
        insert_trigram = (
            f"INSERT INTO {TRIGRAM_TABLE}(rowid, title, description) "
            "VALUES (new.id, new.title, new.description);"
        )
        delete_trigram = (
            f"INSERT INTO {TRIGRAM_TABLE}({TRIGRAM_TABLE}, rowid, title, description) "
            "VALUES ('delete', old.id, old.title, old.description);"
        )
        changed = "(old.title IS NOT new.title OR old.description IS NOT new.description)"
        triggers |= {
            f"{TRIGRAM_TABLE}_ai": (
                f"AFTER INSERT ON {TABLE} WHEN {_non_ascii('new')} BEGIN {insert_trigram} END"
            ),
            f"{TRIGRAM_TABLE}_ad": (
                f"AFTER DELETE ON {TABLE} WHEN {_non_ascii('old')} BEGIN {delete_trigram} END"
            ),
            f"{TRIGRAM_TABLE}_au_old": (
                f"AFTER UPDATE OF title, description ON {TABLE} "
                f"WHEN {changed} AND {_non_ascii('old')} BEGIN {delete_trigram} END"
            ),
            f"{TRIGRAM_TABLE}_au_new": (
                f"AFTER UPDATE OF title, description ON {TABLE} "
                f"WHEN {changed} AND {_non_ascii('new')} BEGIN {insert_trigram} END"
            ),
        }
    return triggers


def _sqlite_objects() -> dict[str, str]:
    """Tables and the index, by name, with the SQL that creates each."""
    tables = {
        FTS_TABLE: (
            f"CREATE VIRTUAL TABLE {FTS_TABLE} USING fts5(title, description, "
            f"content='{TABLE}', content_rowid='id', tokenize='unicode61 remove_diacritics 2')"
        )
    }
    # Django knows nothing of this index, so a table rebuild drops it too.
    tables[NON_ASCII_INDEX] = (
        f"CREATE INDEX {NON_ASCII_INDEX} ON {TABLE} (id) WHERE {_non_ascii(TABLE)}"
    )
    if SQLITE_HAS_TRIGRAM:
        tables[TRIGRAM_TABLE] = (
            f"CREATE VIRTUAL TABLE {TRIGRAM_TABLE} USING fts5(title, description, "
            f"content='{TABLE}', content_rowid='id', tokenize='trigram')"
        )
    return tables


def _reindex_sqlite(cursor, table: str) -> None:
    if table == NON_ASCII_INDEX:
        return  # built by CREATE INDEX
    if table == FTS_TABLE:
        cursor.execute(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('rebuild')")
    else:  # the partial table: 'rebuild' would index every row of the content table
        cursor.execute(f"INSERT INTO {TRIGRAM_TABLE}({TRIGRAM_TABLE}) VALUES ('delete-all')")
        cursor.execute(
            f"INSERT INTO {TRIGRAM_TABLE}(rowid, title, description) "
            f"SELECT id, title, description FROM {TABLE} WHERE {_non_ascii(TABLE)}"
        )


def install_sqlite(schema_editor) -> None:
    for name, sql in _sqlite_objects().items():
        schema_editor.execute(sql)
        _reindex_sqlite(schema_editor.connection.cursor(), name)
    for name, body in _sqlite_triggers().items():
        schema_editor.execute(f"CREATE TRIGGER {name} {body}")


def uninstall_sqlite(schema_editor) -> None:
    for name in _sqlite_triggers():
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {name}")
    schema_editor.execute(f"DROP INDEX IF EXISTS {NON_ASCII_INDEX}")
    for name in (FTS_TABLE, TRIGRAM_TABLE):
        schema_editor.execute(f"DROP TABLE IF EXISTS {name}")


def ensure_index(using: str = "default") -> list[str]:
    """Put back SQLite triggers, tables and the partial index that went missing after the index
    was installed, re-indexing what they cover. Returns what was repaired; a no-op elsewhere."""
    connection = connections[using]
    if connection.vendor != "sqlite":
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'trigger', 'index')"
        )
        present = {name for _type, name in cursor.fetchall()}
        if FTS_TABLE not in present:
            return []  # not installed (migration not applied, or reversed)
        repaired: list[str] = []
        stale: set[str] = set()
        for name, sql in _sqlite_objects().items():
            if name not in present:
                cursor.execute(sql)
                repaired.append(name)
                stale.add(name)
        for name, body in _sqlite_triggers().items():
            if name not in present:
                cursor.execute(f"CREATE TRIGGER {name} {body}")
                repaired.append(name)
                stale.add(TRIGRAM_TABLE if name.startswith(TRIGRAM_TABLE) else FTS_TABLE)
        for table in sorted(stale):
            _reindex_sqlite(cursor, table)
    if repaired:
        # Expected after any migration that rebuilds the pool table on SQLite (a fresh
        # database runs several): information, not a warning.
        logger.info("full-text index rebuilt after a table change: %s", ", ".join(repaired))
    return repaired
