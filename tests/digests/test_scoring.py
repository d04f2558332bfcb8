"""Relevance per subscription (digests/runs/scoring.py): which interests an item matches."""

from __future__ import annotations

from digests.runs import scoring
from digests.runs.scoring import (
    RANKING_SUMMARY_CHARS,
    SHORT_SUMMARY_CHARS,
    Document,
    Interests,
    Query,
    documents,
    expansion_terms,
    rank,
    ranking_summary,
    relevance,
)


def matched(terms, title, summary=""):
    return relevance(Interests.build(terms, []), title=title, summary=summary).matched


def test_an_interest_in_the_plural_matches_the_singular_and_back():
    assert matched(["language models"], "Serving a 70B language model") == ["language models"]
    assert matched(["language model"], "Small language models on laptops") == ["language model"]
    assert matched(["LLM"], "Three LLMs compared") == ["LLM"]
    assert matched(["batteries"], "Grid-scale battery prices") == ["batteries"]


def test_plural_tolerance_never_makes_a_different_word_match():
    # "modelling" is not "model": only the other word of the interest is found, and the interest
    # is not claimed as matched.
    assert matched(["language model"], "Language modelling at home") == ["language"]
    assert matched(["news"], "A new release") == []
    assert matched(["rust"], "Frustrating rust-proofing")  # 'rust' as a word still matches
    assert matched(["rust"], "Frustrating") == []


def test_a_word_is_counted_only_where_it_stands_alone_however_often_it_hides_in_others():
    # The matcher skips to the words' first letters and checks the start of each match: a
    # match inside a word ("trust") is dropped and never hides the real one right after it.
    title_hidden = "Trustrust rust" + " trust" * 3
    scores = rank(
        Interests.build(["rust"], []),
        [
            Document.of(title_hidden, ""),
            Document.of("Rust rust rust rust", ""),
            Document.of("Trust", ""),
        ],
    )
    assert [r.score > 0 for r in scores] == [True, True, False]
    assert scores[0].score < scores[1].score  # one "rust" against four
    assert matched(["AI"], "AI芯片 and tRAIning") == ["AI"]  # beside CJK yes, inside a word no


def test_full_width_text_and_terms_match_their_ascii_forms():
    assert matched(["AI"], "ＡＩ規制の新しい動き") == ["AI"]
    assert matched(["ＬＬＭ"], "LLM evaluation") == ["ＬＬＭ"]
    assert matched(["大语言模型"], "国产大语言模型发布") == ["大语言模型"]


def test_greek_and_cyrillic_words_match_as_whole_words():
    assert matched(["Навальный"], "Алексей Навальный: новое расследование") == ["Навальный"]
    assert matched(["Рим"], "Римский форум открыт") == []  # a word inside a longer one
    assert matched(["новости Оренбурга"], "Главные новости Оренбурга") == ["новости Оренбурга"]
    assert matched(["πολιτική"], "Η ελληνική πολιτική σήμερα") == ["πολιτική"]


def test_a_cyrillic_word_matches_in_its_other_cases():
    """Russian inflects where English adds an "s": "of Orenburg" must find "in Orenburg"."""
    title = "ЧОПовцы в Оренбурге избили молодого человека"
    assert matched(["Оренбурга"], title) == ["Оренбурга"]
    assert matched(["новости Оренбурга"], "Главные новости Оренбурге") == ["новости Оренбурга"]
    assert matched(["Москвы"], "Выставка в Москве") == ["Москвы"]
    assert matched(["Оренбурга"], "Рейд в Оренбургской области") == ["Оренбурга"]  # its region
    assert matched(["Москвы"], "Москворецкий рынок") == []  # another word, not a case form
    assert matched(["ЖКХ"], "Реформа ЖКХа") == []  # an acronym matches as written


def test_a_negative_keyword_in_the_plural_excludes_the_singular():
    interests = Interests.build(["databases"], ["job postings"])
    assert relevance(interests, title="Database job posting for Berlin", summary="").score == 0


# --- Ranking among a run's candidates (BM25F, feedback words) -------------------------------


