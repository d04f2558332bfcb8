"""Near-duplicate clusters (SPEC §4.4, seed 003 §6): simhash of the body, Hamming distance <= 3
-> one cluster, the winner by source priority then first sight, the rest filtered but kept.
Soft (same title within 48 h) dedup shares the clusters. Runs on SQLite and on PostgreSQL
(DATABASE_URL)."""

from __future__ import annotations

import hashlib
import itertools
import random
from datetime import timedelta

import pytest
from django.db import connection

from ingest.canonical import url_hash
from ingest.models import ContentItem, SimhashBand, Source
from ingest.pool import neardup
from ingest.pool.entries import ParsedEntry
from ingest.pool.search_index import search_pool
from ingest.pool.upsert import upsert_entries
from tests.factories import add_item

TITLE = "Storm closes three northern ports, strands cargo ships"
STORY = (
    "Harbour authorities closed three container ports along the northern coast on Tuesday as "
    "a late-season storm pushed waves of up to nine metres against the breakwaters, stranding "
    "dozens of cargo ships offshore and forcing ferry operators to cancel every crossing until "
    "at least Thursday morning. The national weather service said the storm, which formed "
    "unusually far south for November, was moving slowly and would bring sustained winds of "
    "110 kilometres an hour to coastal towns overnight. Emergency crews evacuated about 2,400 "
    "residents from low-lying districts near the river mouth, where flooding in 2019 destroyed "
    "hundreds of homes. Schools in four municipalities will stay shut on Wednesday. "
    "Port operators warned that the closure would delay deliveries of fuel and grain already "
    "running behind schedule after a strike last month, and that congestion could take a week "
    "to clear once the ships are allowed back in. A spokeswoman for the largest terminal said "
    "cranes had been secured and that no damage had been reported so far, but that inspectors "
    "would need daylight to check the quays. The transport minister, speaking in the capital, "
    "said the government would cover overtime for customs staff so that inspections could run "
    "around the clock when the ports reopen. Fishing communities further east were also told "
    "to keep boats in harbour. Meteorologists said the storm was likely to weaken as it moved "
    "inland on Thursday, but heavy rain could still cause landslides in the hills above the "
    "coast, where the ground is already saturated after weeks of wet weather."
)
PARK = (
    "The city council approved a plan on Monday to turn a disused railway line into a "
    "seven-kilometre park with cycle paths, allotments and a covered market, ending a decade "
    "of debate over the future of the site. Supporters said the project would give residents "
    "of the crowded eastern districts their first large green space, while opponents argued "
    "that the land should have been used for housing at a time when rents are rising faster "
    "than wages. The first section, between the old goods yard and the canal, is due to open "
    "in the spring of 2028. Construction will cost about 85 million, most of it paid for by "
    "the regional government, and the council expects the market to cover its own running "
    "costs within five years."
)
FERRIES = (
    "Ferry services between the islands resumed on Friday after three days of cancellations, "
    "but port officials said the backlog of freight would take at least a week to clear and "
    "asked shippers to book slots in advance. The storm that closed the northern ports earlier "
    "this week weakened over land, leaving flooded roads and fallen trees in several coastal "
    "towns but no reported casualties. Grain importers warned of higher prices in the coming "
    "weeks as delayed cargo ships finally unload."
)
CHINESE = (
    "北部沿海三个集装箱港口周二因一场晚季风暴而关闭，高达九米的海浪冲击防波堤，数十艘货船滞留海上，"
    "渡轮运营商取消了周四上午之前的所有航班。气象部门表示，这场风暴移动缓慢，今晚将给沿海城镇带来"
    "每小时一百一十公里的持续大风。应急人员已从河口附近的低洼地区疏散了约两千四百名居民。"
)
CHINESE_PARK = (
    "城市议会周一批准了一项计划，将一条废弃的铁路线改造成一个七公里长的公园，设有自行车道、菜园和一个"
    "有顶棚的市场，结束了围绕该地块未来长达十年的争论。支持者表示，该项目将为拥挤的东部地区居民提供"
    "第一个大型绿地。"
)
COUNTER = itertools.count()


