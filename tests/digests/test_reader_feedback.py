"""Read, saved and not-interested items shape the next run (digests/runs/scoring.Feedback):
through the real Inbox actions, a real run, and what "why selected" says."""

from __future__ import annotations

from datetime import timedelta

from digests.models import RunItem
from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from inbox.states import apply_action
from ingest.models import ContentItem
from tests.factories import add_item


def subscribe(user, now, **data):
    base = {"name": "Rust", "interests": ["Rust"], "cron": "0 8 * * *", "min_score": 0}
    base.update(data)
    return create_subscription(user, base, now=now)


def first_run(user, subscription, now, action, titles):
    """Run once, then take `action` on the delivered items titled `titles`."""
    run = runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)
    for run_item in RunItem.objects.filter(run=run, title__in=titles):
        apply_action(user, run_item, action, now=now)
    return run


def preview_by_title(subscription, now):
    selection = runner.preview(subscription, now=now)
    return {c.title: c for c in selection.selected}


def test_items_like_those_marked_not_interested_rank_lower_and_say_why(alice, now):
    add_item("Rust gamedev jam results", description="Game engines in Rust.", now=now)
    add_item("Rust gamedev: sprites", description="Game engines in Rust.", now=now)
    subscription = subscribe(alice, now)
    first_run(
        alice,
        subscription,
        now,
        "not_interested",
        ["Rust gamedev jam results", "Rust gamedev: sprites"],
    )
    later = now + timedelta(hours=3)
    add_item("Rust gamedev physics", description="Game engines in Rust.", now=later)
    add_item("Rust borrow checker notes", description="Lifetimes in Rust.", now=later)
    picked = preview_by_title(subscription, later)
    game, borrow = picked["Rust gamedev physics"], picked["Rust borrow checker notes"]
    assert "gamedev" in game.disliked and game.relevance < borrow.relevance
    assert "marked not interested (gamedev" in game.reason()
    assert borrow.disliked == [] and "not interested" not in borrow.reason()


def test_items_like_saved_ones_rank_higher_and_say_why(alice, now):
    add_item("Rust embedded on a microcontroller", description="Firmware in Rust.", now=now)
    add_item("Rust embedded HAL traits", description="Firmware in Rust.", now=now)
    subscription = subscribe(alice, now)
    first_run(
        alice,
        subscription,
        now,
        "save",
        ["Rust embedded on a microcontroller", "Rust embedded HAL traits"],
    )
    later = now + timedelta(hours=3)
    add_item("Rust embedded async", description="Firmware in Rust.", now=later)
    add_item("Rust web servers compared", description="Frameworks in Rust.", now=later)
    picked = preview_by_title(subscription, later)
    embedded, web = picked["Rust embedded async"], picked["Rust web servers compared"]
    assert embedded.liked and embedded.relevance > web.relevance
    assert "like items you saved or read (" in embedded.reason()


def test_a_source_the_reader_keeps_dismissing_weighs_less(alice, now):
    for n in range(2):
        item = add_item(f"Rust hot takes {n}", description="Opinions.", now=now)
        ContentItem.objects.filter(pk=item.pk).update(site_name="Loud Blog")
    subscription = subscribe(alice, now)
    first_run(alice, subscription, now, "not_interested", ["Rust hot takes 0", "Rust hot takes 1"])
    later = now + timedelta(hours=3)
    loud = add_item("Rust release notes", description="What changed.", now=later)
    ContentItem.objects.filter(pk=loud.pk).update(site_name="Loud Blog")
    quiet = add_item("Rust release roundup", description="What changed.", now=later)
    ContentItem.objects.filter(pk=quiet.pk).update(site_name="Quiet Blog")
    picked = preview_by_title(subscription, later)
    assert picked["Rust release notes"].muted_source == "Loud Blog"
    assert picked["Rust release notes"].relevance < picked["Rust release roundup"].relevance
    assert "items from Loud Blog not interested" in picked["Rust release notes"].reason()


def test_a_public_edition_is_not_shaped_by_its_owners_own_feedback(alice, now):
    add_item("Rust gamedev jam results", description="Game engines in Rust.", now=now)
    add_item("Rust gamedev: sprites", description="Game engines in Rust.", now=now)
    subscription = subscribe(alice, now)
    first_run(
        alice,
        subscription,
        now,
        "not_interested",
        ["Rust gamedev jam results", "Rust gamedev: sprites"],
    )
    later = now + timedelta(hours=3)
    add_item("Rust gamedev physics", description="Game engines in Rust.", now=later)
    _count, personal = runner.score_candidates(subscription, now=later)
    _count, public = runner.score_candidates(subscription, now=later, personal=False)
    assert {c.title: c.disliked for c in personal}["Rust gamedev physics"]
    assert {c.title: c.disliked for c in public}["Rust gamedev physics"] == []


def test_a_preview_costs_a_bounded_number_of_queries_whatever_the_feedback(
    alice, now, django_assert_max_num_queries
):
    """Sources, the index, the rows, the reader's feedback, their states; feedback words add
    one more index search and its rows: seven at most, for 60 items and 60 states as for one."""
    subscription = subscribe(alice, now)
    for n in range(60):
        add_item(f"Rust item {n}", description=f"Rust crates, topic {n % 7}", now=now)
    first_run(alice, subscription, now, "save", [f"Rust item {n}" for n in range(30)])
    first_run(alice, subscription, now, "not_interested", [f"Rust item {n}" for n in range(30, 60)])
    with django_assert_max_num_queries(7):
        selection = runner.preview(subscription, now=now + timedelta(hours=1))
    assert selection.candidates_count == 60
