"""Relevance per subscription (digests/runs/scoring.py): which interests an item matches."""

from __future__ import annotations

from digests.runs.scoring import Interests, relevance


def matched(terms, title, summary=""):
    return relevance(Interests.build(terms, []), title=title, summary=summary).matched


def test_an_interest_in_the_plural_matches_the_singular_and_back():
    assert matched(["language models"], "Serving a 70B language model") == ["language models"]
    assert matched(["language model"], "Small language models on laptops") == ["language model"]
    assert matched(["LLM"], "Three LLMs compared") == ["LLM"]
    assert matched(["batteries"], "Grid-scale battery prices") == ["batteries"]


def test_plural_tolerance_never_makes_a_different_word_match():
    assert matched(["language model"], "Language modelling at home") == []
    assert matched(["news"], "A new release") == []
    assert matched(["rust"], "Frustrating rust-proofing")  # 'rust' as a word still matches
    assert matched(["rust"], "Frustrating") == []


def test_full_width_text_and_terms_match_their_ascii_forms():
    assert matched(["AI"], "ＡＩ規制の新しい動き") == ["AI"]
    assert matched(["ＬＬＭ"], "LLM evaluation") == ["ＬＬＭ"]
    assert matched(["大语言模型"], "国产大语言模型发布") == ["大语言模型"]


def test_a_negative_keyword_in_the_plural_excludes_the_singular():
    interests = Interests.build(["databases"], ["job postings"])
    assert relevance(interests, title="Database job posting for Berlin", summary="").score == 0
