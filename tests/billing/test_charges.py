"""One charge per run: the budget check before it, the charge when it ends, refunds, retries,
redeliveries and concurrent workers — all read from the ledger."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse

from billing import charges, ledger, prices
from billing.accounts import ensure_account
from billing.models import Account, CreditHold, CreditTransaction
from digests.models import Run, RunItem
from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run, retry_run
from ingest.library.sources import add_to_library
from ingest.models import ContentItem, Source
from tests.conftest import api_client_for
from tests.factories import add_item, on_plan
from tests.threads import at_once

Kind = CreditTransaction.Kind


@pytest.fixture(autouse=True)
def search_collector():
    """The on-run search collector the ingest app registers (another test may swap it)."""
    from ingest.search.service import register_on_run_collector

    register_on_run_collector()
    yield
    register_on_run_collector()


def pool_search(user, query="PostgreSQL") -> Source:
    """An on-run search of the shared pool: each run meters one search (1 credit)."""
    source = Source.objects.create(
        type="search",
        config={"provider": "pool", "query": query},
        config_hash=f"pool-{query}".ljust(64, "x")[:64],
        refresh_mode="on_run",
    )
    add_to_library(user, source)
    return source


def paid_subscription(user, now, **data):
    """A subscription whose runs cost 1 credit (one on-run search)."""
    base = {
        "name": "Databases",
        "interests": ["PostgreSQL"],
        "cron": "0 8 * * *",
        "source_ids": [pool_search(user).pk],
    }
    return create_subscription(user, {**base, **data}, now=now)


def run_now(subscription, now) -> Run:
    return runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)


def ledger_rows(user) -> list[tuple[str, int, int | None]]:
    return list(
        CreditTransaction.objects.filter(account__user=user)
        .order_by("id")
        .values_list("kind", "amount", "run_id")
    )


def balance(user) -> int:
    return Account.objects.get(user=user).balance


def test_a_run_that_delivered_is_charged_once_for_its_operations(alice, now):
    add_item("PostgreSQL 18 released", now=now)
    run = run_now(paid_subscription(alice, now), now)

    assert run.status == "succeeded" and run.delivered_count == 1
    assert ledger_rows(alice)[1:] == [("charge", -1, run.pk)]
    charge = CreditTransaction.objects.get(kind=Kind.CHARGE)
    assert charge.idempotency_key == f"charge:run:{run.pk}"
    assert charge.breakdown["operations"]["search"] == 1
    assert charge.breakdown["cache_hits"]["search"] == 1  # the pool answered: charged all the same
    assert charge.breakdown["prices"] == prices.PRICES
    assert balance(alice) == 99
    assert ledger.check_balance(Account.objects.get(user=alice))
    assert not CreditHold.objects.exists()  # released with the charge


def test_executing_a_finished_run_again_charges_nothing_more(alice, now):
    add_item("PostgreSQL 18 released", now=now)
    run = run_now(paid_subscription(alice, now), now)
    for _ in range(2):  # a redelivered task, a second worker
        runner.execute_run(run.pk, now=now + timedelta(minutes=1))
    assert [row[0] for row in ledger_rows(alice)] == ["monthly_reset", "charge"]
    assert balance(alice) == 99


def test_a_failed_attempt_is_not_charged_and_its_retry_is_charged_once(alice, now, monkeypatch):
    add_item("PostgreSQL 18 released", now=now)
    run = request_manual_run(paid_subscription(alice, now), now=now)

    def broken(*args, **kwargs):
        raise RuntimeError("database hiccup")

    with monkeypatch.context() as patch:
        patch.setattr(runner, "_deliver", broken)
        failed = runner.execute_run(run.pk, now=now)
    assert failed.status == "failed"
    assert failed.billing_breakdown["total"] == 1  # metered, shown, but not charged
    assert ledger_rows(alice) == [("monthly_reset", 100, None)]
    assert not CreditHold.objects.exists()  # the failed attempt's hold was released

    retry_run(failed, now=now)
    retried = runner.execute_run(run.pk, now=now + timedelta(minutes=1))
    assert retried.status == "succeeded"
    runner.execute_run(run.pk, now=now + timedelta(minutes=2))  # and once more, by mistake
    assert ledger_rows(alice)[1:] == [("charge", -1, run.pk)]
    assert balance(alice) == 99


def test_a_run_that_delivered_nothing_is_refunded_at_once(alice, now):
    run = run_now(paid_subscription(alice, now), now)  # an empty pool: nothing to deliver

    assert run.status == "succeeded" and run.delivered_count == 0
    assert ledger_rows(alice)[1:] == [("charge", -1, run.pk), ("refund", 1, run.pk)]
    assert balance(alice) == 100
    runner.execute_run(run.pk, now=now)
    assert len(ledger_rows(alice)) == 3  # the refund is keyed by run too


def test_a_degraded_run_is_charged_and_not_refunded(alice, now, monkeypatch):
    """A run that delivered fewer items than it could, with fallback summaries: still charged."""
    add_item("PostgreSQL 18 released", now=now)
    monkeypatch.setattr(runner.llm, "is_configured", lambda: False)  # template narrative only
    run = run_now(paid_subscription(alice, now, max_items=5), now)
    assert run.delivered_count == 1 and run.narrative_generator == "template"
    assert [row[0] for row in ledger_rows(alice)] == ["monthly_reset", "charge"]


def test_a_run_that_costs_nothing_writes_nothing_to_the_ledger(alice, now):
    add_item("PostgreSQL 18 released", now=now)
    subscription = create_subscription(
        alice, {"name": "Free", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    assert prices.upper_bound(subscription) == 0
    run = run_now(subscription, now)
    assert run.delivered_count == 1
    assert ledger_rows(alice) == [("monthly_reset", 100, None)]


def drain(user, now, leave: int) -> None:
    account = ensure_account(user, now=now)
    ledger.grant_or_adjust(
        account.pk,
        kind=Kind.ADJUSTMENT,
        amount=leave - account.balance,
        reason="test: spend it all",
        actor=None,
        now=now,
        key=f"drain:{user.pk}:{leave}",
    )


def test_a_run_the_balance_cannot_cover_does_not_start_and_costs_nothing(alice, now):
    add_item("PostgreSQL 18 released", now=now)
    subscription = paid_subscription(alice, now)
    drain(alice, now, leave=0)
    before = ledger_rows(alice)

    run = run_now(subscription, now)

    assert run.status == "failed"
    assert run.error_code == "insufficient_credits"
    assert run.billing_breakdown["budget"] == {"needed": 1, "available": 0}
    assert run.billing_breakdown["total"] == 0  # it did no work
    assert "Not enough credits" in run.error
    assert not RunItem.objects.exists()
    assert ledger_rows(alice) == before
    assert not CreditHold.objects.exists()

    # The user reads why, in the run history and in the API.
    api = api_client_for(alice)
    body = api.get(f"/api/v1/subscriptions/{subscription.pk}/runs").json()["results"][0]
    assert (body["status"], body["error_code"], body["credits_charged"]) == (
        "failed",
        "insufficient_credits",
        0,
    )
    console = Client()
    console.force_login(alice)
    page = console.get(reverse("digests:detail", args=[subscription.pk])).content.decode()
    assert "Not started: this run can cost up to 1 credits and 0 were available." in page

    # With credits again, a retry runs under the same id and is charged once.
    ledger.grant_or_adjust(
        ensure_account(alice, now=now).pk,
        kind=Kind.GRANT,
        amount=5,
        reason="goodwill",
        actor=None,
        now=now,
        key="goodwill",
    )
    retry_run(run, now=now)
    retried = runner.execute_run(run.pk, now=now)
    assert retried.status == "succeeded" and retried.error_code == ""
    assert ledger_rows(alice)[-1] == ("charge", -1, run.pk)
    assert balance(alice) == 4


def test_other_runs_holds_count_against_the_balance(alice, now):
    subscription = paid_subscription(alice, now)
    drain(alice, now, leave=1)
    first, second = (request_manual_run(subscription, now=now) for _ in range(2))

    assert charges.reserve(first, subscription, now=now).ok
    refused = charges.reserve(second, subscription, now=now)
    assert (refused.ok, refused.needed, refused.available) == (False, 1, 0)
    # A hold whose worker died stops counting once it expires.
    assert charges.reserve(second, subscription, now=now + charges.HOLD_TTL + timedelta(1)).ok


def test_a_hold_outlives_a_run_and_a_run_taken_over_renews_its_own(alice, now):
    from django.conf import settings

    assert timedelta(seconds=settings.Q_CLUSTER["timeout"]) < charges.HOLD_TTL
    subscription = paid_subscription(alice, now)
    drain(alice, now, leave=1)
    run = request_manual_run(subscription, now=now)
    assert charges.reserve(run, subscription, now=now).ok
    assert charges.reserve(run, subscription, now=now + timedelta(minutes=16)).ok  # same run
    assert CreditHold.objects.get().expires_at == now + timedelta(minutes=16) + charges.HOLD_TTL


def test_a_charge_never_takes_the_balance_below_zero(alice, now):
    """Only if a hold expired mid-run and the balance went elsewhere: the platform absorbs it."""
    subscription = paid_subscription(alice, now)
    run = request_manual_run(subscription, now=now)
    drain(alice, now, leave=2)
    net = charges.settle(run, breakdown={"operations": {"search": 5}}, delivered=3, now=now)
    assert net == 2
    charge = CreditTransaction.objects.get(kind=Kind.CHARGE)
    assert (charge.amount, charge.breakdown["capped_from"]) == (-2, 5)
    assert balance(alice) == 0


@override_settings(FULLTEXT_TOP_K=3)
def test_full_text_the_pool_already_has_is_charged_as_a_cache_hit(alice, now):
    for n in range(2):
        item = add_item(f"PostgreSQL tip {n}", now=now)
        ContentItem.objects.filter(pk=item.pk).update(full_text="Text " * 50, full_text_at=now)
    subscription = create_subscription(
        alice, {"name": "Tips", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    assert prices.upper_bound(subscription) == 6  # 3 candidates × (fetch + extract)
    run = run_now(subscription, now)
    charge = CreditTransaction.objects.get(kind=Kind.CHARGE)
    assert charge.amount == -4  # two cached texts: 2 fetches + 2 extractions
    assert charge.breakdown["cache_hits"] == {
        "search": 0,
        "page_fetch": 2,
        "crawl": 0,
        "extract": 2,
    }
    assert run.delivered_count == 2


def test_prices_cover_every_metered_kind():
    from digests.runs.meter import KINDS

    assert set(prices.PRICES) == set(KINDS)
    assert prices.price({"operations": {"search": 2, "page_fetch": 3, "extract": 1}}) == 6


def test_an_edition_is_paid_by_the_platform_never_by_its_owner(alice, now):
    from topics import editions, publishing
    from topics.publishing import PublishInput

    source = Source.objects.create(
        type="feed", config={"url": "https://db.example/feed"}, config_hash="f" * 64
    )
    add_to_library(alice, source)
    subscription = create_subscription(
        alice,
        {"name": "DB", "interests": ["PostgreSQL"], "cron": "0 8 * * *", "source_ids": [source.pk]},
        now=now,
    )
    topic = publishing.publish(alice, subscription, PublishInput(title="Databases"), now=now)
    add_item("PostgreSQL 18 released", now=now, source=source)
    before = ledger_rows(alice)

    edition = editions.produce_edition(topic.pk, now=now)
    editions.produce_edition(topic.pk, now=now)  # a second delivery of the task

    assert edition.status == "succeeded"
    assert ledger_rows(alice) == before
    [row] = CreditTransaction.objects.filter(account__kind=Account.Kind.PLATFORM)
    assert (row.kind, row.idempotency_key) == ("charge", f"charge:edition:{edition.pk}")
    assert row.breakdown["edition_id"] == edition.pk


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_runs_of_one_user_never_spend_more_than_the_balance(alice, now, monkeypatch):
    """Eight runs of one user start at once with 3 credits and an upper bound of 1 each: three
    pass the budget check, five are refused before doing anything, and every run that ran is
    charged exactly once. All eight budget checks happen before any run goes on (a run that
    finished early and was refunded would free its credit for a later one)."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    on_plan(alice, "pro", now=now)
    add_item("PostgreSQL 18 released", now=now)
    subscription = paid_subscription(alice, now)
    drain(alice, now, leave=3)
    runs = [request_manual_run(subscription, now=now).pk for _ in range(8)]
    checked = threading.Barrier(len(runs))
    real_reserve = charges.reserve

    def reserve_then_wait_for_the_others(*args, **kwargs):
        reservation = real_reserve(*args, **kwargs)
        checked.wait(timeout=30)
        return reservation

    monkeypatch.setattr(charges, "reserve", reserve_then_wait_for_the_others)
    outcomes = at_once(lambda run_id: runner.execute_run(run_id, now=now), runs)
    assert not [o for o in outcomes if isinstance(o, Exception)]
    refused = Run.objects.filter(error_code="insufficient_credits")
    succeeded = Run.objects.filter(status="succeeded")
    assert (succeeded.count(), refused.count()) == (3, 5)
    charged = CreditTransaction.objects.filter(kind=Kind.CHARGE)
    assert sorted(charged.values_list("run_id", flat=True)) == sorted(
        succeeded.values_list("pk", flat=True)
    )
    assert balance(alice) >= 0
    assert ledger.check_balance(Account.objects.get(user=alice))
    assert not CreditHold.objects.exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_on_one_run_charge_it_once(alice, now):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent workers need PostgreSQL")
    add_item("PostgreSQL 18 released", now=now)
    run = request_manual_run(paid_subscription(alice, now), now=now)
    outcomes = at_once(lambda _worker: runner.execute_run(run.pk, now=now), range(4))
    assert not [o for o in outcomes if isinstance(o, Exception)]
    assert CreditTransaction.objects.filter(kind=Kind.CHARGE, run_id=run.pk).count() == 1
    assert balance(alice) == 99


