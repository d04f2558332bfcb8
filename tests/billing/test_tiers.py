"""Changing tiers cannot mint credits: a period is granted at most the monthly credits of the
highest tier it was on, however often the tier flips (billing/tiers.py)."""

from __future__ import annotations

from datetime import timedelta

from billing.accounts import ensure_account
from billing.ledger import check_balance
from billing.models import Account, CreditTransaction
from billing.tiers import change_tier


def test_five_free_to_pro_flips_in_one_period_grant_pro_credits_once(alice, now):
    account = ensure_account(alice, now=now)
    granted = []
    for flip in range(5):
        at = now + timedelta(minutes=flip)
        granted.append(change_tier(account.pk, "pro", now=at).granted)
        change_tier(account.pk, "free", now=at + timedelta(seconds=30))
    account.refresh_from_db()
    assert granted == [19_900, 0, 0, 0, 0]
    assert account.balance == 20_000  # the free reset (100) + one upgrade grant
    assert CreditTransaction.objects.filter(account=account, kind="grant").count() == 1
    assert check_balance(account)


def test_climbing_tiers_grants_only_the_difference_to_the_highest(alice, now):
    account = ensure_account(alice, now=now)
    assert change_tier(account.pk, "basic", now=now).granted == 4_900
    assert change_tier(account.pk, "team", now=now).granted == 55_000
    change_tier(account.pk, "free", now=now)
    assert change_tier(account.pk, "pro", now=now).granted == 0  # team's credits already given
    account.refresh_from_db()
    assert account.balance == 60_000


def test_a_downgrade_keeps_this_periods_credits_and_the_next_reset_grants_the_lower_tier(
    alice, now
):
    account = ensure_account(alice, now=now)
    change_tier(account.pk, "pro", now=now)
    change_tier(account.pk, "free", now=now + timedelta(days=1))
    account.refresh_from_db()
    assert (account.tier, account.monthly_quota, account.balance) == ("free", 100, 20_000)
    # The next period: free's credits, and an upgrade then grants pro's again (a new period).
    next_period = now + timedelta(days=40)
    change_tier(account.pk, "pro", now=next_period)
    account = Account.objects.get(pk=account.pk)
    assert account.balance == 20_000
    resets = CreditTransaction.objects.filter(account=account, kind="monthly_reset")
    assert sorted(resets.values_list("amount", flat=True)) == [100, 100]
    assert check_balance(account)
