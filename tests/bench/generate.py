"""Synthetic data for the digest-engine benchmarks: a content pool with realistic text lengths
and term frequencies, and subscriptions in bulk. Loaded by `load_rows`: COPY on PostgreSQL and
`executemany` on SQLite (the SQLite full-text triggers still index every row as it lands), with
the columns and their defaults derived from the model, so a field added later needs no change
here.

Text is stitched from a bank of generated sentences, so 1M items take seconds to make, word
frequencies stay natural, and interest terms occur at known rates: popular ones in ~2 % of
items, rare ones in ~0.2 %. About 3 % of the items are Chinese.
"""

# SQL here is built from constant identifiers and %s placeholders only.
# ruff: noqa: S608

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache

from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.utils import timezone

from digests.models import Subscription
from ingest.models import ContentItem, ContentItemSource, Source
from ingest.pool import bulk

SOURCES = 50
POOL_DAYS = 30
BATCH = 20_000
SEED = 20261122

# (term, share of the English items that mention it)
LATIN_TERMS = {
    "security": 0.03,
    "PostgreSQL": 0.02,
    "machine learning": 0.02,
    "Python": 0.02,
    "startup": 0.02,
    "Kubernetes": 0.015,
    "Apple": 0.015,
    "Rust": 0.01,
    "OpenAI": 0.01,
    "Linux": 0.01,
    "climate": 0.01,
    "privacy": 0.008,
    "semiconductor": 0.005,
    "SQLite": 0.004,
    "WebAssembly": 0.003,
    "quantum computing": 0.002,
}
CJK_TERMS = {"人工智能": 0.2, "芯片": 0.15, "自动驾驶": 0.05}
CJK_SHARE = 0.03

_SYLLABLES = tuple(c + v for c in "bdfgklmnprstvz" for v in ("a", "e", "i", "o", "u", "ar", "en"))
_COMMON = (
    "the",
    "of",
    "and",
    "to",
    "in",
    "a",
    "is",
    "that",
    "for",
    "it",
    "as",
    "was",
    "with",
    "be",
    "by",
    "on",
    "not",
    "he",
    "this",
    "are",
    "or",
    "his",
    "from",
    "at",
    "which",
    "but",
    "have",
    "an",
    "they",
    "you",
    "were",
    "her",
    "she",
    "there",
    "been",
    "one",
    "all",
    "we",
    "their",
    "has",
    "would",
    "more",
    "if",
    "new",
    "will",
    "about",
    "into",
    "after",
    "over",
    "year",
    "people",
    "report",
    "data",
    "system",
    "update",
    "release",
    "company",
    "market",
    "team",
    "users",
    "open",
    "first",
    "state",
    "public",
    "world",
    "group",
    "study",
    "city",
    "said",
    "today",
    "week",
)
_CJK_CHARS = (
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动"
    "同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自"
    "二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日"
    "那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变"
    "条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总"
    "次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指"
    "几九区强放决西被干做必战先回则任取据处理府研质"
)
_PUNCT_CJK = "，。"


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(1, 3)))


def _sentence(rng: random.Random, vocabulary: list[str], weights: list[float]) -> str:
    words = rng.choices(vocabulary, cum_weights=weights, k=rng.randint(6, 16))
    return " ".join(words).capitalize() + "."


def _cjk_sentence(rng: random.Random) -> str:
    return "".join(rng.choices(_CJK_CHARS, k=rng.randint(12, 30))) + rng.choice(_PUNCT_CJK)