def test_the_budget_check_and_the_charge_cost_a_few_queries_each(
    alice, now, django_assert_max_num_queries
):
    subscription = paid_subscription(alice, now)
    run = request_manual_run(subscription, now=now)
    with django_assert_max_num_queries(4):  # sources, lock, other holds, hold upsert
        assert charges.reserve(run, subscription, now=now).ok
    with django_assert_max_num_queries(5):  # lock, key check, insert, balance, hold release
        charges.settle(run, breakdown={"operations": {"search": 1}}, delivered=1, now=now)
    with django_assert_max_num_queries(1):  # nothing to charge: the hold released, no row
        charges.settle(run, breakdown={"operations": {}}, delivered=1, now=now)


@override_settings(FULLTEXT_TOP_K=3)
def test_a_run_never_pays_full_text_for_items_the_reader_already_received(alice, now):
    """Per-user dedup drops what the reader has had; its full text must not be fetched and
    charged first (the reader pays only for what is delivered to them)."""

    def item_with_text(title, when):
        item = add_item(title, now=when)
        ContentItem.objects.filter(pk=item.pk).update(full_text="Text " * 50, full_text_at=when)

    for n in range(2):
        item_with_text(f"PostgreSQL tip {n}", now)
    subscription = create_subscription(
        alice, {"name": "Tips", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    first = run_now(subscription, now)
    assert first.delivered_count == 2

    later = now + timedelta(hours=2)
    item_with_text("PostgreSQL tip 2", later)
    second = run_now(subscription, later)

    assert second.delivered_count == 1 and second.dedup_skipped_count == 2
    charge = CreditTransaction.objects.get(kind=Kind.CHARGE, run=second)
    assert charge.amount == -2  # the one delivered item's fetch and extraction, nothing more
    assert charge.breakdown["operations"]["page_fetch"] == 1
