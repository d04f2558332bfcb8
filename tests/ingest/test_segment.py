"""The shared CJK segmenter (ingest/text/segment.py): what the extractor, the scorer and the
pool's recall all cut Chinese, Japanese and Korean text into."""

from __future__ import annotations

from ingest.text.segment import CONTENT, FUNCTION, match_words, segment


def test_chinese_is_cut_into_dictionary_words_with_particles_marked():
    words = segment("电动汽车电池技术的最新进展")
    assert [w.text for w in words] == ["电动汽车", "电池", "技术", "的", "最新进展"]
    assert words[3].kind == FUNCTION and words[0].kind == CONTENT


def test_japanese_is_cut_by_mecab_even_in_kanji_alone():
    assert [w.text for w in segment("サイバー攻撃と情報漏えい")] == [
        "サイバー",
        "攻撃",
        "と",
        "情報",
        "漏えい",
    ]
    # No kana: jieba's dictionary would cut 電気自動車 into single characters.
    assert match_words("電気自動車") == ("電気", "自動")


def test_korean_words_lose_their_particles():
    assert match_words("대형 언어 모델 성능과 비용") == ("대형", "언어", "모델", "성능", "비용")


def test_a_term_is_matched_by_its_words_of_two_characters_or_more():
    assert match_words("央行货币政策和利率") == ("央行", "货币政策", "利率")
    assert match_words("猫") == ("猫",)  # nothing longer: the term itself


def test_the_segmenters_load_only_when_cjk_text_is_seen():
    """An English-only deployment pays nothing: scoring and topic parsing of English text
    import neither segmenter."""
    import subprocess
    import sys

    code = (
        "import sys;"
        "from ingest.text.segment import segment, match_words;"
        "from digests.subscriptions.topic_terms import extract_terms;"
        "extract_terms('keeping up with Rust async runtimes');"
        "segment('plain English');"
        "print(sorted({'rjieba', 'fugashi'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
