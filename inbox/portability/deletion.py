"""Deleting an account (SPEC §13): everything personal goes, in one transaction.

The rule, row by row:
- the user's own data is deleted: subscriptions (with their sources' links, webhooks and
  deliveries), runs and run items, content states, preferences, API tokens, transfer codes,
  import records, the source library (`UserSource` — never the shared `Source`), publish
  events, the billing account with its ledger rows and holds;
- the ledger is first added into `billing.RetiredLedgerTotal`: per calendar month, tier and kind
  of row, the amount, the number of rows and of accounts — totals shared with every other
  deleted account, with no user, run or row id in them — so the platform's spend figures for
  past months keeps what was spent and nothing about the person remains;
- public topics they own are deleted the way their owner deletes one (`status = deleted`: the
  page answers 410, the topic leaves every list, sitemap and feed, no more editions) and keep
  no owner (`owner = NULL`); followers keep their subscriptions, which stop receiving editions.
  Topics are not handed to anyone: nobody else agreed to publish them;
- references others hold are cut, not deleted: a report they filed, a moderation action or
  ledger grant they made as staff keep their row without them (`SET NULL`);
- the shared pool (sources, items, summaries, editions) is untouched, but for the user's
  newsletter sources and the issues only they carried: that is the user's mail
  (`ingest.newsletters.addresses.delete_newsletters`).

`tests/inbox/test_account_deletion.py` walks every foreign key and many-to-many to the user
model and checks that no row refers to a deleted user.
"""

from __future__ import annotations

from datetime import date, datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, F, Sum
from django.db.models.functions import TruncMonth
from django.utils.translation import gettext as _

from billing.models import Account, CreditTransaction, RetiredLedgerTotal
from config.api.errors import ServiceRefusal
from ingest.newsletters.addresses import delete_newsletters
from topics import page_cache
from topics.models import Topic


class DeletionRefused(ServiceRefusal):
    code = "invalid"


def _retire_ledger(account: Account) -> None:
    totals = (
        CreditTransaction.objects.filter(account=account)
        .annotate(month=TruncMonth("created_at"))
        .values("month", "kind")
        .annotate(amount=Sum("amount"), rows=Count("id"))
    )
    for total in totals:
        month = total["month"]
        month = date(month.year, month.month, 1)
        key = {"month": month, "tier": account.tier, "kind": total["kind"]}
        RetiredLedgerTotal.objects.get_or_create(**key)
        RetiredLedgerTotal.objects.filter(**key).update(
            amount=F("amount") + total["amount"],
            rows=F("rows") + total["rows"],
            accounts=F("accounts") + 1,
        )


def take_down_owned_topics(user, *, now: datetime) -> int:
    """The user's topics deleted (410) and released from them; returns how many were live."""
    live = Topic.objects.filter(owner=user).exclude(status=Topic.Status.DELETED)
    count = live.update(status=Topic.Status.DELETED, deleted_at=now, next_edition_at=None)
    Topic.objects.filter(owner=user).update(owner=None)
    page_cache.invalidate()
    return count


def delete_account(user, *, password: str, now: datetime) -> None:
    """Delete `user` and their data after checking their password; refuses with
    DeletionRefused (naming `password`) and changes nothing otherwise."""
    if not password or not user.check_password(password):
        raise DeletionRefused({"password": _("That is not your password; nothing was deleted.")})
    with transaction.atomic():
        account = Account.objects.select_for_update().filter(user=user).first()
        if account is not None:
            _retire_ledger(account)
        take_down_owned_topics(user, now=now)
        delete_newsletters(user)
        get_user_model().objects.filter(pk=user.pk).delete()