def scores(terms, items, query=None):
    """Relevance of (title, summary) pairs ranked together, as a run ranks its candidates."""
    interests = Interests.build(terms, [])
    return [r.score for r in rank(interests, [Document.of(t, s) for t, s in items], query)]


FILLER = [(f"Unrelated note {n}", "Gardening, cooking and the weather.") for n in range(8)]


def test_the_title_counts_more_than_the_summary():
    in_title, in_summary, *_ = scores(
        ["Kubernetes"], [("Kubernetes operators", "A note."), ("A note", "Kubernetes operators.")]
    )
    assert in_title > in_summary


def test_a_rare_word_weighs_more_than_a_common_one():
    common = [(f"Doing better at chores {n}", "Small steps.") for n in range(6)]
    rare, generic, *_ = scores(
        ["better", "Haskell"],
        [("Haskell type classes", "Small steps."), ("Better sleep", "Small steps."), *common],
    )
    assert rare > generic


def test_the_rare_word_of_a_two_word_interest_outweighs_a_common_interest_in_a_title():
    # "building a wooden sailboat by hand": an item that says "sailboat" is about the topic,
    # one with "hand" in its title is not. As a concept, one word of "wooden sailboat" is half
    # of it; as a word, "sailboat" weighs what its rarity says, as in plain BM25. "hand" is a
    # common word: in half the candidates here (in a real pool, far more).
    by_hand = [(f"Done by hand {n}", "Small steps.") for n in range(9)]
    sailboat, hand, *_ = scores(
        ["wooden sailboat", "hand"],
        [
            ("Which boat?", "Notes on the sailboat we built."),
            ("Hand tools", "A list."),
            *by_hand,
            *FILLER,
        ],
    )
    assert sailboat > hand


def test_saying_more_of_the_topic_beats_repeating_one_word():
    # Both words about as common among the candidates; counts saturate, so four "containers"
    # are worth less than one "containers" and one "Kubernetes". (Ten items saying both more
    # often set the reference, so neither of the two reads 100.)
    repeated, both, *_ = scores(
        ["containers", "Kubernetes"],
        [
            ("Containers", "Containers, containers and containers again."),
            ("Containers on Kubernetes", "Ports and ships."),
            *[(f"Kubernetes containers {n}", "Containers on Kubernetes.") for n in range(10)],
            *FILLER,
        ],
    )
    assert both > repeated


def test_an_item_about_one_thing_of_a_list_beats_one_naming_them_all_in_passing():
    """A list topic wants items about any one of its things: the post about Node.js (its title
    and its summary say it again) outranks the one that lists the languages a service takes.
    Fails with counts saturating faster (scoring.K1 at 1.2)."""
    about_one, naming_all, *_ = scores(
        ["JavaScript", "TypeScript", "Node.js"],
        [
            (
                "Monolithic Node.js",
                "One Node.js service instead of ten: a Node.js monolith is simpler to run.",
            ),
            (
                "Ten pearls of serverless functions",
                "Write functions in JavaScript, TypeScript or Node.js, among others.",
            ),
            *[(f"Release notes {n}", "JavaScript and TypeScript.") for n in range(3)],
            *[(f"Notes {n}", "Node.js.") for n in range(3)],
            *FILLER,
        ],
    )
    assert about_one > naming_all


def test_a_mention_in_a_long_summary_weighs_less_than_in_a_short_one():
    long_text = "Gardening, cooking and the weather. " * 30
    short, long, *_ = scores(
        ["Haskell"],
        [("A note", "Haskell today."), ("A note", f"{long_text} Haskell today."), *FILLER],
    )
    assert short > long


def test_a_short_summary_is_read_with_the_start_of_its_body_said_once():
    body = "<p>Read on.</p><p>Kubernetes operators reconcile state &amp; report it.</p>"
    assert ranking_summary("Read on.", body) == (
        "Read on. Kubernetes operators reconcile state & report it."
    )
    # A body that does not begin with the summary follows it whole.
    assert ranking_summary("Teaser", "<p>Kubernetes</p>") == "Teaser Kubernetes"


