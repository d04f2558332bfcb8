"""How interest terms meet text (ingest/text/terms.py): folding and the light plural rule."""

from __future__ import annotations

import pytest

from ingest.text.terms import clean_term, fold, same_term_key, term_form


def forms(term: str) -> set[str]:
    form = term_form(term)
    return {form.stem + ending for ending in form.endings}


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("language models", {"language models", "language model"}),
        ("language model", {"language models", "language model"}),
        ("LLMs", {"llms", "llm"}),
        ("LLM", {"llms", "llm"}),
        ("batteries", {"batteries", "batterie", "battery"}),
        ("battery", {"batteries", "battery"}),
        ("databases", {"databases", "database", "databas"}),
        ("database", {"databases", "database"}),
        ("patches", {"patches", "patche", "patch"}),
        ("class", {"classes", "class"}),
        ("Rust async runtimes", {"rust async runtimes", "rust async runtime"}),
    ],
)
def test_the_last_word_matches_in_the_singular_and_the_plural(term, expected):
    assert forms(term) == expected


@pytest.mark.parametrize(
    "term", ["news", "Windows", "Kubernetes", "iOS", "bus", "GPT-3.5", "数据库"]
)
def test_words_whose_s_is_not_a_plural_match_only_as_written(term):
    assert forms(term) == {fold(clean_term(term))}


def test_the_last_cyrillic_word_matches_in_every_case():
    assert {"оренбург", "оренбурга", "оренбурге", "оренбургом"} <= forms("Оренбурга")
    assert {"новости москва", "новости москвы", "новости москве"} <= forms("новости Москвы")
    assert same_term_key("Оренбурга") == same_term_key("Оренбург")
    assert "оренбургской" in forms("Оренбурга")  # the place's adjective: its region
    assert "новосибирске" in forms("новосибирский")  # cut to a case ending only
    for as_written in ("ЖКХ", "Рим", "ВКонтакте"):  # an acronym, a short word, a mixed-case name
        assert forms(as_written) == {as_written.casefold()}


def test_full_width_forms_and_case_are_folded():
    assert fold("ＡＩエージェント ＬＬＭ") == "aiエージェント llm"
    assert clean_term("  ＡＩ　エージェント ") == "AI エージェント"
    assert fold("PostgreSQL") == "postgresql"


def test_forms_of_one_term_share_a_key():
    assert same_term_key("Language Models") == same_term_key("language model")
    assert same_term_key("policies") == same_term_key("policy")
    assert same_term_key("news") != same_term_key("new")


def test_a_word_written_with_hyphens_is_read_closed_too():
    from ingest.text.terms import closed_compounds

    assert closed_compounds("Gaza Cease-Fire deal and e‐mail") == ("ceasefire", "email")
    assert closed_compounds("COVID-19, 3-D and no hyphen at all") == ()
    assert closed_compounds("Cease-fire-line maps") == ("ceasefireline",)
    # A text of nothing but hyphens and NUL bytes, or one 400,000-character compound, is
    # read in one pass.
    assert closed_compounds("-\x00" * 50_000) == ()
    assert closed_compounds("a-" * 200_000 + "b") == ("a" * 200_000 + "b",)


def test_a_words_inflections_share_one_stem_and_its_derivations_do_not():
    from ingest.text.terms import inflection_stem

    def same(*words):
        return len({inflection_stem(word) for word in words}) == 1

    assert same("records", "recording", "recordings", "recorded", "record")
    assert same("regulate", "regulates", "regulated", "regulating")
    assert same("mapping", "maps", "mapped", "map")
    assert same("exploited", "exploits", "exploit")
    assert same("carries", "carried", "carry")
    # Another word, not another form: derivations, short stems, "-eed" words, and the
    # words whose "s" is no plural.
    assert not same("automation", "automate")
    assert not same("productive", "product")
    assert not same("coping", "cop")
    assert not same("gaming", "gam")
    assert not same("speeding", "spe")
    assert inflection_stem("news") == "news" and inflection_stem("status") == "status"
