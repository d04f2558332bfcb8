"""Full-text search over the pool (ingest/pool/search_index.py), on SQLite and on PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ingest.models import ContentItem
from ingest.pool import search_index as fulltext
from ingest.pool.search_index import search_pool
from tests.factories import add_item

FULLTEXT_MIGRATION = ("ingest", "0003_contentitem_fulltext")
BEFORE_FULLTEXT = ("ingest", "0002_soft_dedup_index")


def search(terms, now, **kwargs):
    kwargs.setdefault("since", now - timedelta(days=7))
    kwargs.setdefault("until", now)
    kwargs.setdefault("limit", 50)
    return search_pool(terms, **kwargs)


def test_it_finds_any_term_in_title_or_description(db, now):
    in_title = add_item("PostgreSQL 18 released", now=now)
    in_description = add_item("Database news", description="Kubernetes operators", now=now)
    add_item("Gardening tips", description="Tomatoes in November", now=now)
    assert set(search(["postgresql", "Kubernetes"], now)) == {in_title.pk, in_description.pk}
    assert search(["cobol"], now) == []
    assert search([], now) == []
    assert search(["  ", ""], now) == []


def test_a_title_match_ranks_above_a_description_match(db, now):
    in_description = add_item(
        "Weekly notes", description="A word on PostgreSQL among other things", now=now, age_hours=1
    )
    in_title = add_item("PostgreSQL vacuum explained", now=now, age_hours=30)
    assert search(["PostgreSQL"], now) == [in_title.pk, in_description.pk]


@pytest.mark.parametrize("terms", [["PostgreSQL"], ["数据库"], ["库"], ["PostgreSQL", "数据库"]])
def test_recent_order_returns_the_newest_items_first(db, now, terms):
    # Newest by publication on PostgreSQL, by arrival in the pool on SQLite: the same here.
    items = [add_item(f"PostgreSQL 数据库 note {n}", now=now, age_hours=30 - n) for n in range(6)]
    newest_first = [item.pk for item in reversed(items)]
    assert search(terms, now, order="recent") == newest_first
    assert search(terms, now, order="recent", limit=2) == newest_first[:2]
    with pytest.raises(ValueError, match="order"):
        search(terms, now, order="newest")


def test_terms_match_whole_words_and_phrases_like_the_scorer(db, now):
    rust = add_item("Rust 2026 edition", now=now)
    add_item("In trust we rust-proof", now=now, description="Frustrating")  # 'rust' is a word here
    ml = add_item("Machine-learning at scale", now=now)
    add_item("Learning a machine", now=now)
    gpt = add_item("GPT-3.5-turbo lands on github.com/openai", now=now)
    assert rust.pk in search(["rust"], now)
    assert len(search(["rust"], now)) == 2
    assert search(["machine learning"], now) == [ml.pk]
    assert search(["GPT-3.5"], now) == [gpt.pk]
    assert search(["github"], now) == [gpt.pk]
    assert search(["trus"], now) == []  # no prefix or substring matches for word terms


def test_a_term_finds_its_singular_and_plural_as_the_scorer_does(db, now):
    singular = add_item("Serving a language model cheaply", now=now)
    plural = add_item("Small language models", now=now)
    acronym = add_item("Three LLMs compared", now=now)
    add_item("Language modelling at home", now=now)
    add_item("What is new this week", now=now)
    assert set(search(["language models"], now)) == {singular.pk, plural.pk}
    assert set(search(["language model"], now)) == {singular.pk, plural.pk}
    assert search(["LLM"], now) == [acronym.pk]
    assert search(["news"], now) == []


def test_full_width_terms_are_searched_in_their_ascii_form(db, now):
    item = add_item("LLM evaluation notes", now=now)
    assert search(["ＬＬＭ"], now) == [item.pk]


def test_cjk_korean_and_accented_terms_match_inside_words(db, now):
    chinese = add_item("业界动态", description="人工智能的发展很快", now=now)
    short = add_item("芯片新闻", description="智能手机出货量", now=now)
    korean = add_item("인공지능은 어디로 가나", now=now)
    accented = add_item("Café Müllerstraße", now=now)
    add_item("English only", description="nothing to see", now=now)
    assert search(["人工智能"], now) == [chinese.pk]
    assert set(search(["智能"], now)) == {chinese.pk, short.pk}  # two characters: LIKE
    assert search(["인공지능"], now) == [korean.pk]
    assert search(["Müller"], now) == [accented.pk]
    assert set(search(["人工智能", "Café"], now)) == {chinese.pk, accented.pk}


def test_only_active_items_inside_the_window_are_returned(db, now):
    inside = add_item("PostgreSQL inside", now=now, age_hours=5)
    add_item("PostgreSQL too old", now=now, age_hours=24 * 8)
    add_item("PostgreSQL from the future", now=now, age_hours=-3)
    add_item("PostgreSQL duplicate", now=now, status="filtered")
    assert search(["PostgreSQL"], now) == [inside.pk]
    assert len(search(["PostgreSQL"], now, since=None, until=None)) == 3


def test_limit_caps_the_result(db, now):
    for n in range(5):
        add_item(f"PostgreSQL note {n}", now=now, age_hours=n + 1)
    add_item("数据库 note", description="PostgreSQL 数据库", now=now)
    assert len(search(["PostgreSQL"], now, limit=3)) == 3
    assert len(search(["PostgreSQL", "数据库"], now, limit=4)) == 4


def test_the_index_follows_updates_and_deletes(db, now):
    item = add_item("PostgreSQL internals", now=now)
    chinese = add_item("数据库内核", now=now)
    ContentItem.objects.filter(pk=item.pk).update(title="SQLite internals")
    ContentItem.objects.filter(pk=chinese.pk).update(title="Database kernels")
    assert search(["PostgreSQL"], now) == []
    assert search(["SQLite"], now) == [item.pk]
    assert search(["数据库"], now) == []
    item.description = "Now with WAL"
    item.save()
    assert search(["WAL"], now) == [item.pk]
    ContentItem.objects.filter(pk=item.pk).delete()
    assert search(["SQLite"], now) == []


@pytest.mark.django_db(transaction=True)
def test_the_migration_indexes_existing_rows_and_reverses_without_losing_any(now):
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE_FULLTEXT])
    try:
        # Rows written through the model as it was then: later migrations add columns.
        old_item = executor.loader.project_state([BEFORE_FULLTEXT]).apps.get_model(
            "ingest", "ContentItem"
        )
        before = add_item("PostgreSQL before the index", now=now, model=old_item)
        chinese = add_item("全文检索上线", now=now, model=old_item)
        executor = MigrationExecutor(connection)
        executor.migrate([FULLTEXT_MIGRATION])
        assert search(["PostgreSQL"], now) == [before.pk]
        assert search(["全文检索"], now) == [chinese.pk]
        executor = MigrationExecutor(connection)
        executor.migrate([BEFORE_FULLTEXT])
        assert ContentItem.objects.count() == 2
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert search(["PostgreSQL"], now) == [before.pk]


@pytest.mark.django_db(transaction=True)
def test_sqlite_triggers_dropped_by_a_table_rebuild_are_put_back(now):
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL's column and its trigger survive table changes")
    try:
        with connection.schema_editor() as editor:
            editor._remake_table(ContentItem)  # what Django does to alter a column on SQLite
        item = add_item("PostgreSQL after a rebuild", now=now)
        assert search(["PostgreSQL"], now) == []
    finally:
        repaired = fulltext.ensure_index()
    assert f"{fulltext.FTS_TABLE}_ai" in repaired
    assert search(["PostgreSQL"], now) == [item.pk]
    assert fulltext.ensure_index() == []


def test_latin_words_of_a_cjk_query_are_found_against_cjk_text(db, now):
    """The word index sees "生成aiの規制" as one token; the scorer finds "AI" in it, so a CJK
    query's Latin words are looked for as substrings too (recall never below scoring)."""
    japanese = add_item("生成AIの規制に関するEUの新ルール", now=now)
    chinese = add_item("AI芯片出口管制升级", now=now)
    add_item("인공지능 스타트업 투자 급증", now=now)
    assert set(search(["AI", "생성형", "규제"], now)) == {japanese.pk, chinese.pk}
    assert search(["AI"], now) == []  # an English query is left to the word index