def test_a_summary_long_enough_is_read_as_written():
    summary = "x" * SHORT_SUMMARY_CHARS
    assert ranking_summary(summary, "<p>Kubernetes operators</p>") == summary
    assert ranking_summary("Read on.", "") == "Read on."


def test_the_body_read_for_a_summary_is_bounded_and_never_cut_inside_a_tag_or_word():
    head = "<p>" + "Kubernetes operators " * 60 + '</p><a href="https://exam'
    completed = ranking_summary("Read on.", head)
    assert len(completed) <= RANKING_SUMMARY_CHARS
    assert completed.endswith(("Kubernetes", "operators"))
    assert "<" not in ranking_summary("Read on.", '<p>Kubernetes</p><a href="https://exam')
    assert ranking_summary("Read on.", "<p>Kubernetes &amp; Helm &am") == (
        "Read on. Kubernetes & Helm"  # an entity cut in two is left out, not shown half
    )
    assert ranking_summary("Read on.", "<p></p><br><p>") == "Read on."  # nothing but tags


def test_one_item_on_its_own_is_read_as_a_run_reads_it():
    interests = Interests.build(["Kubernetes"], [])
    body = "<p>Kubernetes 1.35</p>"
    assert relevance(interests, title="Week 48", summary="Notes.", body=body).score > 0
    assert relevance(interests, title="Week 48", summary="x" * 200, body=body).score == 0


def test_a_candidate_with_a_short_summary_is_ranked_by_what_its_body_says():
    rows = [
        {"title": "Week 48", "description": "Notes.", "body_head": "<p>Kubernetes 1.35</p>"},
        {"title": "Week 47", "description": "Notes.", "body_head": ""},
    ]
    with_body, without = rank(Interests.build(["Kubernetes"], []), documents(rows))
    assert with_body.score > 0
    assert without.score == 0


def test_a_phrase_as_written_counts_more_than_its_words_apart():
    together, apart, *_ = scores(
        ["video games"],
        [("Video games of the year", "A list."), ("Games on video of the year", "A list.")],
    )
    assert together > apart


def test_the_signs_that_make_a_name_of_a_letter_are_part_of_the_word():
    # "C++" was the letter c: found in "C#" and "c. 1890", and ".NET" in any "net".
    assert matched(["C++"], "A taxonomy of C++ types") == ["C++"]
    assert matched(["C++"], "C# async for slugs") == []
    assert matched(["C++"], "c. 1890 in Leesville") == []
    assert matched(["C#"], "Pattern matching in C#, explained") == ["C#"]
    assert matched(["C#"], "The C major scale") == []
    assert matched([".NET"], "What is new in .NET 9") == [".NET"]
    assert matched([".NET"], "Net income rose") == []
    assert matched(["C++ programming"], "C++ programming tips") == ["C++ programming"]
    assert matched(["Node.js"], "Node.js 24 is out") == ["Node.js"]  # a dot inside stays a link
    assert Query.from_interests(Interests.build(["C++", "F#"], [])).search_terms() == ["c++", "f#"]


def test_a_word_written_closed_is_found_written_with_hyphens():
    assert matched(["Gaza ceasefire"], "Hamas frees four under the Gaza Cease-Fire deal") == [
        "Gaza ceasefire"
    ]
    assert matched(["email"], "Why e-mail still works") == ["email"]
    assert matched(["ceasefire"], "Cease-fires that held") == ["ceasefire"]
    # The parts are still words of their own; a closed word is not found in a hyphenated one
    # that spells more, nor in two words written apart.
    assert matched(["fire"], "A cease-fire at last") == ["fire"]
    assert matched(["ceasefire"], "Cease-fire-line maps") == []
    assert matched(["ceasefire"], "Cease fire, they said") == []
    once, twice = scores(["ceasefire"], [("A cease-fire", ""), ("A cease-fire, a ceasefire", "")])
    assert once < twice


