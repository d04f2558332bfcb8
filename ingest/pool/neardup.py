"""Near-duplicate clusters by simhash (SPEC §4.4, seed 003 §6).

A body's fingerprint is a 64-bit simhash over 2-word shingles of its normalized text (NFKC,
case-folded, punctuation dropped; each Chinese or Japanese character counts as a word, since
those scripts put no spaces between words). Each shingle is hashed with blake2b; bit j of the
fingerprint is set when most shingles have bit j set. Bodies within Hamming distance
MAX_DISTANCE (3) of each other are near-duplicates: wire copies, reposts, light edits.

Lookups are indexed, never pairwise. A fingerprint is also stored as four 16-bit bands
(`SimhashBand`); two fingerprints within distance 3 differ in at most three bands, so by
pigeonhole they agree exactly on at least one — an indexed equality match on (band, value).
Candidates are the items sharing a band value with the new fingerprint (a handful, whatever
the pool's size); their real distance is checked here. One query finds the candidates of a
whole batch.

What is fingerprinted: at ingest, the title and plain-text summary every feed entry has
(`body_text`); once full text is extracted, that text (`place`). Membership is sticky: a
fingerprint that changes (full text arriving) moves the item's bands and may join it to more
items, but never takes it out of a cluster it joined on earlier evidence. Cluster ids, winners
and statuses are settled in ingest/pool/dedup.py, shared with soft (title) dedup.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Collection, Mapping
from hashlib import blake2b
from itertools import pairwise

from django.db import connection, transaction

from ingest.models import ContentItem, SimhashBand
from ingest.pool import bulk, dedup

BITS = 64
BANDS = 4
BAND_BITS = BITS // BANDS
BAND_MASK = (1 << BAND_BITS) - 1
MAX_DISTANCE = 3
# Short texts are not fingerprinted: in a templated line ("ZMR was newly added and is Broken")
# the one word that matters is too small a share of the features, and a feed of hundreds of
# such items produces chance matches. A fifth of feed entries (headline-only feeds) fall below
# this; soft dedup still covers them, and their full text once extracted.
MIN_WORDS = 20
# Bounds the work on very long texts; the first 20,000 words decide whether two are copies.
MAX_WORDS = 20_000

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORD = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+")


def words(text: str) -> list[str]:
    """Normalized words of `text`: width and case folded, punctuation and underscores dropped."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    return _WORD.findall(text.casefold())


def fingerprint(text: str) -> int | None:
    """The 64-bit simhash of `text` (unsigned), or None when it has fewer than MIN_WORDS
    words."""
    tokens = words(text)
    if len(tokens) < MIN_WORDS:
        return None
    del tokens[MAX_WORDS:]
    # Word pairs rather than triples: a changed word changes two features instead of three,
    # so light edits stay within 3 bits more often (tests/bench/neardup.py measures the rates).
    # Each word encoded once; "a b" encodes to the same bytes as a + b" " + b.
    encoded = [token.encode("utf-8", "surrogatepass") for token in tokens]
    digests = b"".join(
        [blake2b(b"%s %s" % pair, digest_size=8).digest() for pair in pairwise(encoded)]
    )
    return _majority_bits(digests)


def _majority_bits(digests: bytes) -> int:
    """Bit j (byte j // 8, bit j % 8 of each 8-byte digest) is set when more than half of the
    digests have it set. Counted a byte column and a bit at a time: one byte of every digest
    read as one integer, a mask keeping bit `bit` of each of its bytes, and `int.bit_count()`
    counting them, all in C (a Python loop over every bit of every shingle cost ten times more,
    bytes.translate and count per bit three times more)."""
    count = len(digests) // 8
    every_byte = int.from_bytes(b"\x01" * count, "little")
    value = 0
    for byte in range(8):
        column = int.from_bytes(digests[byte::8], "little")
        for bit in range(8):
            if 2 * ((column >> bit) & every_byte).bit_count() > count:
                value |= 1 << (8 * byte + bit)
    return value


def body_text(title: str, description: str) -> str:
    """What is fingerprinted before full text exists: the title and the plain-text summary."""
    return f"{title}\n{description}"


def to_signed(value: int | None) -> int | None:
    """A 64-bit fingerprint as the signed BIGINT the database stores."""
    if value is None:
        return None
    return value - (1 << BITS) if value >= 1 << (BITS - 1) else value


def to_unsigned(value: int | None) -> int | None:
    if value is None:
        return None
    return value + (1 << BITS) if value < 0 else value


def band_values(value: int) -> list[int]:
    """The four 16-bit bands of an unsigned fingerprint, band 0 the lowest bits."""
    return [(value >> (BAND_BITS * band)) & BAND_MASK for band in range(BANDS)]


def distance(a: int, b: int) -> int:
    """Hamming distance of two fingerprints (signed or unsigned)."""
    return ((a ^ b) & ((1 << BITS) - 1)).bit_count()


def is_near(a: int, b: int) -> bool:
    return distance(a, b) <= MAX_DISTANCE


# --- the database side ----------------------------------------------------------------------


