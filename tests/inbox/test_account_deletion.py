"""Deleting an account from the preferences page: password confirmed, a last chance to export,
then no row anywhere refers to the user; public topics are deleted (410) and released, the
shared pool is untouched, the ledger survives only as anonymous monthly totals."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone

from billing import ledger
from billing.accounts import ensure_account
from billing.models import CreditTransaction, RetiredLedgerTotal
from digests.models import Subscription
from inbox.models import ImportRecord
from inbox.portability import transfer
from inbox.tokens import issue_token
from ingest.models import ContentItem, Source
from tests.conftest import api_client_for, make_user
from tests.factories import charged_run
from tests.inbox.portability_data import populate
from topics import following, publishing
from topics.models import Report, Topic

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery staple"


def references_to(user_pk: int) -> list[str]:
    """Every row of every table (auto-created M2M tables included) with a foreign key,
    one-to-one or many-to-many link to the user model holding `user_pk`."""
    user_model = get_user_model()
    found = []
    for model in apps.get_models(include_auto_created=True):
        for field in model._meta.get_fields():
            if not field.concrete or not field.is_relation or field.related_model is None:
                continue
            if not issubclass(field.related_model, user_model):
                continue
            if isinstance(field, models.ManyToManyField):
                rows = model.objects.filter(**{field.name: user_pk}).count()
            else:
                rows = model.objects.filter(**{field.attname: user_pk}).count()
            if rows:
                found.append(f"{model._meta.label}.{field.name}: {rows}")
    return found


def test_the_walk_finds_every_kind_of_reference(alice):
    populate(alice, now=timezone.now())
    found = "\n".join(references_to(alice.pk))
    for label in (
        "digests.Subscription.owner",
        "digests.Run.user",
        "inbox.UserContentState.user",
        "inbox.UserPreference.user",
        "ingest.UserSource.user",
        "billing.Account.user",
    ):
        assert label in found


@pytest.fixture
def full_account(alice, bob):
    now = timezone.now()
    subscriptions, _runs = populate(alice, now=now)
    charged_run(alice, now, 3, name="Charged")
    issue_token(alice, "laptop")
    transfer.issue_code(alice, "everything", now=now)
    ImportRecord.objects.create(user=alice, origin="upload", checksum="0" * 64, created_at=now)
    topic = publishing.publish(
        alice, subscriptions[0], publishing.PublishInput(title="Databases weekly"), now=now
    )
    followed = following.follow(bob, topic, now=now)
    bobs_own = populate(bob, now=now, runs=0)[0][0]
    bobs_topic = publishing.publish(
        bob, bobs_own, publishing.PublishInput(title="Bob's pick", slug="bobs-pick"), now=now
    )
    Report.objects.create(
        topic=bobs_topic, reason="spam", reporter=alice, reporter_key="k", created_at=now
    )
    staff = make_user("staff@example.com")
    ledger.grant_or_adjust(
        ensure_account(bob, now=now).pk,
        kind="grant",
        amount=5,
        reason="thanks",
        actor=alice,
        now=now,
        key="grant-1",
    )
    return {"topic": topic, "followed": followed, "bobs_topic": bobs_topic, "staff": staff}


def test_deleting_leaves_no_row_that_refers_to_the_user(client, alice, bob, full_account):
    assert references_to(alice.pk)
    pool_before = (ContentItem.objects.count(), Source.objects.count())
    alice_spent = dict(
        CreditTransaction.objects.filter(account__user=alice)
        .values_list("kind")
        .annotate(total=Sum("amount"))
    )
    client.force_login(alice)
    page = client.get(reverse("inbox:delete_account")).content.decode()
    assert reverse("inbox:export") in page  # the last chance to take the data along
    response = client.post(reverse("inbox:delete_account"), {"password": PASSWORD})
    assert response.status_code == 302

    assert references_to(alice.pk) == []
    assert not get_user_model().objects.filter(pk=alice.pk).exists()
    # The shared pool is untouched.
    assert (ContentItem.objects.count(), Source.objects.count()) == pool_before
    # Her public topic is gone (410) and belongs to nobody; Bob still follows it, quietly.
    topic = Topic.objects.get(pk=full_account["topic"].pk)
    assert topic.status == Topic.Status.DELETED and topic.owner_id is None
    assert client.get(topic.get_absolute_url()).status_code == 410
    assert Subscription.objects.filter(pk=full_account["followed"].pk).exists()
    # What she did to others' things stays, without her.
    assert Report.objects.get().reporter_id is None
    grant = CreditTransaction.objects.get(idempotency_key="grant-1")
    assert grant.actor_id is None and grant.amount == 5
    # Her ledger survives as anonymous totals only.
    retired = dict(RetiredLedgerTotal.objects.values_list("kind").annotate(total=Sum("amount")))
    assert retired == alice_spent
    assert set(RetiredLedgerTotal.objects.values_list("accounts", flat=True)) == {1}
    # She is logged out and her token no longer works.
    assert client.get(reverse("inbox:preferences")).status_code == 302


def test_a_wrong_password_deletes_nothing(client, alice, full_account):
    client.force_login(alice)
    before = references_to(alice.pk)
    response = client.post(reverse("inbox:delete_account"), {"password": "not it"})
    assert response.status_code == 400
    assert "not your password" in response.content.decode()
    assert references_to(alice.pk) == before
    assert client.post(reverse("inbox:delete_account"), {}).status_code == 400
    assert references_to(alice.pk) == before


def test_deletion_takes_a_post(client, alice):
    client.force_login(alice)
    client.get(reverse("inbox:delete_account") + "?password=" + PASSWORD)
    assert get_user_model().objects.filter(pk=alice.pk).exists()


def test_the_deleted_users_api_token_is_refused(client, alice):
    api = api_client_for(alice)
    client.force_login(alice)
    client.post(reverse("inbox:delete_account"), {"password": PASSWORD})
    assert api.get("/api/v1/me").status_code == 401