def test_a_word_is_found_in_its_other_inflections_at_half_its_weight():
    assert matched(["jazz records"], "Rare jazz recordings from 1962") == ["jazz records"]
    assert matched(["exploited"], "How attackers exploit the flaw") == ["exploited"]
    assert matched(["mapping community"], "The community that maps the world") == [
        "mapping community"
    ]
    # Derivations and short stems are other words; "canning" is not the word "can".
    assert matched(["productive"], "A product launch") == []
    assert matched(["automate"], "Home automation") == []
    assert matched(["canning"], "You can do it") == []
    assert matched(["coping"], "The cop said no") == []
    exact, inflected, none = scores(
        ["exploited"],
        [("Bug exploited in the wild", ""), ("Bug exploits in the wild", ""), *FILLER[:2]],
    )[:3]
    assert exact > inflected > none == 0


def test_only_a_document_that_may_hold_an_inflection_is_cut_into_stems():
    # Stemming every word of every cold candidate was most of a ranking's time; a document
    # without the start of any query stem ("exploit" of "exploited") cannot hold one.
    interests = Interests.build(["exploited"], [])
    maybe = Document("Attackers exploit the flaw", "")
    never = Document("A quiet week", "Gardening and the weather.")
    found, nothing = rank(interests, [maybe, never])
    assert found.matched == ["exploited"] and nothing.score == 0
    assert maybe._stems is not None and never._stems is None


def test_the_title_is_named_for_the_interests_it_says_all_of():
    # "why selected" said "matches releases, open, source in the title" when only "release"
    # was in it (the demo's "new open-source database releases and benchmarks").
    split = relevance(
        Interests.build(["open-source database", "releases"], []),
        title="Release notes",
        summary="An open-source database, version 18.",
    )
    assert split.matched == ["open-source database", "releases"]
    assert split.in_title == ["releases"] and split.field == "title"
    words = relevance(
        Interests.build(["open-source database releases"], []),
        title="Release notes",
        summary="From an open-source project.",
    )
    assert words.matched == ["releases", "open", "source"] and words.in_title == ["releases"]
    summary_only = relevance(
        Interests.build(["PostgreSQL"], []), title="Notes", summary="PostgreSQL 18."
    )
    assert summary_only.in_title == [] and summary_only.field == "summary"


def test_a_possessive_is_the_word_it_is_said_of():
    # An interest's possessive is its word ("Japan's" of "Japan's new prime minister"), and a
    # phrase is found with or without one, either apostrophe.
    assert matched(["Japan's"], "Japan elects a new leader") == ["Japan's"]
    assert matched(["Trump tariffs"], "Trump’s tariffs hit Canada") == ["Trump tariffs"]
    assert matched(["Trump's tariffs"], "Trump tariffs hit Canada") == ["Trump's tariffs"]
    assert matched(["children's books"], "The best children's books") == ["children's books"]
    together, apart = scores(
        ["Trump tariffs"], [("Trump's tariffs hit Canada", ""), ("Trump signs; tariffs rise", "")]
    )
    assert together > apart


def test_the_best_match_reads_high_and_a_passing_mention_low():
    best, passing, *_ = scores(
        ["PostgreSQL", "vacuum"],
        [
            ("PostgreSQL vacuum tuning", "How PostgreSQL vacuum works."),
            ("A week of links", "Gardening, cooking, the weather and one PostgreSQL talk."),
            *FILLER,
        ],
    )
    assert best >= 90 and passing < 70


def test_feedback_words_of_the_best_matches_do_not_sink_a_plain_full_match():
    # Four items share words the topic does not say ("Giant Bombcast", "crew"): they become
    # feedback words and those items score more. An item that says every interest in its
    # title still reads as a real match (at least 3/4 of the way), not as a side mention.
    interests = Interests.build(["podcasts", "video games"], [])
    query = Query.from_interests(interests)
    items = [
        (f"Giant Bombcast {n}: a video games podcast", "The Giant Bombcast crew talks games.")
        for n in range(4)
    ]
    items += [("A podcast about video games", "Episode 12."), *FILLER * 3]
    docs = [Document.of(title, summary) for title, summary in items]
    expansions = expansion_terms(query, docs, rank(interests, docs, query))
    assert {"bombcast", "crew"} <= set(expansions)
    ranked = [r.score for r in rank(interests, docs, query.expanded(expansions))]
    assert ranked[:4] == [100] * 4
    assert ranked[4] >= round(100 * 0.75**scoring.RELEVANCE_CURVE)


