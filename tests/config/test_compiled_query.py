"""config.compiled_query: a queryset compiled once gives what the queryset gives, every time."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config.compiled_query import CompiledQuery
from inbox.models import ApiToken, UserPreference
from inbox.tokens import issue_token
from tests.conftest import make_user

TOKENS = CompiledQuery(
    lambda prefix: ApiToken.objects.select_related("user", "user__preference").filter(
        prefix=prefix, revoked_at__isnull=True
    )[:1],
    "\x00prefix",
)


def fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_the_same_objects_as_the_queryset_with_their_related_ones(alice):
    UserPreference.objects.update_or_create(user=alice, defaults={"timezone": "Asia/Tokyo"})
    token, _clear = issue_token(alice, "script")
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=datetime(2026, 5, 1, 8, tzinfo=UTC))
    expected = ApiToken.objects.select_related("user", "user__preference").filter(
        prefix=token.prefix
    )[0]
    for _ in range(2):  # compiled the first time, reused the second
        with CaptureQueriesContext(connection) as queries:
            found = TOKENS.first(token.prefix)
            assert fields(found) == fields(expected)
            assert found.last_used_at.tzinfo is not None  # the backend's converters ran
            assert fields(found.user) == fields(expected.user)
            assert found.user.preference.timezone == "Asia/Tokyo"
        assert len(queries) == 1


def test_a_missing_row_is_none_and_a_missing_related_one_is_known_missing(db):
    user = make_user("nopref@example.com")
    UserPreference.objects.filter(user=user).delete()
    token, _clear = issue_token(user, "script")
    assert TOKENS.first("000000000000") is None
    found = TOKENS.first(token.prefix)
    with CaptureQueriesContext(connection) as queries, pytest.raises(UserPreference.DoesNotExist):
        found.user.preference  # noqa: B018 - the access is the test
    assert len(queries) == 0


def test_a_value_is_a_parameter_never_sql(alice):
    issue_token(alice, "script")
    assert TOKENS.first("' OR '1'='1") is None


def test_placeholders_that_are_not_the_parameters_are_refused(db):
    wrong = CompiledQuery(lambda prefix: ApiToken.objects.filter(prefix="fixed"), "\x00prefix")
    with pytest.raises(ValueError, match="a parameter of the query"):
        wrong.first("x")
    with pytest.raises(TypeError, match="expected 1 values"):
        TOKENS.first()


def test_values_rows_with_annotations_in_the_querysets_order(alice, now):
    from django.db.models import F

    from config.compiled_query import PLACEHOLDER_ID
    from digests.models import Subscription
    from digests.subscriptions.service import create_subscription

    for name in ("Beta", "Alpha"):
        create_subscription(alice, {"name": name, "interests": [name], "cron": "@daily"}, now=now)
    Subscription.objects.filter(name="Beta").update(deleted_at=now)  # a constant of the query

    def build(owner_id):
        return (
            Subscription.objects.alive()
            .filter(owner_id=owner_id)
            .annotate(owner_email=F("owner__email"))
            .values("name", "owner_email", "id")
            .order_by("name")
        )

    compiled = CompiledQuery(build, PLACEHOLDER_ID)
    for _ in range(2):
        assert compiled.all(alice.pk) == list(build(alice.pk))
    assert [row["name"] for row in compiled.all(alice.pk)] == ["Alpha"]


def test_a_placeholder_used_twice_is_replaced_in_both_places(alice, now):
    from django.db.models import Exists, OuterRef

    from config.compiled_query import PLACEHOLDER_ID
    from inbox.models import ApiToken

    issue_token(alice, "one")
    other = make_user("other@example.com")
    issue_token(other, "two")

    def build(user_id):
        mine = ApiToken.objects.filter(user_id=user_id, pk=OuterRef("pk"))
        return ApiToken.objects.filter(Exists(mine), user_id=user_id).order_by("pk")

    compiled = CompiledQuery(build, PLACEHOLDER_ID)
    assert [t.name for t in compiled.all(alice.pk)] == ["one"]
    assert [t.name for t in compiled.all(other.pk)] == ["two"]