def store_bands(fingerprints: Mapping[int, int | None], *, replace: Collection[int] = ()) -> None:
    """Write the bands of `fingerprints` (item id -> unsigned fingerprint, None for none).
    The items of `replace` may have bands already, which are removed first. One INSERT for
    the whole batch (plus one DELETE when replacing)."""
    if replace:
        SimhashBand.objects.filter(item_id__in=list(replace)).delete()
    rows = band_rows(fingerprints)
    if rows:
        _insert_bands(rows)


def band_rows(fingerprints: Mapping[int, int | None]) -> bulk.Rows:
    """The rows of `fingerprints`' bands, for bulk.insert_rows() (store_bands() writes them;
    a refresh writes them with its sightings, in one statement)."""
    return bulk.Rows(
        SimhashBand._meta.db_table,
        ["item_id", "band", "value"],
        ["bigint[]", "smallint[]", "integer[]"],
        [
            (item_id, band, value)
            for item_id, fp in fingerprints.items()
            if fp is not None
            for band, value in enumerate(band_values(fp))
        ],
    )


def _insert_bands(rows: bulk.Rows) -> None:
    bulk.insert_rows(rows.table, rows.columns, rows.pg_array_types, rows.rows)


def near_matches(fingerprints: Mapping[int, int | None]) -> list[tuple[int, int]]:
    """Pairs (item id, id of another item within MAX_DISTANCE) for the items of
    `fingerprints`, whose bands must already be stored: items of the same batch find each
    other too. One indexed query, whatever the size of the batch or of the pool."""
    wanted = {item_id: fp for item_id, fp in fingerprints.items() if fp is not None}
    if not wanted:
        return []
    by_band: list[set[int]] = [set() for _ in range(BANDS)]
    for fp in wanted.values():
        for band, value in enumerate(band_values(fp)):
            by_band[band].add(value)
    owners: dict[tuple[int, int], list[int]] = {}
    for item_id, fp in wanted.items():
        for key in enumerate(band_values(fp)):
            owners.setdefault(key, []).append(item_id)
    pairs: set[tuple[int, int]] = set()
    for candidate_id, band, value, stored in _band_candidates(by_band):
        if stored is None:
            continue
        for item_id in owners.get((band, value), ()):
            if item_id != candidate_id and is_near(wanted[item_id], stored):
                pairs.add((item_id, candidate_id))
    return sorted(pairs)


def _band_candidates(by_band: list[set[int]]) -> list[tuple[int, int, int, int | None]]:
    """(item id, band, value, item's simhash) of every stored band equal to a wanted one."""
    band_table = SimhashBand._meta.db_table
    item_table = ContentItem._meta.db_table
    if connection.vendor == "postgresql":
        # One list of (band, value) pairs joined to the (band, value) index: the planner
        # walks the index once per pair, or hashes the table once the batch is a sizeable
        # share of it; both cheaper than a scan per band of `value = ANY(...)`.
        pairs = sorted((band, value) for band, values in enumerate(by_band) for value in values)
        with bulk.binary_cursor() as cursor:
            cursor.execute(
                "SELECT b.item_id, b.band, b.value, i.simhash "  # noqa: S608 - constant names
                "FROM unnest(%b::smallint[], %b::integer[]) AS wanted(band, value) "
                f"JOIN {band_table} b ON b.band = wanted.band AND b.value = wanted.value "
                f"JOIN {item_table} i ON i.id = b.item_id",
                [[band for band, _value in pairs], [value for _band, value in pairs]],
            )
            return cursor.fetchall()
    # SQLite: one branch per band, each an equality walk of the (band, value) index.
    branches, arguments = [], []
    for band, values in enumerate(by_band):
        if values:
            branches.append(
                f"SELECT b.item_id, b.band, b.value, i.simhash FROM {band_table} b "  # noqa: S608
                f"JOIN {item_table} i ON i.id = b.item_id WHERE b.band = %s "
                "AND b.value IN (SELECT value FROM json_each(%s))"
            )
            arguments += [band, json.dumps(sorted(values))]
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(branches), arguments)
        return cursor.fetchall()


def place_batch(
    fingerprints: Mapping[int, int | None], *, replace: Collection[int] = ()
) -> dict[int, tuple[int, str]]:
    """Store the bands of a batch of items and cluster them with their near-duplicates
    (already in the pool or in the batch). Returns dedup.resolve_clusters()'s changes."""
    store_bands(fingerprints, replace=replace)
    return dedup.resolve_clusters(near_matches(fingerprints))


def place(item: ContentItem, text: str) -> None:
    """Fingerprint `item` by `text` (its full text, just stored), move its bands, and join or
    found its cluster, picking the cluster's winner again. Called by the extraction code inside
    its transaction; `item.simhash`, `cluster_id` and `status` are updated in memory too.
    A constant number of queries: none when the fingerprint is unchanged, four when it finds
    no near-duplicate, six when it does."""
    value = fingerprint(text)
    if value is None:
        value = fingerprint(body_text(item.title, item.description))
    signed = to_signed(value)
    if signed == item.simhash:
        return
    with transaction.atomic():
        ContentItem.objects.filter(pk=item.pk).update(simhash=signed)
        item.simhash = signed
        changes = place_batch({item.pk: value}, replace=[item.pk])
    if item.pk in changes:
        item.cluster_id, item.status = changes[item.pk]