def commodore_candidates():
    """Four items about the Commodore 64 that all mention its SID chip, one about the SID chip
    alone (index 4), and unrelated filler."""
    about = [
        (f"Commodore 64 demo {n}", "The SID chip sings on the Commodore 64.") for n in range(4)
    ]
    items = [*about, ("The SID chip's filters", "Analog filters explained."), *FILLER * 5]
    interests = Interests.build(["Commodore 64"], [])
    return interests, Query.from_interests(interests), [Document.of(t, s) for t, s in items]


def test_feedback_words_are_what_the_best_matches_share_and_the_rest_lack():
    interests, query, docs = commodore_candidates()
    assert "sid" in expansion_terms(query, docs, rank(interests, docs, query))
    # Words every candidate has, function words and the query's own words never expand it.
    assert not {"the", "commodore", "64"} & set(expansion_terms(query, docs, rank(interests, docs)))


def test_a_function_word_is_never_a_feedback_word_even_when_it_keys_as_another_word():
    # "many" keys as "man" (plural folding); skipped by key, it expanded the Clojure and
    # Haskell topic of the relevance benchmark and showed as a related word.
    interests = Interests.build(["Commodore 64"], [])
    query = Query.from_interests(interests)
    items = [
        (f"Commodore 64 demo {n}", "Many demos, many SID tunes, many many more.") for n in range(4)
    ]
    docs = [Document.of(t, s) for t, s in [*items, *FILLER * 5]]
    expansions = expansion_terms(query, docs, rank(interests, docs, query))
    assert "sid" in expansions and "man" not in expansions and "many" not in expansions.values()


def test_a_function_word_is_never_a_word_a_reader_likes():
    interests = Interests.build(["Commodore 64"], [])
    kept = [
        {"title": f"Many SID tunes {n}", "description": "many many", "site_name": ""}
        for n in range(3)
    ]
    learned = scoring.Feedback.learn(kept, [], Query.from_interests(interests))
    assert "sid" in learned.liked and "man" not in learned.liked


def test_feedback_words_lift_an_item_that_says_the_topic_differently():
    interests, query, docs = commodore_candidates()
    without = rank(interests, docs, query)
    assert without[4].score == 0
    expanded = query.expanded(expansion_terms(query, docs, without))
    sid_item = rank(interests, docs, expanded)[4]
    assert sid_item.score > 0 and "sid" in sid_item.expansions


def test_a_chinese_interest_matches_its_words_written_apart():
    """电池技术 is the words 电池 and 技术 (ingest/text/segment.py): an item about battery
    recycling says 电池 without 技术 and still matches; as one substring it did not."""
    from digests.runs.scoring import Document, Interests, rank

    interests = Interests.build(["电池技术"], [])
    docs = [
        Document.of("动力电池回收利用新规发布", "梯次利用成为重点。"),
        Document.of("央行下调存款准备金率", "释放长期流动性。"),
    ]
    found, unrelated = rank(interests, docs)
    assert found.score > 0 and found.matched == ["电池"]
    assert unrelated.score == 0


def test_a_chinese_word_that_only_begins_a_longer_word_does_not_match_it():
    """Chinese and Japanese put a word's head last: 自动 (of 自动驾驶) at the start of 自动化
    (automation) or 数据 at the start of 数据库 names something else, and matched an item on
    factory automation for "自动驾驶"; a word at the end of a longer one (电池 of 动力电池)
    and a word the query's next word goes on to spell (自动 + 驾驶) still match."""
    from digests.runs.scoring import Document, Interests, rank

    driving = Interests.build(["自动驾驶"], [])
    automation, robotaxi = rank(
        driving,
        [
            Document.of("工厂自动化改造提速", "工业机器人装机量增长两成。"),
            Document.of("北京发布自动驾驶出租车管理新规", "将于下月起施行。"),
        ],
    )
    assert automation.score == 0
    assert robotaxi.score > 0 and robotaxi.matched == ["自动驾驶"]
    (battery,) = rank(Interests.build(["电池"], []), [Document.of("动力电池回收", "")])
    assert battery.score > 0


