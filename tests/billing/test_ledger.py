"""The ledger: append-only rows with unique keys, a balance that is always the sum of the
period's rows, never below zero, and staff grants and adjustments with a reason."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction

from billing import ledger
from billing.accounts import ensure_account
from billing.models import Account, CreditTransaction
from tests.threads import at_once

Kind = CreditTransaction.Kind


def account_of(user, now) -> Account:
    return ensure_account(user, now=now)


def test_a_new_account_opens_with_its_first_periods_credits_in_the_ledger(alice, now):
    account = account_of(alice, now)
    assert (account.tier, account.balance, account.monthly_quota) == ("free", 100, 100)
    assert (account.period_start, account.period_end) == (now.date(), now.date().replace(month=12))
    [opening] = CreditTransaction.objects.filter(account=account)
    assert (opening.kind, opening.amount, opening.balance_after) == ("monthly_reset", 100, 100)
    assert ledger.check_balance(account)


def test_a_user_made_outside_sign_up_gets_an_account_on_first_use(db, now, django_user_model):
    admin = django_user_model.objects.create_user("root@example.com", "root@example.com", "x" * 12)
    assert not Account.objects.filter(user=admin).exists()
    account = ensure_account(admin, now=now)
    assert account.balance == 100 and ensure_account(admin, now=now).pk == account.pk
    assert CreditTransaction.objects.filter(account=account).count() == 1


def test_posting_twice_with_one_key_writes_one_row_and_moves_the_balance_once(alice, now):
    account = account_of(alice, now)
    first = ledger.post(account.pk, kind=Kind.CHARGE, amount=-7, key="charge:run:1", now=now)
    again = ledger.post(account.pk, kind=Kind.CHARGE, amount=-7, key="charge:run:1", now=now)
    assert first.created and not again.created
    assert again.row.pk == first.row.pk
    account.refresh_from_db()
    assert account.balance == 93
    assert first.row.balance_after == 93
    assert ledger.check_balance(account)


def test_the_key_is_unique_in_the_database_not_only_in_code(alice, bob, now):
    ledger.post(account_of(alice, now).pk, kind=Kind.GRANT, amount=5, key="same", now=now)
    with pytest.raises(IntegrityError), transaction.atomic():
        CreditTransaction.objects.create(
            account=account_of(bob, now),
            kind=Kind.GRANT,
            amount=5,
            idempotency_key="same",
            created_at=now,
        )


def test_a_debit_beyond_the_balance_is_refused_and_writes_nothing(alice, now):
    account = account_of(alice, now)
    with pytest.raises(ledger.InsufficientCredits) as refused:
        ledger.post(account.pk, kind=Kind.CHARGE, amount=-101, key="too-much", now=now)
    assert (refused.value.needed, refused.value.available) == (101, 100)
    account.refresh_from_db()
    assert account.balance == 100
    assert not CreditTransaction.objects.filter(idempotency_key="too-much").exists()


def test_the_database_refuses_a_negative_user_balance(alice, now):
    account = account_of(alice, now)
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(pk=account.pk).update(balance=-1)


def test_the_balance_is_the_sum_of_the_periods_rows_through_every_kind(alice, now):
    account = account_of(alice, now)
    ledger.post(account.pk, kind=Kind.CHARGE, amount=-12, key="c1", now=now)
    ledger.post(account.pk, kind=Kind.REFUND, amount=12, key="r1", now=now)
    ledger.post(account.pk, kind=Kind.CHARGE, amount=-5, key="c2", now=now)
    ledger.grant_or_adjust(
        account.pk,
        kind=Kind.GRANT,
        amount=50,
        reason="Sorry for the outage",
        actor=None,
        now=now,
        key="g1",
    )
    ledger.grant_or_adjust(
        account.pk,
        kind=Kind.ADJUSTMENT,
        amount=-20,
        reason="Duplicate grant",
        actor=None,
        now=now,
        key="a1",
    )
    account.refresh_from_db()
    assert account.balance == 100 - 12 + 12 - 5 + 50 - 20
    assert ledger.check_balance(account)
    # Each row carries the balance it left, in order.
    afters = list(
        CreditTransaction.objects.filter(account=account)
        .order_by("id")
        .values_list("balance_after", flat=True)
    )
    assert afters == [100, 88, 100, 95, 145, 125]


@pytest.mark.parametrize(
    ("kind", "amount", "reason", "field"),
    [
        ("grant", 10, "  ", "reason"),
        ("grant", -10, "taking back", "amount"),
        ("adjustment", 0, "nothing", "amount"),
        ("charge", 10, "not a staff kind", "kind"),
        ("adjustment", -101, "more than the balance", "amount"),
    ],
)
def test_staff_grants_and_adjustments_need_a_reason_and_keep_the_rules(
    alice, now, kind, amount, reason, field
):
    account = account_of(alice, now)
    with pytest.raises(ledger.LedgerInputError) as refused:
        ledger.grant_or_adjust(
            account.pk, kind=kind, amount=amount, reason=reason, actor=None, now=now, key="k"
        )
    assert field in refused.value.errors
    assert CreditTransaction.objects.filter(account=account).count() == 1
    account.refresh_from_db()
    assert account.balance == 100


def test_a_posting_after_the_period_ended_lands_in_the_new_period(alice, now):
    account = account_of(alice, now)
    ledger.post(account.pk, kind=Kind.CHARGE, amount=-30, key="old", now=now)
    later = now + timedelta(days=31)
    ledger.post(account.pk, kind=Kind.CHARGE, amount=-4, key="new", now=later)
    account.refresh_from_db()
    assert (account.period_start, account.balance) == (now.date().replace(month=12), 96)
    new_period = CreditTransaction.objects.filter(period_start=account.period_start)
    assert sorted(new_period.values_list("kind", "amount")) == [
        ("charge", -4),
        ("monthly_reset", 100),
    ]
    assert ledger.check_balance(account)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_debits_never_overdraw(alice, now):
    """20 threads on their own connections each try to take 7 credits from 100 at once: the
    account's row lock lets 14 through and refuses the rest; the balance ends at 2."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    account = account_of(alice, now)

    def debit(n: int) -> str:
        ledger.post(account.pk, kind=Kind.CHARGE, amount=-7, key=f"debit:{n}", now=now)
        return "ok"

    outcomes = at_once(debit, range(20))
    refused = [o for o in outcomes if isinstance(o, ledger.InsufficientCredits)]
    assert (outcomes.count("ok"), len(refused)) == (14, 6)
    account.refresh_from_db()
    assert account.balance == 2
    assert ledger.check_balance(account)