def source(priority: int = 0) -> Source:
    n = next(COUNTER)
    return Source.objects.create(
        type=Source.Type.FEED,
        config={"file": f"feed-{n}.xml"},
        config_hash=f"neardup-{n}",
        title=f"Feed {n}",
        priority=priority,
    )


def entry(title: str, description: str, *, slug: str | None = None) -> ParsedEntry:
    url = f"https://news.example/{slug or url_hash(title + description)[:16]}"
    return ParsedEntry(
        url=url,
        entry_id=url,
        title=title,
        description=description,
        content_html="",
        author="",
        published_at=None,
    )


def ingest(src: Source, *entries: ParsedEntry, now) -> list[ContentItem]:
    upsert_entries(src, list(entries), now=now)
    urls = [e.url for e in entries]
    return list(ContentItem.objects.filter(canonical_url__in=urls).order_by("id"))


def fresh(item: ContentItem) -> ContentItem:
    return ContentItem.objects.get(pk=item.pk)


def crafted(fingerprint: int, *, now, title: str = "") -> ContentItem:
    """A pool item placed with a given fingerprint (fingerprint-level tests)."""
    item = add_item(title or f"Crafted {next(COUNTER)}", now=now)
    ContentItem.objects.filter(pk=item.pk).update(simhash=neardup.to_signed(fingerprint))
    neardup.place_batch({item.pk: fingerprint})
    return fresh(item)


