"""The `relevance` benchmark's measuring parts (tests/bench/relevance_metrics.py) on tiny
collections of their own: which judged item a pool item is, and the figures of a ranked list."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tests.bench import relevance_metrics as metrics

ITEMS = [
    {"id": 0, "feed": "a.xml", "link": "http://www.example.com/posts/1/", "title": "One"},
    {"id": 1, "feed": "a.xml", "link": "https://example.com/p?id=2&utm_source=rss", "title": "Two"},
    {"id": 2, "feed": "a.xml", "link": "", "title": "Episode   12"},
    {"id": 3, "feed": "b.xml", "link": "", "title": "episode 12"},
]


def test_a_link_matches_without_scheme_www_fragment_trailing_slash_or_utm_parameters():
    judged = metrics.JudgedItems.build(ITEMS)

    assert judged.find("https://example.com/posts/1#comments", "") == 0
    assert judged.find("http://example.com/p?id=2", "Two (updated)") == 1
    assert judged.find("https://EXAMPLE.com/p?utm_medium=x&id=2", "") == 1
    assert judged.find("https://example.com/p?id=3", "") is None  # other parameters count


def test_without_a_matching_link_the_folded_title_decides_and_the_same_feed_breaks_a_tie():
    judged = metrics.JudgedItems.build(ITEMS)

    assert judged.find("https://elsewhere.example/one", "  ONE ") == 0
    assert judged.find("https://elsewhere.example/12", "Episode 12", feeds={"b.xml"}) == 3
    assert judged.find("https://elsewhere.example/12", "EPISODE 12") == 2  # no feed: the first
    assert judged.find("https://elsewhere.example/x", "Three") is None


def test_items_sharing_one_link_are_told_apart_by_title():
    # A page's dated entries differ only by fragment; some podcast feeds link every episode
    # to their home page. Each pool item is its own judged item, not the first of them.
    judged = metrics.JudgedItems.build(
        [
            {"id": 7, "feed": "w.xml", "link": "https://w.example/now#2026-01", "title": "Jan"},
            {"id": 8, "feed": "w.xml", "link": "https://w.example/now#2026-02", "title": "Feb"},
            {"id": 9, "feed": "p.rss", "link": "http://podcast.example/", "title": "Episode 9"},
        ]
    )

    assert judged.find("https://w.example/now#2026-02", "Feb") == 8
    assert judged.find("https://w.example/now#2026-01", " jan ") == 7
    assert judged.find("https://w.example/now", "March") == 7  # no title agrees: the first
    assert judged.find("http://podcast.example", "Episode 9") == 9


def test_ndcg_drops_unjudged_items_and_takes_the_ideal_from_every_judged_grade():
    judged_grades = [2, 2, 1, 0, 0]
    ideal = 3 + 3 / math.log2(3) + 1 / math.log2(4)

    assert metrics.ndcg([2, 2, 1], judged_grades) == pytest.approx(1.0)
    # Unjudged items are dropped: the list condenses to [2, 2, 1].
    assert metrics.ndcg([None, 2, None, 2, 1], judged_grades) == pytest.approx(1.0)
    # Gain 2^g − 1: a grade 1 first is worth a third of a grade 2 first.
    assert metrics.ndcg([1], judged_grades) == pytest.approx(1 / ideal)
    assert metrics.ndcg([0, 2], judged_grades) == pytest.approx((3 / math.log2(3)) / ideal)
    assert metrics.ndcg([], judged_grades) == 0.0
    assert metrics.ndcg([None, None], judged_grades) == 0.0


def test_ndcg_counts_ten_places_of_the_condensed_list():
    judged_grades = [2] * 12

    assert metrics.ndcg([2] * 12, judged_grades) == pytest.approx(1.0)
    assert metrics.ndcg([0] * 10 + [2, 2], judged_grades) == 0.0


def test_precision_and_judged_share_count_judged_items_of_what_was_returned():
    returned = [2, None, 1, 0, None]

    assert metrics.precision(returned) == pytest.approx(2 / 3)
    assert metrics.judged_share(returned) == pytest.approx(3 / 5)
    assert metrics.precision([None, None]) is None
    assert metrics.judged_share([]) is None
    assert metrics.figures([2, None], [2, 1]) == {
        "returned": 2,
        "ndcg10": round(3 / (3 + 1 / math.log2(3)), 4),
        "precision": 1.0,
        "judged_share": 0.5,
    }


def test_the_baseline_tokenizes_in_lower_case_on_non_word_characters():
    assert metrics.tokens("Ruby-on-Rails 7.1: AWS Lambda's café") == [
        "ruby", "on", "rails", "7", "1", "aws", "lambda", "s", "café",
    ]  # fmt: skip


def test_the_baseline_cuts_cjk_runs_with_the_segmenter_tidings_uses():
    """Both sides of the comparison read CJK text the same way (ingest/text/segment.py):
    words, not character bigrams; particles (の, 的, 과) dropped."""
    assert metrics.tokens("AI芯片出口") == ["ai", "芯片", "出口"]
    assert metrics.tokens("日本の観光業") == ["日本", "観光", "業"]
    assert metrics.tokens("클라우드 보안과 ＡＩ") == ["클라우드", "보안", "ai"]
    assert metrics.tokens("电动汽车电池技术的最新进展") == ["电动汽车", "电池", "技术", "最新进展"]
    assert metrics.tokens("量") == ["量"]


def test_means_leave_out_missing_figures_and_percentiles_interpolate():
    assert metrics.mean([1.0, None, 0.5]) == 0.75
    assert metrics.mean([None]) is None
    assert metrics.percentile([10, 20, 30, 40], 0.5) == 25
    assert metrics.percentile([10, 20, 30, 40], 0.99) == pytest.approx(39.7)
    assert metrics.percentile([7], 0.99) == 7


def test_every_cjk_judgment_names_an_item_of_the_multilingual_pool():
    data = Path(__file__).parent / "bench" / "topics_data"
    slugs = set()
    for name in ("multilingual_feed.json", "relevance_cjk_feed.json"):
        feed = json.loads((data / name).read_text("utf-8"))
        slugs |= {item["url"].rstrip("/").rsplit("/", 1)[-1] for item in feed["items"]}
    assert len(slugs) == 60  # two files, no item twice
    spec = json.loads((data / "relevance_cjk.json").read_text("utf-8"))

    assert len(spec["topics"]) >= 10
    assert {t["locale"] for t in spec["topics"]} == {"zh-hans", "ja", "ko"}
    for topic in spec["topics"]:
        assert set(topic["judgments"]) <= slugs, topic["id"]
        assert set(topic["judgments"].values()) <= {1, 2}, topic["id"]
        assert 2 in topic["judgments"].values(), topic["id"]


def _result(corpus_lists: dict[str, list[tuple[int, str]]]) -> dict:
    def outcome(topic_id, entries):
        return {
            "id": topic_id,
            "tidings": {"list": [{"item_id": i, "title": t} for i, t in entries]},
        }

    topics = [outcome(topic_id, entries) for topic_id, entries in corpus_lists.items()]
    return {"corpus": {"topics": topics}, "cjk": {"topics": []}}


def test_the_same_lists_check_names_each_topic_whose_top_list_moved(tmp_path, capsys):
    from tests.bench import relevance_same

    before = _result({"d01": [(1, "One"), (2, "Two")], "d02": [(3, "Three")]})
    swapped = _result({"d01": [(2, "Two"), (1, "One")], "d02": [(3, "Three")]})
    retitled = _result({"d01": [(1, "One"), (2, "Two")], "d02": [(3, "Three ")]})

    assert relevance_same.differences(before, json.loads(json.dumps(before))) == []
    assert relevance_same.differences(before, swapped) == ["corpus/d01: differs from rank 1"]
    assert relevance_same.differences(before, retitled) == ["corpus/d02: differs from rank 1"]
    (tmp_path / "a.json").write_text("log line\n" + json.dumps(before))
    (tmp_path / "b.json").write_text(json.dumps(swapped))
    assert relevance_same.main([str(tmp_path / "a.json"), str(tmp_path / "a.json")]) == 0
    assert relevance_same.main([str(tmp_path / "a.json"), str(tmp_path / "b.json")]) == 1
    assert "corpus/d01" in capsys.readouterr().out