def test_a_chinese_summary_is_as_long_as_its_words_not_one_word():
    """Length normalization counts a CJK summary's words (about one per two characters): a
    Chinese item saying "AI" once in a long summary does not outrank an English one that says
    it once in a summary of the same length, as it did when the summary was one 'word'."""
    from digests.runs.scoring import Document, Interests, rank

    english = " ".join(["word"] * 30) + " AI " + " ".join(["word"] * 29)
    chinese = "这家公司" * 15 + "AI" + "今年发布新品" * 10
    short = Document.of("Quarterly report", "AI and chips.")
    english_doc, chinese_doc = Document.of("News", english), Document.of("新闻", chinese)
    scores = [r.score for r in rank(Interests.build(["AI"], []), [english_doc, chinese_doc, short])]
    assert abs(scores[0] - scores[1]) <= 5, scores


def test_a_function_word_inside_an_interest_links_its_phrase_and_matches_nothing_alone():
    interests = Interests.build(["Ruby on Rails"], [])
    rails, cooking, apart = rank(
        interests,
        [
            Document.of("Ruby on Rails 8 is out", ""),
            Document.of("Notes on cooking", "Tips on the best knives."),
            Document.of("Rails and Ruby", "Two names apart."),
        ],
    )
    assert cooking.score == 0
    assert rails.score > apart.score > 0  # the phrase as written counts more than its words
    assert Query.from_interests(interests).search_terms() == ["ruby", "rails"]


def test_the_default_minimum_keeps_a_real_match_and_drops_a_passing_mention():
    """On the convex relevance scale the default minimum score (40) still lets an item with 80 %
    of the best match's score through at a feed's ordinary impact and quality (the old 60 would
    drop it: 28 + 12 + 10), while a fresh passing mention at half the best match stays out."""
    from digests.models import DEFAULT_MIN_SCORE
    from digests.runs.scoring import overall

    real_match = round(100 * 0.8**scoring.RELEVANCE_CURVE)
    passing = round(100 * 0.5**scoring.RELEVANCE_CURVE)
    assert overall(real_match, 40, 50) >= DEFAULT_MIN_SCORE
    assert overall(passing, 60, 50) < DEFAULT_MIN_SCORE


def test_one_item_saying_all_of_the_topic_does_not_push_its_main_matches_under_the_minimum():
    """Relevance is a share of what the best candidates score on average, not of the single
    best: in a small pool (the relevance benchmark's CJK part) one item saying every interest
    made an item saying just the main one read 8–17, under the default minimum score at a
    feed's ordinary impact and quality, and the brief held one item."""
    from digests.models import DEFAULT_MIN_SCORE
    from digests.runs.scoring import overall

    english = scores(
        ["open-source database", "new version", "applications"],
        [
            (
                "Open-source database Milvus ships a new version",
                "The new version of the open-source database adds full-text search.",
            ),
            ("PostgreSQL 18 released: the open-source database gets async I/O", "Faster reads."),
            ("A leaked database password", "A cloud incident."),
            *FILLER,
        ],
    )
    chinese = scores(
        ["开源数据库", "新版本", "应用"],
        [
            (
                "开源向量数据库Milvus发布新版本，支持全文检索",
                "Milvus新版本支持全文检索，开源数据库社区活跃。",
            ),
            ("开源数据库PostgreSQL 18发布，异步I/O提升读取性能", "PostgreSQL 18引入异步I/O。"),
            ("网络安全事件复盘：某云服务商泄露数据库凭证", "凭证泄露。"),
            *FILLER,
        ],
    )
    for every_word, main_word, leak, *_ in (english, chinese):
        assert every_word == 100 > main_word
        assert overall(main_word, 40, 50) >= DEFAULT_MIN_SCORE
        assert overall(leak, 40, 50) < DEFAULT_MIN_SCORE  # "database" alone is no match


