"""The narrative cache's covering level (issue #34): a brief reuses another brief's narrative
only when that narrative was written from items this brief has — never from an item its reader
did not get — with the same lead, options and day, and covering most of its own top stories."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from digests.ai import combination_cache
from digests.ai.combination_cache import combination_key
from digests.models import CombinationCacheCounter, CombinationCacheEntry
from digests.narrative import writer
from tests.digests import fake_anthropic as fake_api
from tests.digests.fake_anthropic import FakeAnthropic


@pytest.fixture
def fake(db):
    with FakeAnthropic.running(LLM_MAX_RETRIES=0) as server:
        yield server


def story(n: int) -> writer.NarrativeItem:
    return writer.NarrativeItem(
        canonical_url_hash=f"{n:064x}",
        content_hash=f"c{n}",
        title=f"Story number {n}",
        url=f"https://news.example/story-{n}",
        summary=f"Story {n} happened.",
        source_name="Eng Weekly",
    )


def brief(*numbers: int) -> list[writer.NarrativeItem]:
    return [story(n) for n in numbers]


def write(items, now):
    return writer.write_narrative(items, title="Brief", locale="en", tone="neutral", now=now)


def sent_urls(request) -> set[str]:
    return {item["url"] for item in request.payload()["items"]}


def body(narrative) -> str:
    return narrative.markdown.split("\n\nSources")[0]


PACK = brief(*range(1, 21))  # 20 stories; the narrative is written from the first 15


def test_two_briefs_whose_narrative_items_differ_by_one_never_share_a_narrative(fake, now):
    # Story 15 in one, story 99 in its place in the other: each has an item the other lacks.
    with_15 = PACK
    with_99 = [*PACK[:14], story(99), *PACK[15:]]
    first, second = write(with_15, now), write(with_99, now)
    # And the other way round, on another day.
    later = now + timedelta(days=1)
    third, fourth = write(with_99, later), write(with_15, later)

    calls = fake.requests_for("write_narrative")
    assert len(calls) == 4
    assert not any(n.cache_hit for n in (first, second, third, fourth))
    assert "https://news.example/story-15" not in sent_urls(calls[1]) | sent_urls(calls[2])
    assert "https://news.example/story-99" not in sent_urls(calls[0]) | sent_urls(calls[3])
    assert CombinationCacheEntry.objects.filter(state="ready", group__gt="").count() == 4


def test_a_brief_missing_one_of_the_narratives_stories_does_not_get_it(fake, now):
    # The same stories but story 7: a narrative written with story 7 is not this reader's.
    write(PACK, now)
    without_7 = [s for s in PACK if s.canonical_url_hash != story(7).canonical_url_hash]
    narrative = write(without_7, now)
    assert len(fake.requests_for("write_narrative")) == 2
    assert narrative.cache_level == ""
    assert "https://news.example/story-7" not in sent_urls(fake.requests_for("write_narrative")[1])


def test_a_brief_with_one_more_story_reuses_the_narrative_it_fully_contains(fake, now):
    # A reader whose extra source placed story 99 14th: every story the pack's narrative was
    # written from is in their brief (the 14th and 15th move to 15th and 16th), and it covers
    # 14 of the 15 stories theirs would be written from.
    pack = write(PACK, now)
    plus_one = [*PACK[:13], story(99), *PACK[13:19]]
    narrative = write(plus_one, now)

    assert len(fake.requests_for("write_narrative")) == 1
    assert (narrative.cache_hit, narrative.cache_level) == (True, "covering")
    assert body(narrative) == body(pack)
    # The reader's own items are listed under Sources, their extra story included.
    assert "https://news.example/story-99" in narrative.markdown.split("\n\nSources")[1]
    counter = CombinationCacheCounter.objects.get(kind="narrative")
    assert (counter.hits, counter.misses) == (1, 1)
    assert counter.tokens_saved > 0


def test_covering_needs_the_same_lead_story(fake, now):
    write(PACK, now)
    narrative = write([story(99), *PACK[:19]], now)
    assert len(fake.requests_for("write_narrative")) == 2
    assert narrative.cache_level == ""


def test_covering_needs_most_of_the_readers_top_stories(fake, now):
    # Five new stories in this brief's top 15: the pack's narrative would cover 10 of them.
    write(PACK, now)
    narrative = write([*PACK[:10], *brief(91, 92, 93, 94, 95), *PACK[10:15]], now)
    assert len(fake.requests_for("write_narrative")) == 2
    assert narrative.cache_level == ""
    # Three new ones (12 of 15 covered, COVER_MIN_SHARE) are still the pack's narrative.
    narrative = write([*PACK[:12], *brief(96, 97, 98), *PACK[12:17]], now)
    assert len(fake.requests_for("write_narrative")) == 2
    assert narrative.cache_level == "covering"


def test_covering_needs_the_same_options_and_day(fake, now):
    write(PACK, now)
    plus_one = [*PACK[:13], story(99), *PACK[13:19]]
    writer.write_narrative(plus_one, title="Brief", locale="en", tone="casual", now=now)
    write(plus_one, now + timedelta(days=1))
    assert len(fake.requests_for("write_narrative")) == 3


def test_the_exact_item_set_comes_before_a_covering_narrative(fake, now):
    plus_one = [*PACK[:13], story(99), *PACK[13:19]]
    own = write(plus_one, now)  # written first: its own narrative, with story 99
    write(PACK, now)  # the pack cannot use it (story 99), so writes its own
    again = write(plus_one, now)
    assert len(fake.requests_for("write_narrative")) == 2
    assert again.cache_level == "item set"
    assert body(again) == body(own)


def test_a_narrative_links_only_to_the_stories_it_was_written_from(fake, now):
    # Links to a story below the top 15 are removed: the narrative may serve a brief without it.
    fake.queue(
        fake_api.tool(
            {
                "narrative_markdown": "[Story number 1](https://news.example/story-1) leads; "
                "see [story 18](https://news.example/story-18).",
                "highlights": [],
            }
        )
    )
    narrative = write(PACK, now)
    assert "[Story number 1](https://news.example/story-1)" in body(narrative)
    assert "story-18" not in body(narrative)


# --- the cache functions ------------------------------------------------------------------

WINDOW = (datetime(2026, 11, 20, tzinfo=UTC), datetime(2026, 11, 21, tzinfo=UTC))
GROUP = combination_key("narrative", inputs=["lead:a"], options={}, window=WINDOW)


def entry(name: str, items: list[str], *, now, group=GROUP, **fields) -> CombinationCacheEntry:
    return CombinationCacheEntry.objects.create(
        key=combination_key("narrative", inputs=[name], options={}, window=WINDOW),
        kind="narrative",
        state=fields.pop("state", "ready"),
        value={"markdown": name},
        inputs={"item_digests": items},
        group=group,
        input_tokens=100,
        output_tokens=50,
        created_at=now,
        expires_at=fields.pop("expires_at", now + timedelta(days=1)),
        **fields,
    )


@pytest.mark.django_db
def test_lookup_covering_takes_the_best_entry_made_only_from_items_the_request_has(now):
    entry("outsider", ["a", "b", "x"], now=now)  # covers most, but x is not the reader's
    entry("two", ["a", "b"], now=now)
    entry("three", ["a", "b", "c"], now=now)
    entry("stale", ["a", "b", "c", "d"], now=now, expires_at=now)
    entry("pending", ["a", "b", "c", "d"], now=now, state="pending")
    entry("elsewhere", ["a", "b", "c", "d"], now=now, group="f" * 64)

    def covering(min_covered):
        return combination_cache.lookup_covering(
            "narrative",
            GROUP,
            have=["a", "b", "c", "d", "e"],
            wanted=["a", "b", "c", "d"],
            min_covered=min_covered,
            now=now,
        )

    found = covering(2)
    assert (found.value, found.hit, found.input_tokens) == ({"markdown": "three"}, True, 100)
    assert covering(4) is None
    counter = CombinationCacheCounter.objects.get(kind="narrative")
    assert (counter.hits, counter.misses, counter.tokens_saved) == (1, 0, 150)


@pytest.mark.django_db
def test_lookup_tells_a_missing_key_from_one_being_computed(now):
    ready = entry("ready", ["a"], now=now)
    pending = entry(
        "pending", ["a"], now=now, state="pending", lease_expires_at=now + timedelta(minutes=1)
    )
    result, computing = combination_cache.lookup("narrative", ready.key, now=now)
    assert (result.value, computing) == ({"markdown": "ready"}, False)
    assert combination_cache.lookup("narrative", pending.key, now=now) == (None, True)
    missing = combination_key("narrative", inputs=["none"], options={}, window=WINDOW)
    assert combination_cache.lookup("narrative", missing, now=now) == (None, False)
    # A claim whose lease ran out is nobody's: a looser level may answer.
    later = now + timedelta(minutes=5)
    assert combination_cache.lookup("narrative", pending.key, now=later) == (None, False)


def test_a_brief_whose_own_narrative_is_being_written_waits_for_it(fake, now, monkeypatch):
    # The pack's narrative covers this brief, but another worker is writing the brief's own:
    # that one is awaited, not replaced by the covering one.
    plus_one = [*PACK[:13], story(99), *PACK[13:19]]
    write(plus_one, now)
    own = CombinationCacheEntry.objects.get(group__gt="")  # the brief's own item set
    write(PACK, now)
    CombinationCacheEntry.objects.filter(pk=own.pk).update(
        state="pending",
        value={"claim": "another-worker"},
        lease_expires_at=now + timedelta(minutes=1),
    )

    def finish(_seconds):
        CombinationCacheEntry.objects.filter(pk=own.pk).update(
            state="ready", value={"markdown": "Written by the other worker.", "model": "m"}
        )

    monkeypatch.setattr(combination_cache.time, "sleep", finish)
    narrative = write(plus_one, now)
    assert narrative.cache_level == "item set"
    assert body(narrative) == "Written by the other worker."
    assert len(fake.requests_for("write_narrative")) == 2