class TextBank:
    """Sentences to stitch titles and descriptions from, plus interest-term injection."""

    def __init__(self, seed: int = SEED):
        rng = random.Random(seed)
        vocabulary = [*_COMMON, *(_word(rng) for _ in range(8000))]
        weights, total = [], 0.0
        for rank in range(len(vocabulary)):
            total += 1.0 / (rank + 10)  # Zipf-like
            weights.append(total)
        self.sentences = [_sentence(rng, vocabulary, weights) for _ in range(40_000)]
        self.cjk_sentences = [_cjk_sentence(rng) for _ in range(4_000)]
        self.latin_terms = list(LATIN_TERMS)
        self.latin_cum = _cumulative(LATIN_TERMS.values())
        self.cjk_terms = list(CJK_TERMS)
        self.cjk_cum = _cumulative(CJK_TERMS.values())

    def text(self, rng: random.Random) -> tuple[str, str]:
        if rng.random() < CJK_SHARE:
            sentences, terms, cum, space = self.cjk_sentences, self.cjk_terms, self.cjk_cum, ""
            title_range, description_range = (15, 40), (80, 250)
        else:
            sentences, terms, cum, space = self.sentences, self.latin_terms, self.latin_cum, " "
            title_range, description_range = (40, 120), (200, 600)
        title = _stitch(rng, sentences, rng.randint(*title_range), space).rstrip(".。，")
        description = _stitch(rng, sentences, rng.randint(*description_range), space)
        if rng.random() < cum[-1]:
            term = rng.choices(terms, cum_weights=cum)[0]
            if rng.random() < 0.4:
                title = _insert(rng, title, term, space, within=title_range[0] // 2)
                title = _cut(title, title_range[1], space)
            else:
                description = _insert(rng, description, term, space, within=len(description) // 2)
        return title, description


def _insert(rng: random.Random, text: str, term: str, space: str, *, within: int) -> str:
    """`term` at a word boundary in the first `within` characters of `text`."""
    at = rng.randint(0, max(0, within))
    if space:
        at = text.rfind(space, 0, at) + 1  # 0 when there is no earlier space
        return text[:at] + term + space + text[at:]
    return text[:at] + term + text[at:]


def _cut(text: str, length: int, space: str) -> str:
    if len(text) <= length:
        return text
    cut = text.rfind(space, 0, length) if space else length
    return text[: cut if cut > length // 2 else length]


def _cumulative(values) -> list[float]:
    out, total = [], 0.0
    for value in values:
        total += value
        out.append(total)
    return out


def _stitch(rng: random.Random, sentences: list[str], length: int, space: str) -> str:
    parts, size = [], 0
    while size < length:
        sentence = rng.choice(sentences)
        parts.append(sentence)
        size += len(sentence) + len(space)
    return _cut(space.join(parts), length, space)


def make_sources(count: int = SOURCES) -> list[Source]:
    return Source.objects.bulk_create(
        Source(
            type=Source.Type.FEED,
            config={"url": f"https://source{n}.example/feed.xml"},
            config_hash=hashlib.sha256(f"bench-source-{n}".encode()).hexdigest(),
            url=f"https://source{n}.example/feed.xml",
            title=f"Source {n}",
        )
        for n in range(count)
    )


def _rows(
    first_id: int, count: int, sources: list[Source], now: datetime, bank: TextBank
) -> Iterator[tuple[dict, list[dict]]]:
    rng = random.Random(SEED + first_id)
    source_cum = _cumulative(1.0 / (n + 3) for n in range(len(sources)))  # a few big sources
    span = POOL_DAYS * 86400
    for item_id in range(first_id, first_id + count):
        title, description = bank.text(rng)
        source = rng.choices(sources, cum_weights=source_cum)[0]
        first_seen = now - timedelta(seconds=rng.random() * span)
        published = first_seen - timedelta(seconds=rng.random() * 7200)
        url = f"https://source{source.pk}.example/posts/{item_id}"
        item = {
            "id": item_id,
            "canonical_url": url,
            "canonical_url_hash": hashlib.sha256(url.encode()).hexdigest(),
            "title": title,
            "normalized_title": title.lower()[:500],
            "description": description,
            "content_html": f"<p>{description}</p>",
            "site_name": source.title,
            "published_at": None if rng.random() < 0.05 else published,
            "content_hash": hashlib.sha256(description.encode()).hexdigest(),
            "score_impact": rng.randint(30, 80),
            "score_quality": rng.randint(30, 90),
            "first_seen_at": first_seen,
            "last_seen_at": first_seen,
            "last_fetched_at": first_seen,
            "status": "filtered" if rng.random() < 0.02 else "active",
        }
        seen = {"item_id": item_id, "entry_id": url, "first_seen_at": first_seen}
        sightings = [{**seen, "source_id": source.pk}]
        if rng.random() < 0.05:
            other = rng.choice(sources)
            if other.pk != source.pk:
                sightings.append({**seen, "source_id": other.pk})
        yield item, sightings


def add_items(count: int, *, sources: list[Source], now: datetime, bank: TextBank) -> None:
    """Append `count` items spread over the POOL_DAYS before `now`, each seen by one source
    (5 % by two)."""
    first_id = (ContentItem.objects.order_by("-id").values_list("id", flat=True).first() or 0) + 1
    rows = _rows(first_id, count, sources, now, bank)
    while True:
        items, sightings = [], []
        for item, seen in rows:
            items.append(item)
            sightings.extend(seen)
            if len(items) == BATCH:
                break
        if not items:
            break
        load_rows(ContentItem, items)
        load_rows(ContentItemSource, sightings)


@dataclass(frozen=True)
class _Column:
    name: str  # the database column
    attname: str  # the key in a row dict
    kind: str  # "plain", "datetime" or "json"
    default: object  # when a row leaves the field out
    encoder: type[json.JSONEncoder] | None = None


_REQUIRED, _NOW = object(), object()


def _default(field: models.Field) -> object:
    """What a row that leaves `field` out stores: the model's default, as the ORM would."""
    if field.has_default():
        return field.get_default()
    if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
        return _NOW
    if field.null:
        return None
    if field.empty_strings_allowed:
        return ""
    return _REQUIRED


@cache
def _columns(model: type[models.Model], given: frozenset[str]) -> tuple[_Column, ...]:
    """Every stored column of `model`, derived from its concrete fields, so that a field added
    to the model later reaches the benchmarks' bulk loads with its default. The primary key is
    written only when the rows give it; a column the database fills itself (db_default,
    generated) only then too."""
    fields = {field.attname: field for field in model._meta.concrete_fields}
    unknown = given - set(fields)
    if unknown:
        raise ValueError(f"{model.__name__} has no field {', '.join(sorted(unknown))}")
    columns = []
    for attname, field in fields.items():
        by_database = (
            field.primary_key
            or getattr(field, "generated", False)
            or field.db_default is not models.NOT_PROVIDED
        )
        if attname not in given and by_database:
            continue
        default = None if attname in given else _default(field)
        if default is _REQUIRED:
            raise ValueError(
                f"{model.__name__}.{field.name} has no default: the benchmark's rows must give it"
            )
        kind = bulk.value_kind(field)
        encoder = getattr(field, "encoder", None)
        columns.append(_Column(field.column, attname, kind, default, encoder))
    return tuple(columns)


def _adapter(column: _Column):
    if column.kind == "json":  # None is SQL NULL, as the ORM stores it
        return lambda value: None if value is None else json.dumps(value, cls=column.encoder)
    if column.kind == "datetime" and connection.vendor != "postgresql":
        return connection.ops.adapt_datetimefield_value
    return None


def load_rows(model: type[models.Model], rows: list[dict]) -> None:
    """INSERT `rows` (dicts by attname, e.g. "owner_id", all with the keys of the first) into
    `model`'s table in bulk: COPY on PostgreSQL, executemany on SQLite (its full-text triggers
    still index every row as it lands). Fields a row leaves out get the model's default; one
    without a default fails here, by name. Rows that give ids move the id sequence past them."""
    if not rows:
        return
    columns = _columns(model, frozenset(rows[0]))
    now = timezone.now()
    getters = []
    for column in columns:
        adapt = _adapter(column) or (lambda value: value)
        default = now if column.default is _NOW else column.default
        getters.append((column.attname, adapt, adapt(default)))
    values = [
        tuple(adapt(row[key]) if key in row else default for key, adapt, default in getters)
        for row in rows
    ]
    table, names = model._meta.db_table, ", ".join(column.name for column in columns)
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in values:
                    copy.write_row(row)
        else:
            cursor.executemany(
                f"INSERT INTO {table} ({names}) VALUES ({', '.join(['%s'] * len(columns))})",
                values,
            )
        if model._meta.pk.attname in rows[0]:
            for sql in connection.ops.sequence_reset_sql(no_style(), [model]):
                cursor.execute(sql)


def analyze() -> None:
    """What autovacuum does after a bulk load on PostgreSQL (statistics, visibility map) and
    `PRAGMA optimize` on SQLite: a database in its steady state."""
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")


CRONS = ("0 8 * * *", "30 7 * * 1-5", "0 9 * * 1", "0 */6 * * *", "15 18 * * *", "0 7 * * *")
ZONES = (
    "UTC",
    "Europe/Berlin",
    "America/New_York",
    "Asia/Shanghai",
    "Asia/Seoul",
    "Europe/London",
    "America/Los_Angeles",
    "Australia/Sydney",
    "Asia/Kolkata",
    "America/Sao_Paulo",
)


def add_subscriptions(count: int, *, owner_ids: list[int], now: datetime, schedule, seed=SEED):
    """Bulk subscriptions; `schedule(index, rng)` returns each one's (cron, timezone,
    next_run_at), next_run_at None meaning paused. Every other field has the model's default."""
    rng = random.Random(seed + count)
    terms = list(LATIN_TERMS)
    rows = []
    for index in range(count):
        cron, zone, next_run_at = schedule(index, rng)
        rows.append(
            {
                "owner_id": owner_ids[index % len(owner_ids)],
                "name": f"Subscription {index}",
                "interests": rng.sample(terms, rng.randint(1, 3)),
                "cron": cron,
                "timezone": zone,
                "status": "active" if next_run_at else "paused",
                "next_run_at": next_run_at,
                "created_at": now,
                "updated_at": now,
            }
        )
        if len(rows) == BATCH:
            load_rows(Subscription, rows)
            rows = []
    load_rows(Subscription, rows)