# --- fingerprints ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("case", "title", "body", "near"),
    [
        (
            "case, spacing and quotes",
            TITLE.upper(),
            STORY.replace(" ", "  ").replace("'", "’"),
            True,
        ),
        ("full-width characters", TITLE, STORY.replace("Tuesday", "Ｔｕｅｓｄａｙ"), True),
        ("a site suffix on the title", TITLE + " - Daily Herald", STORY, True),
        ("one word changed", TITLE, STORY.replace("about 2,400", "nearly 2,400"), True),
        ("a typo", TITLE, STORY.replace("unusually", "unusualy"), True),
        ("an update", TITLE, STORY.replace("Thursday morning", "Thursday afternoon"), True),
        (
            "two words changed",
            TITLE,
            STORY.replace("about 2,400", "nearly 2,400").replace("Wednesday", "Thursday"),
            True,
        ),
        ("another story", "City approves railway park plan", PARK, False),
        ("another story on the same topic", "Ferries resume after storm", FERRIES, False),
        ("the story cut to its first half", TITLE, STORY[: len(STORY) // 2], False),
    ],
)
def test_wire_copies_are_near_and_other_stories_are_not(case, title, body, near):
    original = neardup.fingerprint(neardup.body_text(TITLE, STORY))
    copy = neardup.fingerprint(neardup.body_text(title, body))
    assert neardup.is_near(original, copy) is near, (case, neardup.distance(original, copy))


def test_chinese_is_fingerprinted_character_by_character():
    original = neardup.fingerprint(CHINESE)
    edited = neardup.fingerprint(CHINESE.replace("周二", "周三"))
    assert neardup.words("周二因")[:3] == ["周", "二", "因"]
    assert neardup.is_near(original, edited)
    assert not neardup.is_near(original, neardup.fingerprint(CHINESE_PARK))


def test_short_texts_get_no_fingerprint():
    assert neardup.fingerprint("ZMR was newly added and is Broken") is None
    assert neardup.fingerprint("") is None
    assert neardup.fingerprint(STORY) is not None


def _reference_simhash(text: str) -> int:
    """The fingerprint as the module's docstring defines it, one bit of one shingle at a time:
    stored fingerprints must stay comparable whatever the implementation does for speed."""
    tokens = neardup.words(text)[: neardup.MAX_WORDS]
    shingles = [f"{a} {b}".encode("utf-8", "surrogatepass") for a, b in itertools.pairwise(tokens)]
    digests = [hashlib.blake2b(shingle, digest_size=8).digest() for shingle in shingles]
    value = 0
    for bit in range(64):
        ones = sum((digest[bit // 8] >> (bit % 8)) & 1 for digest in digests)
        if 2 * ones > len(digests):
            value |= 1 << bit
    return value


@pytest.mark.parametrize(
    "text",
    [
        STORY,
        TITLE + "\n" + STORY[:400],
        CHINESE,
        # 21 words: 20 shingles, so a bit set in exactly half of them must stay clear.
        " ".join(f"word{n}" for n in range(21)),
        "Ünïcödé ﬁligree, ＦＵＬＬ width and a lone \ud800 surrogate " * 4,
        "tick " * 25_000,  # beyond MAX_WORDS
    ],
)
def test_the_fingerprint_is_the_majority_of_shingle_hash_bits(text):
    assert neardup.fingerprint(text) == _reference_simhash(text)


def test_a_stored_fingerprint_keeps_its_value():
    # A change here would make every stored fingerprint incomparable with new ones.
    assert neardup.fingerprint(neardup.body_text(TITLE, STORY)) == 0xD0B154F00952EB69


@pytest.mark.parametrize("value", [0, 1, (1 << 63) - 1, 1 << 63, (1 << 64) - 1])
def test_fingerprints_round_trip_through_the_signed_column(value):
    signed = neardup.to_signed(value)
    assert -(1 << 63) <= signed < 1 << 63
    assert neardup.to_unsigned(signed) == value


# --- the indexed lookup: distance 3 clusters, 4 does not --------------------------------------

BASE = 0x0123_4567_89AB_CDEF


@pytest.mark.parametrize(
    ("flipped_bits", "clusters"),
    [
        ((), True),  # the same fingerprint
        ((0, 1, 2), True),  # 3 bits, all in band 0: bands 1-3 still match
        ((0, 17, 40), True),  # 3 bits in bands 0, 1, 2: only band 3 matches (pigeonhole)
        ((5, 21, 37), True),
        ((0, 1, 2, 3), False),  # 4 bits in one band: a candidate, rejected on its distance
        ((0, 16, 32, 48), False),  # 4 bits, one per band: not even a candidate
        ((0, 1, 16, 17, 32), False),
    ],
)
def test_distance_three_clusters_and_four_does_not(db, now, flipped_bits, clusters):
    first = crafted(BASE, now=now)
    other = BASE
    for bit in flipped_bits:
        other ^= 1 << bit
    assert neardup.distance(BASE, other) == len(flipped_bits)
    second = crafted(other, now=now)
    first = fresh(first)
    if clusters:
        assert first.cluster_id == second.cluster_id == first.pk
        assert (first.status, second.status) == ("active", "filtered")
    else:
        assert first.cluster_id is None and second.cluster_id is None
        assert first.status == second.status == "active"


def test_a_bridging_item_merges_two_clusters_under_one_winner(db, now):
    a1, a2 = crafted(BASE, now=now), crafted(BASE ^ 0b1, now=now)
    far = BASE ^ 0b11_1111  # 6 bits from BASE
    b1 = crafted(far, now=now + timedelta(minutes=1))
    b2 = crafted(far ^ (1 << 60), now=now + timedelta(minutes=1))
    assert fresh(a2).cluster_id == a1.pk and fresh(b2).cluster_id == b1.pk
    bridge = crafted(BASE ^ 0b111, now=now + timedelta(minutes=2))  # 3 from BASE and from far
    rows = {i.pk: (i.cluster_id, i.status) for i in ContentItem.objects.all()}
    assert rows == {
        a1.pk: (a1.pk, "active"),
        a2.pk: (a1.pk, "filtered"),
        b1.pk: (a1.pk, "filtered"),
        b2.pk: (a1.pk, "filtered"),
        bridge.pk: (a1.pk, "filtered"),
    }


# --- clusters at ingest: winner by priority, then first seen ------------------------------------


@pytest.mark.parametrize(
    ("first_priority", "second_priority", "winner"),
    [
        (0, 0, "first"),  # same priority: first seen wins
        (5, 5, "first"),
        (0, 10, "second"),  # a better source's copy takes over
        (10, 0, "first"),
        (-5, 0, "second"),
    ],
)
def test_the_winner_is_the_best_source_then_the_first_seen(
    db, now, first_priority, second_priority, winner
):
    (first,) = ingest(source(first_priority), entry(TITLE, STORY, slug="wire-1"), now=now)
    (second,) = ingest(
        source(second_priority),
        entry(TITLE + " - Daily Herald", STORY, slug="herald"),
        now=now + timedelta(hours=1),
    )
    first, second = fresh(first), fresh(second)
    expected = first if winner == "first" else second
    assert first.cluster_id == second.cluster_id == expected.pk
    assert {first.status, second.status} == {"active", "filtered"}
    assert expected.status == "active"


def test_a_better_copy_joining_later_takes_over_and_statuses_follow(db, now):
    wire = source(0)
    first, second = ingest(
        wire,
        entry(TITLE, STORY, slug="a"),
        entry(TITLE, STORY.replace("about 2,400", "nearly 2,400"), slug="b"),
        now=now,
    )
    assert fresh(second).cluster_id == first.pk
    (best,) = ingest(
        source(20),
        entry(TITLE.upper(), STORY, slug="paper-of-record"),
        now=now + timedelta(hours=3),
    )
    rows = {i.pk: (i.cluster_id, i.status) for i in ContentItem.objects.all()}
    assert rows == {
        first.pk: (best.pk, "filtered"),
        second.pk: (best.pk, "filtered"),
        best.pk: (best.pk, "active"),
    }


def test_a_filtered_copy_carried_by_a_better_source_later_becomes_the_winner(db, now):
    (wire,) = ingest(source(0), entry(TITLE, STORY, slug="wire"), now=now)
    (herald,) = ingest(source(0), entry(TITLE + " - Daily Herald", STORY, slug="herald"), now=now)
    assert (fresh(wire).status, fresh(herald).status) == ("active", "filtered")

    # A better source links the Herald's copy (same URL): that copy now has the best source.
    counts = upsert_entries(
        source(10),
        [entry(TITLE + " - Daily Herald", STORY, slug="herald")],
        now=now + timedelta(hours=1),
    )

    assert (counts.inserted, counts.deduped) == (0, 0)
    rows = {i.pk: (i.cluster_id, i.status) for i in ContentItem.objects.all()}
    assert rows == {wire.pk: (herald.pk, "filtered"), herald.pk: (herald.pk, "active")}


def test_a_filtered_copy_seen_again_by_its_own_source_changes_nothing(
    db, now, django_assert_max_num_queries
):
    wire, herald = source(0), source(0)
    ingest(wire, entry(TITLE, STORY, slug="wire"), now=now)
    ingest(herald, entry(TITLE + " - Daily Herald", STORY, slug="herald"), now=now)
    before = {i.pk: (i.cluster_id, i.status) for i in ContentItem.objects.all()}

    upsert_entries(herald, [entry(TITLE + " - Daily Herald", STORY, slug="herald")], now=now)

    assert {i.pk: (i.cluster_id, i.status) for i in ContentItem.objects.all()} == before


def test_filtered_copies_are_kept_but_are_not_candidates(db, now):
    items = ingest(
        source(),
        entry(TITLE, STORY, slug="one"),
        entry(TITLE, STORY.replace("unusually", "unusualy"), slug="two"),
        entry("City approves railway park plan", PARK, slug="park"),
        now=now,
    )
    assert ContentItem.objects.count() == 3
    assert [i.status for i in items] == ["active", "filtered", "active"]
    assert items[2].cluster_id is None
    found = search_pool(["storm", "railway"], since=now - timedelta(days=1), until=now)
    assert sorted(found) == [items[0].pk, items[2].pk]


def test_copies_in_one_batch_find_each_other_and_count_as_deduped(db, now):
    src = source()
    counts = upsert_entries(
        src,
        [
            entry(TITLE, STORY, slug="x"),
            entry(TITLE + " | Wire", STORY, slug="y"),
            entry("Ferries resume after storm", FERRIES, slug="z"),
        ],
        now=now,
    )
    assert (counts.inserted, counts.deduped) == (3, 1)
    assert ContentItem.objects.filter(status="filtered").count() == 1
    assert SimhashBand.objects.count() == 3 * neardup.BANDS


def test_unrelated_stories_never_cluster(db, now):
    stories = [(TITLE, STORY), ("City approves railway park plan", PARK)]
    stories += [("Ferries resume after storm", FERRIES), ("港口因风暴关闭", CHINESE)]
    ingest(source(), *(entry(t, b) for t, b in stories), now=now)
    assert not ContentItem.objects.exclude(cluster_id=None).exists()
    assert not ContentItem.objects.filter(status="filtered").exists()


# --- full text arriving ------------------------------------------------------------------------


def test_full_text_moves_the_bands_and_can_join_a_cluster(db, now):
    teaser_a, teaser_b = ingest(
        source(),
        entry("Ports shut as storm nears", PARK, slug="teaser-a"),
        entry("Northern ports closed", FERRIES, slug="teaser-b"),
        now=now,
    )
    old_bands = set(SimhashBand.objects.filter(item=teaser_a).values_list("band", "value"))
    neardup.place(teaser_a, STORY)
    assert teaser_a.simhash == neardup.to_signed(neardup.fingerprint(STORY))
    new_bands = set(SimhashBand.objects.filter(item=teaser_a).values_list("band", "value"))
    assert new_bands == set(enumerate(neardup.band_values(neardup.fingerprint(STORY))))
    assert new_bands != old_bands
    assert fresh(teaser_a).cluster_id is None

    neardup.place(teaser_b, STORY.replace("Wednesday", "Thursday"))
    assert (teaser_b.cluster_id, teaser_b.status) == (teaser_a.pk, "filtered")
    assert (fresh(teaser_b).cluster_id, fresh(teaser_b).status) == (teaser_a.pk, "filtered")
    assert fresh(teaser_a).cluster_id == teaser_a.pk


def test_a_changed_summary_is_fingerprinted_again(db, now):
    src = source()
    (item,) = ingest(src, entry("Ports shut as storm nears", PARK, slug="s"), now=now)
    ingest(src, entry("Ports shut as storm nears", STORY, slug="s"), now=now + timedelta(hours=1))
    expected = neardup.fingerprint(neardup.body_text("Ports shut as storm nears", STORY))
    assert fresh(item).simhash == neardup.to_signed(expected)
    assert set(SimhashBand.objects.filter(item=item).values_list("band", "value")) == set(
        enumerate(neardup.band_values(expected))
    )


# --- soft dedup (same title within 48 h) shares the clusters ----------------------------------


@pytest.mark.parametrize(
    ("title_a", "title_b", "hours_apart", "clustered"),
    [
        ("Apple unveils new MacBook Pro", "Apple unveils new MacBook Pro - The Verge", 3, True),
        ("Apple unveils new MacBook Pro", "ＡＰＰＬＥ unveils new MacBook Pro [Update]", 47, True),
        ("Apple unveils new MacBook Pro", "Apple unveils new MacBook Pro", 49, False),
        ("Update", "Update", 1, False),  # too short to compare titles
    ],
)
def test_same_title_within_48_hours_is_a_soft_duplicate(
    db, now, title_a, title_b, hours_apart, clustered
):
    (a,) = ingest(source(), entry(title_a, "Short teaser.", slug="a"), now=now)
    later = now + timedelta(hours=hours_apart)
    (b,) = ingest(source(), entry(title_b, "Another teaser.", slug="b"), now=later)
    a, b = fresh(a), fresh(b)
    if clustered:
        assert (a.cluster_id, a.status, b.cluster_id, b.status) == (
            a.pk,
            "active",
            a.pk,
            "filtered",
        )
    else:
        assert (a.cluster_id, b.cluster_id, b.status) == (None, None, "active")


def test_a_title_seen_inside_a_cluster_joins_that_cluster(db, now):
    low, high = source(0), source(9)
    (first,) = ingest(low, entry("Storm closes northern ports", PARK, slug="1"), now=now)
    (better,) = ingest(high, entry("Ports shut as storm nears", FERRIES, slug="2"), now=now)
    neardup.place(first, STORY)  # full text of both: the same wire story
    neardup.place(better, STORY)
    assert (fresh(first).cluster_id, fresh(first).status) == (better.pk, "filtered")
    later = now + timedelta(hours=2)
    (late,) = ingest(low, entry("Storm closes northern ports", "Teaser.", slug="3"), now=later)
    assert (fresh(late).cluster_id, fresh(late).status) == (better.pk, "filtered")
    assert fresh(better).status == "active"


# --- query counts: constant whatever the size of the pool -------------------------------------


def make_pool(size: int, now) -> None:
    """`size` items with unrelated fingerprints and their bands, written in bulk."""
    start = ContentItem.objects.count()
    ContentItem.objects.bulk_create(
        ContentItem(
            canonical_url=f"https://pool.example/{n}",
            canonical_url_hash=url_hash(f"https://pool.example/{n}"),
            title=f"Pool item {n}",
            first_seen_at=now,
            last_seen_at=now,
            simhash=neardup.to_signed(int.from_bytes(url_hash(str(n)).encode()[:8]) ^ BASE),
        )
        for n in range(start, start + size)
    )
    neardup.store_bands(
        {
            pk: neardup.to_unsigned(value)
            for pk, value in ContentItem.objects.filter(
                canonical_url__startswith="https://pool.example/"
            ).values_list("pk", "simhash")
        },
        replace=list(ContentItem.objects.values_list("pk", flat=True)),
    )


@pytest.mark.parametrize("pool_size", [10, 400])
@pytest.mark.parametrize(("text", "queries"), [(PARK, 2 + 4), (STORY, 2 + 7)])
def test_placing_an_item_costs_the_same_queries_at_any_pool_size(
    db, now, django_assert_num_queries, pool_size, text, queries
):
    """4 queries (simhash, old bands out, new bands in, candidates) without a near-duplicate;
    3 more (cluster members, one UPDATE, the duplicate's score reasons) with one; plus the
    savepoint pair."""
    make_pool(pool_size, now)
    ingest(source(), entry(TITLE, STORY, slug="wire"), now=now)
    item = add_item("Teaser", now=now)
    with django_assert_num_queries(queries):
        neardup.place(item, text)
    assert (fresh(item).cluster_id is not None) == (text == STORY)


@pytest.mark.parametrize("pool_size", [10, 400])
@pytest.mark.parametrize("batch_size", [2, 40])
def test_an_upsert_costs_the_same_queries_at_any_batch_or_pool_size(
    db, now, django_assert_num_queries, pool_size, batch_size
):
    """Existing rows, insert, sightings and bands (one statement on PostgreSQL, two on
    SQLite), near candidates, soft titles (reading levels are rated afterwards, off the ingest
    path); with a duplicate in the batch, 4 more: cluster members, one UPDATE, and the
    duplicate's quality penalty (read the scores, write them)."""
    make_pool(pool_size, now)
    words = PARK.split()
    filler = [
        entry(f"Unrelated headline {n}", " ".join(random.Random(n).sample(words, len(words))))
        for n in range(batch_size - 2)
    ]
    copies = [entry(TITLE, STORY, slug="copy-a"), entry(TITLE + " | Wire", STORY, slug="copy-b")]
    src = source()
    with django_assert_num_queries((5 if connection.vendor == "postgresql" else 6) + 4):
        counts = upsert_entries(src, [*copies, *filler], now=now)
    assert (counts.inserted, counts.deduped) == (batch_size, 1)
    winner, copy = ContentItem.objects.filter(title__startswith=TITLE).order_by("status")
    assert (winner.status, copy.status) == ("active", "filtered")
    assert copy.score_quality < winner.score_quality
    assert "near_duplicate" in [part["part"] for part in copy.score_reasons["quality"]]
