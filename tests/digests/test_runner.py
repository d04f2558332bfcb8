"""A run: scoring, per-user dedup and redelivery, preview, retry and recovery."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection

from digests.models import Run, RunItem, Subscription
from digests.runs import runner, scoring
from digests.subscriptions.service import create_subscription, request_manual_run
from inbox.models import UserContentState
from inbox.states import apply_action
from ingest.models import ContentItem, Source
from tests.factories import add_item, on_plan
from tests.threads import at_once


def subscribe(user, now, **data):
    base = {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}
    base.update(data)
    return create_subscription(user, base, now=now)


def run_once(subscription, now) -> Run:
    run = request_manual_run(subscription, now=now)
    return runner.execute_run(run.pk, now=now)


def test_it_delivers_matching_items_best_first_with_a_reason(alice, now):
    add_item("PostgreSQL 18 released", now=now)
    add_item("A story on databases", description="Mentions PostgreSQL in passing", now=now)
    add_item("Nothing relevant", now=now)
    run = run_once(subscribe(alice, now, min_score=0), now)
    titles = list(run.items.order_by("rank").values_list("title", flat=True))
    assert titles == ["PostgreSQL 18 released", "A story on databases"]
    first = run.items.get(rank=1)
    assert "matches PostgreSQL in the title" in first.reason
    assert run.candidates_count == 2
    assert run.narrative_md.startswith("**PostgreSQL 18 released** leads this issue")
    assert "Sources:" in run.narrative_md


def test_the_reason_says_only_what_the_title_says_is_in_the_title(alice, now):
    add_item(
        "PostgreSQL 18 released",
        description="What the new vacuum does for a busy database.",
        now=now,
    )
    add_item("Vacuum tuning", description="A PostgreSQL guide.", now=now)
    subscription = create_subscription(
        alice,
        {"name": "PG", "interests": ["PostgreSQL", "vacuum"], "cron": "0 8 * * *", "min_score": 0},
        now=now,
    )
    run = run_once(subscription, now)
    reasons = dict(run.items.values_list("title", "reason"))
    assert reasons["PostgreSQL 18 released"].startswith(
        "matches PostgreSQL in the title; matches vacuum in the summary;"
    )
    assert reasons["Vacuum tuning"].startswith(
        "matches vacuum in the title; matches PostgreSQL in the summary;"
    )


def test_the_reason_names_what_the_title_says_first_even_past_the_terms_shown(alice, now):
    # Four terms are named; the one the title says must not be cut for the summary's.
    add_item("Epsilon notes", description="On alpha, beta, gamma and delta.", now=now)
    subscription = create_subscription(
        alice,
        {
            "name": "Letters",
            "interests": ["alpha", "beta", "gamma", "delta", "epsilon"],
            "cron": "0 8 * * *",
            "min_score": 0,
        },
        now=now,
    )
    reason = run_once(subscription, now).items.get().reason
    assert reason.startswith(
        "matches epsilon in the title; matches alpha, beta, gamma in the summary;"
    )


def test_a_short_summary_is_ranked_with_the_start_of_its_body_and_shown_as_written(alice, now):
    said_again = add_item("Kubernetes notes, week 48", description="Notes.", age_hours=5, now=now)
    said_again.content_html = (
        "<p>Notes.</p><p>Kubernetes 1.35 ships sidecar containers; Kubernetes operators "
        "get a new reconcile API.</p>"
    )
    said_again.save(update_fields=["content_html"])
    # Newer, so it would lead if the body were not read.
    add_item("Kubernetes notes, week 47", description="Notes.", age_hours=1, now=now)
    subscription = subscribe(alice, now, interests=["Kubernetes", "operators"], min_score=0)
    selected = runner.preview(subscription, now=now).selected
    assert [c.title for c in selected] == ["Kubernetes notes, week 48", "Kubernetes notes, week 47"]
    assert selected[0].relevance > selected[1].relevance
    assert selected[0].description == "Notes."  # the reader sees the summary as stored
    # "why selected" does not send the reader to a summary that does not say it.
    assert "matches Kubernetes in the title; matches operators in the text;" in (
        selected[0].reason()
    )
    assert "in the text" not in selected[1].reason()


def test_only_a_short_summary_has_its_body_read_and_never_more_than_the_limit(alice, now):
    huge = add_item("Kubernetes digest", description="Notes.", now=now)
    long_summary = add_item("Kubernetes essay", description="Kubernetes. " * 20, now=now)
    for item in (huge, long_summary):
        item.content_html = "<p>" + "Kubernetes operators " * 50_000 + "</p>"
        item.save(update_fields=["content_html"])
    subscription = subscribe(alice, now, interests=["Kubernetes"])
    rows = {
        row["id"]: row
        for row in runner._rows(
            subscription, [huge.pk, long_summary.pk], since=now - timedelta(days=2), until=now
        )
    }
    assert len(rows[huge.pk]["body_head"]) == scoring.BODY_HEAD_HTML_CHARS
    assert rows[long_summary.pk]["body_head"] == ""
    completed = scoring.ranking_summary("Notes.", rows[huge.pk]["body_head"])
    assert len(completed) <= scoring.RANKING_SUMMARY_CHARS


def test_negative_keywords_exclude_items(alice, now):
    add_item("PostgreSQL job openings", now=now)
    add_item("PostgreSQL vacuum explained", now=now)
    run = run_once(subscribe(alice, now, negative_keywords=["job"]), now)
    assert list(run.items.values_list("title", flat=True)) == ["PostgreSQL vacuum explained"]


def test_items_below_min_score_or_outside_the_window_are_left_out(alice, now):
    add_item("PostgreSQL fresh", now=now, age_hours=1)
    add_item("PostgreSQL ancient", now=now, age_hours=24 * 10)
    run = run_once(subscribe(alice, now, min_score=60), now)
    assert list(run.items.values_list("title", flat=True)) == ["PostgreSQL fresh"]
    strict = run_once(subscribe(alice, now, name="Strict", min_score=100), now)
    assert strict.delivered_count == 0
    assert strict.empty_reason == "Items were found, but none scored above your minimum score."


def test_max_items_caps_the_brief(alice, now):
    for n in range(8):
        add_item(f"PostgreSQL tip {n}", now=now, age_hours=n + 1)
    run = run_once(subscribe(alice, now, max_items=5), now)
    assert run.delivered_count == 5
    assert list(run.items.values_list("rank", flat=True)) == [1, 2, 3, 4, 5]


def test_an_item_is_not_delivered_twice_across_subscriptions(alice, now):
    add_item("PostgreSQL and Python together", now=now)
    first = run_once(subscribe(alice, now), now)
    second = run_once(subscribe(alice, now, name="Python", interests=["Python"]), now)
    assert first.delivered_count == 1
    assert second.delivered_count == 0
    assert second.dedup_skipped_count == 1


def test_cooldown_redelivers_only_after_the_cooldown(alice, now):
    add_item("PostgreSQL evergreen", now=now, age_hours=1)
    subscription = subscribe(alice, now, redelivery="cooldown", cooldown_days=1)
    assert run_once(subscription, now).delivered_count == 1
    assert run_once(subscription, now + timedelta(hours=12)).delivered_count == 0
    later = run_once(subscription, now + timedelta(hours=25))
    assert later.delivered_count == 1
    assert later.redelivered_count == 1
    assert later.items.get().redelivered
    state = UserContentState.objects.get(user=alice)
    assert state.delivered_count == 2


def test_never_policy_never_redelivers(alice, now):
    add_item("PostgreSQL evergreen", now=now, age_hours=1)
    never = subscribe(alice, now, redelivery="never", content_window_hours=24 * 60)
    run_once(never, now)
    # Thirty days on the item is still in the window, and a cooldown would deliver it again.
    later = now + timedelta(days=30)
    assert run_once(never, later).delivered_count == 0
    Subscription.objects.filter(pk=never.pk).update(redelivery="cooldown", cooldown_days=7)
    never.refresh_from_db()
    assert run_once(never, later).redelivered_count == 1


def test_on_content_update_redelivers_when_the_content_changed(alice, now):
    item = add_item("PostgreSQL changelog", now=now, age_hours=1, content_hash="a" * 64)
    subscription = subscribe(alice, now, redelivery="on_content_update")
    run_once(subscription, now)
    assert run_once(subscription, now + timedelta(days=2)).delivered_count == 0
    ContentItem.objects.filter(pk=item.pk).update(content_hash="b" * 64)
    assert run_once(subscription, now + timedelta(days=2, hours=1)).redelivered_count == 1


def test_not_interested_is_never_delivered_again(alice, now):
    add_item("PostgreSQL evergreen", now=now, age_hours=1)
    subscription = subscribe(alice, now, redelivery="cooldown", cooldown_days=1)
    first = run_once(subscription, now)
    apply_action(alice, first.items.get(), "not_interested", now=now)
    past_cooldown = run_once(subscription, now + timedelta(hours=25))
    assert past_cooldown.delivered_count == 0
    assert past_cooldown.dedup_skipped_count == 1


def test_preview_selects_like_a_run_and_writes_nothing(alice, now, django_assert_max_num_queries):
    add_item("PostgreSQL preview", now=now)
    subscription = subscribe(alice, now)
    # Its sources, the index, the pool's size in the window (kept a while: ingest/pool/size.py),
    # the rows, the reader's feedback, their states.
    with django_assert_max_num_queries(6):
        selection = runner.preview(subscription, now=now)
    assert [c.title for c in selection.selected] == ["PostgreSQL preview"]
    assert Run.objects.count() == 0
    assert UserContentState.objects.count() == 0


def test_sources_restrict_candidates_to_their_items(alice, now):
    from ingest.library.sources import add_to_library

    source = Source.objects.create(type="feed", config={"url": "x"}, config_hash="x" * 64)
    add_to_library(alice, source)
    add_item("PostgreSQL from my source", now=now, source=source)
    add_item("PostgreSQL from elsewhere", now=now)
    run = run_once(subscribe(alice, now, source_ids=[source.pk]), now)
    assert list(run.items.values_list("title", flat=True)) == ["PostgreSQL from my source"]


def test_a_run_costs_a_constant_number_of_queries(alice, now, django_assert_max_num_queries):
    def queries_for(count: int) -> int:
        for n in range(count):
            add_item(f"PostgreSQL {count} note {n}", now=now)
        subscription = subscribe(alice, now, name=f"S{count}", max_items=30)
        run = request_manual_run(subscription, now=now)
        cache.clear()  # each run counts the pool in its window afresh (ingest/pool/size.py)
        # 24: the lease's fence is one (config/leases.py), the reader's feedback one, the
        # Apprise routes one (watches/apprise.py), the pool's size one.
        with django_assert_max_num_queries(24) as captured:
            runner.execute_run(run.pk, now=now)
        return len(captured.captured_queries)

    assert queries_for(3) == queries_for(25)


def test_executing_a_run_twice_delivers_once(alice, now):
    add_item("PostgreSQL once", now=now)
    run = request_manual_run(subscribe(alice, now), now=now)
    runner.execute_run(run.pk, now=now)
    runner.execute_run(run.pk, now=now)  # django-q2 may deliver a task twice
    assert RunItem.objects.count() == 1
    assert Run.objects.get().attempts == 1


def test_a_failed_run_is_retried_under_the_same_id_without_delivering_twice(
    alice, now, monkeypatch
):
    add_item("PostgreSQL retry", now=now)
    run = request_manual_run(subscribe(alice, now), now=now)

    def broken(*args, **kwargs):
        raise RuntimeError("database hiccup")

    monkeypatch.setattr(runner, "_deliver", broken)
    failed = runner.execute_run(run.pk, now=now)
    assert failed.status == "failed"
    assert "database hiccup" in failed.error
    assert RunItem.objects.count() == 0
    monkeypatch.undo()
    retried = runner.execute_run(run.pk, now=now + timedelta(minutes=1))
    assert retried.pk == run.pk
    assert retried.status == "succeeded"
    assert retried.attempts == 2
    assert RunItem.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_runs_of_one_user_never_deliver_the_same_item(alice, now):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    on_plan(alice, "pro", now=now)  # four subscriptions: more than the free plan's three
    for n in range(10):
        add_item(f"PostgreSQL shared {n}", now=now)
    runs = [
        request_manual_run(subscribe(alice, now, name=f"Sub {n}"), now=now).pk for n in range(4)
    ]
    outcomes = at_once(lambda run_id: runner.execute_run(run_id, now=now), runs)
    assert not [o for o in outcomes if isinstance(o, Exception)]
    assert Run.objects.filter(status="succeeded").count() == 4
    hashes = list(RunItem.objects.values_list("canonical_url_hash", flat=True))
    assert len(hashes) == 10
    assert len(set(hashes)) == 10


def test_subscription_status_shows_completed_after_a_one_off_run(alice, now):
    add_item("PostgreSQL one-off", now=now)
    subscription = subscribe(alice, now, cron="", run_at=(now + timedelta(hours=1)).isoformat())
    assert subscription.next_run_at == now + timedelta(hours=1)
    run_once(subscription, now + timedelta(hours=1))
    assert Subscription.objects.get().status == "completed"


def test_topic_only_runs_find_cjk_and_latin_interests_through_the_full_text_index(alice, now):
    add_item("人工智能周报", description="大模型的新进展", now=now)
    add_item("芯片", description="芯片变得更智能", now=now)
    add_item("Trusted builds", description="Nothing about the language", now=now)
    add_item("Rust 2026 edition ships", now=now)
    # No minimum score: every item the index finds is delivered, however weakly it matches.
    subscription = subscribe(
        alice, now, name="Mixed", interests=["人工智能", "智能", "Rust"], min_score=0
    )
    run = run_once(subscription, now)
    titles = set(run.items.values_list("title", flat=True))
    assert titles == {"人工智能周报", "芯片", "Rust 2026 edition ships"}


def test_why_selected_is_written_in_the_runs_language(alice, bob, now):
    from inbox.models import UserPreference

    UserPreference.objects.update_or_create(user=bob, defaults={"ui_locale": "zh-hans"})
    add_item("PostgreSQL 18 released", now=now)
    english = run_once(subscribe(alice, now), now).items.get()
    chinese = run_once(subscribe(bob, now), now).items.get()
    assert english.reason.startswith("matches PostgreSQL in the title")
    assert chinese.reason.startswith("标题中匹配 PostgreSQL")
    assert "发布于" in chinese.reason


def test_a_run_records_how_long_it_took(alice, now, monkeypatch):
    # started_at is when the attempt began (its `now`); finished_at adds the time it took,
    # read from the monotonic clock (here: 2.5 s pass while it scores).
    add_item("PostgreSQL 18 released", now=now)
    subscription = subscribe(alice, now)
    clock = iter([100.0, 102.5])
    monkeypatch.setattr(runner, "duration_clock", lambda: next(clock))
    run = run_once(subscription, now)
    assert run.started_at == now
    assert run.finished_at == now + timedelta(seconds=2.5)


def test_interests_and_a_source_deliver_their_real_matches_at_the_default_minimum(alice, now):
    """The default minimum score is set on the scale of the convex relevance curve: items that
    say one of two interests in their title, from the subscription's own source, are
    delivered; a passing mention elsewhere in the source is not."""
    from ingest.library.sources import add_to_library

    source = Source.objects.create(type="feed", config={"url": "x"}, config_hash="x" * 64)
    add_to_library(alice, source)
    for n in range(12):
        add_item(f"Team update {n}", description="Releases and meetups.", now=now, source=source)
    add_item("PostgreSQL vacuum explained", now=now, source=source, age_hours=3)
    add_item(
        "What vacuum does in PostgreSQL 18",
        description="A walk through its settings for large tables.",
        now=now,
        source=source,
        age_hours=20,
    )
    add_item(
        "Vacuum in PostgreSQL: a checklist against bloat",
        description="Watch the statistics, then reindex the large tables.",
        now=now,
        source=source,
        age_hours=40,
    )
    add_item(
        "Our week in engineering",
        description="Hiring, a new office, and a note that we also run PostgreSQL.",
        now=now,
        source=source,
        age_hours=1,
    )
    subscription = subscribe(alice, now, interests=["PostgreSQL", "vacuum"], source_ids=[source.pk])
    assert subscription.min_score == Subscription._meta.get_field("min_score").default
    run = run_once(subscription, now)
    titles = set(run.items.values_list("title", flat=True))
    assert titles == {
        "PostgreSQL vacuum explained",
        "What vacuum does in PostgreSQL 18",
        "Vacuum in PostgreSQL: a checklist against bloat",
    }


def test_a_preview_ranks_an_items_new_text_once_it_changes(alice, now):
    # Folded documents and what a query found in them are kept between previews (scoring.py):
    # by text, so an edited item is read again.
    item = add_item("PostgreSQL notes", now=now)
    add_item("PostgreSQL 18 released", description="What is new in PostgreSQL 18.", now=now)
    subscription = subscribe(alice, now, min_score=0)
    first = {c.item_id: c for c in runner.preview(subscription, now=now).selected}
    assert first[item.pk].field == "title"
    ContentItem.objects.filter(pk=item.pk).update(
        title="Notes", description="PostgreSQL vacuum, PostgreSQL indexes, PostgreSQL replication"
    )
    again = {c.item_id: c for c in runner.preview(subscription, now=now).selected}
    assert again[item.pk].field == "summary"
    assert again[item.pk].relevance != first[item.pk].relevance


def test_a_preview_counts_what_matched_below_the_minimum(alice, now):
    add_item("PostgreSQL 18 released", description="PostgreSQL PostgreSQL", now=now)
    add_item("Databases", description="Mentions PostgreSQL once in a long summary " * 5, now=now)
    add_item("Nothing relevant", now=now)
    everything = runner.preview(subscribe(alice, now, name="All", min_score=0), now=now)
    assert (everything.matched, everything.above_min_score) == (2, 2)
    assert everything.best_below_min is None
    low = min(c.overall for c in everything.selected)
    strict = runner.preview(subscribe(alice, now, name="Strict", min_score=low + 1), now=now)
    assert (strict.matched, strict.above_min_score, strict.best_below_min) == (2, 1, low)