def test_an_item_about_two_things_a_topic_lists_is_a_full_match():
    """A topic that lists four things is answered by an item about two of them: beside items
    naming all four over and over it reads 47 and clears the default minimum at a feed's
    ordinary impact and quality; measured against all four it read 13 and did not."""
    from digests.models import DEFAULT_MIN_SCORE
    from digests.runs.scoring import overall

    every_four = [
        (
            f"Ansible, Terraform, Pulumi and Chef compared, part {n}",
            "Ansible or Terraform? Pulumi or Chef? Ansible, Terraform, Pulumi, Chef.",
        )
        for n in range(5)
    ]
    *every, two = scores(
        ["Ansible", "Terraform", "Pulumi", "Chef"],
        [*every_four, ("Pulumi and Chef together", "A program and a recipe."), *FILLER],
    )[:6]
    assert every == [100] * 5
    assert overall(two, 40, 50) >= DEFAULT_MIN_SCORE


def test_a_fresh_passing_mention_does_not_outrank_a_real_match():
    """The relevance benchmark's case (functional programming in Clojure or Haskell): a fresh,
    high-impact item mentioning Clojure once (44 % of the best match's score, 42 points of
    impact and quality) tied "PureScript and Haskell" (88 %, 20 points) at 64 with relevance
    linear in the share; on the convex curve the real match comes first."""
    from digests.runs.scoring import overall

    def relevance_of(share):
        return round(100 * share**scoring.RELEVANCE_CURVE)

    passing = overall(relevance_of(0.44), 100, 60)  # 0.3·100 + 0.2·60 = 42 points
    real_match = overall(relevance_of(0.88), 40, 40)  # 0.3·40 + 0.2·40 = 20 points
    assert real_match > passing


# --- What is kept between rankings (a preview's speed, docs/benchmarks.md) --------------------


def test_a_document_is_folded_once_per_text_and_again_when_its_text_changes():
    first = Document.of("Ｒｕｓｔ 1.90 released", "Faster builds.")
    assert Document.of("Ｒｕｓｔ 1.90 released", "Faster builds.") is first
    changed = Document.of("Ｒｕｓｔ 1.90 released", "Faster builds and a new linker.")
    assert changed is not first
    assert changed.summary == "faster builds and a new linker."
    assert first.summary == "faster builds."


def test_the_same_interests_never_scan_a_document_twice(monkeypatch):
    interests = Interests.build(["Rust", "WebAssembly"], [])
    docs = [Document.of("Rust and WebAssembly", "Rust in the browser"), Document.of("Go", "")]
    before = [r.score for r in rank(interests, docs)]
    scans = []
    original = scoring._Matcher.counts
    monkeypatch.setattr(
        scoring._Matcher, "counts", lambda self, text: scans.append(text) or original(self, text)
    )
    assert [r.score for r in rank(interests, docs)] == before
    assert scans == []  # the same query (Query.from_interests) and what its matcher found
    assert Query.from_interests(interests) is Query.from_interests(interests)
    # A new document is scanned; expansion words scan each document once, then not again.
    rank(interests, [*docs, Document.of("Rust 2", "")])
    assert scans == ["rust 2", ""]
    expanded = Query.from_interests(interests).expanded({"browser": "browser"})
    rank(interests, docs, expanded)
    scanned = len(scans)
    rank(interests, docs, Query.from_interests(interests).expanded({"browser": "browser"}))
    assert len(scans) == scanned


def test_what_a_matcher_keeps_is_bounded(monkeypatch):
    monkeypatch.setattr(scoring, "FOUND_PER_QUERY", 8)
    interests = Interests.build(["bounded cache word"], [])
    docs = [Document.of(f"Bounded cache word {n}", "") for n in range(30)]
    rank(interests, docs)
    found = Query.from_interests(interests)._matcher.found
    assert 0 < len(found) <= 8
    assert docs[-1] in found  # the newest kept, the oldest dropped
    assert docs[0] not in found
