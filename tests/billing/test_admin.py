"""Billing in the admin: credits move only through the ledger, with a reason; the ledger is
read-only; a tier change pauses what no longer fits; spend is summarised above the ledger."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from billing import charges
from billing.models import Account, CreditTransaction
from digests.subscriptions.service import create_subscription, request_manual_run
from tests.conftest import make_user


@pytest.fixture
def admin_client(client, db, now):
    staff = make_user("root@example.com", now=now)
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client.force_login(staff)
    client.staff = staff
    return client


def credit_form(admin_client, account, **data):
    url = reverse("admin:billing_account_credit", args=[account.pk])
    page = admin_client.get(url).content.decode()
    key = page.split('name="key" value="')[1].split('"')[0]
    return admin_client.post(url, {"key": key, **data})


def test_a_grant_is_a_ledger_row_with_its_reason_and_author(admin_client, alice):
    account = Account.objects.get(user=alice)
    response = credit_form(admin_client, account, kind="grant", amount=40, reason="Beta tester")
    assert response.status_code == 302
    grant = CreditTransaction.objects.get(kind="grant")
    assert (grant.amount, grant.reason, grant.actor) == (40, "Beta tester", admin_client.staff)
    account.refresh_from_db()
    assert account.balance == 140


def test_a_grant_without_a_reason_or_an_overdrawing_adjustment_is_refused(admin_client, alice):
    account = Account.objects.get(user=alice)
    page = credit_form(admin_client, account, kind="grant", amount=40, reason="")
    assert page.status_code == 200 and "This field is required" in page.content.decode()
    page = credit_form(admin_client, account, kind="adjustment", amount=-500, reason="oops")
    assert "cannot take it below zero" in page.content.decode()
    assert CreditTransaction.objects.filter(account=account).count() == 1


def test_a_double_submitted_form_posts_once(admin_client, alice):
    account = Account.objects.get(user=alice)
    url = reverse("admin:billing_account_credit", args=[account.pk])
    data = {"key": "same-form", "kind": "grant", "amount": 5, "reason": "twice"}
    admin_client.post(url, data)
    admin_client.post(url, data)
    assert CreditTransaction.objects.filter(kind="grant").count() == 1


def test_the_ledger_cannot_be_added_to_changed_or_deleted_in_the_admin(admin_client, alice):
    row = CreditTransaction.objects.get(account__user=alice)
    change = reverse("admin:billing_credittransaction_change", args=[row.pk])
    assert admin_client.post(change, {"amount": 1000}).status_code == 403
    delete = reverse("admin:billing_credittransaction_delete", args=[row.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert admin_client.get(reverse("admin:billing_credittransaction_add")).status_code == 403
    row.refresh_from_db()
    assert row.amount == 100
    # The balance is not a form field either.
    account = Account.objects.get(user=alice)
    page = admin_client.get(reverse("admin:billing_account_change", args=[account.pk]))
    assert 'name="balance"' not in page.content.decode()


def test_changing_the_tier_in_the_admin_pauses_what_no_longer_fits(admin_client, alice, now):
    account = Account.objects.get(user=alice)
    url = reverse("admin:billing_account_change", args=[account.pk])
    admin_client.post(url, {"tier": "team"})
    often = create_subscription(
        alice, {"name": "Often", "interests": ["x"], "cron": "*/5 * * * *"}, now=now
    )
    response = admin_client.post(url, {"tier": "free"}, follow=True)
    assert "Paused 1 subscription that no longer fits the plan." in response.content.decode()
    often.refresh_from_db()
    assert (often.status, often.paused_reason) == ("paused", "plan_interval")
    account.refresh_from_db()
    assert account.tier == "free"


def test_the_ledger_list_shows_spend_by_operation_and_by_user(admin_client, alice, now):
    subscription = create_subscription(
        alice, {"name": "DB", "interests": ["x"], "cron": "0 8 * * *"}, now=now
    )
    run = request_manual_run(subscription, now=now)
    charges.settle(run, breakdown={"operations": {"page_fetch": 4}}, delivered=2, now=now)
    CreditTransaction.objects.update(created_at=timezone.now())  # the summary is this month's
    body = admin_client.get(reverse("admin:billing_credittransaction_changelist")).content
    body = body.decode()
    assert 'id="billing-spend"' in body
    assert "alice@example.com" in body
    assert "4 credits spent by users" in body
