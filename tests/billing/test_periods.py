"""Account periods and the monthly reset: per account, from the day it opened; idempotent."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.db import connection

from billing import ledger, periods
from billing.accounts import ensure_account
from billing.models import Account, CreditTransaction
from digests.tasks import dispatch_tick
from tests.conftest import make_user
from tests.threads import at_once

Kind = CreditTransaction.Kind


@pytest.mark.parametrize(
    ("anchor", "today", "start", "end"),
    [
        (20, date(2026, 11, 20), date(2026, 11, 20), date(2026, 12, 20)),
        (20, date(2026, 11, 19), date(2026, 10, 20), date(2026, 11, 20)),
        (31, date(2027, 2, 27), date(2027, 1, 31), date(2027, 2, 28)),
        (31, date(2027, 2, 28), date(2027, 2, 28), date(2027, 3, 31)),
        (30, date(2028, 2, 29), date(2028, 2, 29), date(2028, 3, 30)),
        (1, date(2026, 12, 31), date(2026, 12, 1), date(2027, 1, 1)),
    ],
)
def test_a_period_is_a_month_from_the_accounts_day_clamped_to_short_months(
    anchor, today, start, end
):
    assert periods.period_containing(anchor, today) == (start, end)


def spend(account, amount, now, key):
    ledger.post(account.pk, kind=Kind.CHARGE, amount=-amount, key=key, now=now)


def test_the_reset_job_starts_ended_periods_once_and_credits_do_not_roll_over(alice, bob, now):
    mine, theirs = ensure_account(alice, now=now), ensure_account(bob, now=now)
    spend(mine, 60, now, "a")
    later = now + timedelta(days=30)  # alice's and bob's period ends on Dec 20
    assert periods.resets_due(now=later)

    assert periods.reset_due_accounts(now=later) == 2
    assert periods.reset_due_accounts(now=later) == 0  # run twice: grants once
    assert periods.reset_due_accounts(now=later + timedelta(hours=5)) == 0

    mine.refresh_from_db()
    assert (mine.period_start, mine.period_end, mine.balance) == (
        date(2026, 12, 20),
        date(2027, 1, 20),
        100,  # not 140: unused credits do not carry over
    )
    resets = CreditTransaction.objects.filter(account=mine, kind=Kind.MONTHLY_RESET)
    assert resets.count() == 2
    theirs.refresh_from_db()
    assert (theirs.period_start, theirs.balance) == (date(2026, 12, 20), 100)
    assert ledger.check_balance(mine)
    assert not periods.resets_due(now=later)


def test_an_idle_account_jumps_to_the_current_period_with_one_reset(alice, now):
    account = ensure_account(alice, now=now)
    much_later = now + timedelta(days=100)
    periods.reset_due_accounts(now=much_later)
    account.refresh_from_db()
    assert (account.period_start, account.period_end) == (date(2027, 2, 20), date(2027, 3, 20))
    assert CreditTransaction.objects.filter(account=account, kind=Kind.MONTHLY_RESET).count() == 2


def test_an_account_that_posts_before_the_job_runs_is_reset_first_and_once(alice, now):
    account = ensure_account(alice, now=now)
    later = now + timedelta(days=30, minutes=5)
    spend(account, 3, later, "lazy")  # resets lazily, under the lock, then charges
    periods.reset_due_accounts(now=later)  # finds nothing left to do
    account.refresh_from_db()
    assert account.balance == 97
    assert CreditTransaction.objects.filter(account=account, kind=Kind.MONTHLY_RESET).count() == 2
    assert ledger.check_balance(account)


def test_the_platform_account_has_no_periods(db, now):
    from billing.accounts import platform_account

    platform = platform_account(now=now)
    assert not periods.resets_due(now=now + timedelta(days=400))
    assert periods.reset_due_accounts(now=now + timedelta(days=400)) == 0
    assert platform_account(now=now).pk == platform.pk


def test_the_dispatcher_tick_enqueues_the_reset_and_it_runs(alice, now):
    ensure_account(alice, now=now)
    with time_machine.travel(datetime(2026, 12, 20, 0, 1, tzinfo=UTC), tick=False):
        dispatch_tick()  # the test settings run django-q2 tasks inline
    account = Account.objects.get(user=alice)
    assert account.period_start == date(2026, 12, 20)
    assert CreditTransaction.objects.filter(account=account, kind=Kind.MONTHLY_RESET).count() == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_reset_jobs_at_once_grant_each_account_once(now):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    for n in range(30):
        make_user(f"user{n}@example.com", now=now)
    later = now + timedelta(days=31)
    outcomes = at_once(lambda _job: periods.reset_due_accounts(now=later, batch=7), range(3))
    assert sum(outcomes) == 30  # each account reset by exactly one of the jobs
    assert CreditTransaction.objects.filter(kind=Kind.MONTHLY_RESET).count() == 60
    assert not periods.resets_due(now=later)
    assert all(ledger.check_balance(account) for account in Account.objects.all())
