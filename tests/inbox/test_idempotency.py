"""`Idempotency-Key` (inbox/idempotency.py): a retried request is answered, not done again."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import connection

from digests.models import Run, Subscription
from inbox.idempotency import ABANDONED_AFTER, KEEP
from inbox.models import IdempotentRequest
from tests.conftest import api_client_for
from tests.factories import on_plan
from tests.threads import at_once

SUBSCRIPTIONS = "/api/v1/subscriptions"
BODY = {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}


def post(api, path, body=None, key="4f6c2d0e-retry-1"):
    return api.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_a_retried_create_answers_the_first_response_and_creates_once(api, alice):
    first = post(api, SUBSCRIPTIONS, BODY)
    again = post(api, SUBSCRIPTIONS, BODY)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert again["Location"] == first["Location"]
    assert again["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first
    assert Subscription.objects.filter(owner=alice).count() == 1
    # Without a key, the same request is a new subscription, as always.
    assert api.post(SUBSCRIPTIONS, BODY, format="json").status_code == 201
    assert Subscription.objects.filter(owner=alice).count() == 2


def test_a_retried_run_now_makes_one_run(api, alice, now):
    on_plan(alice, "pro", now=now)
    subscription_id = post(api, SUBSCRIPTIONS, BODY, key="create").json()["id"]
    path = f"{SUBSCRIPTIONS}/{subscription_id}/run"
    with time_machine.travel(now, tick=False):
        answers = [post(api, path, key="run-now-1") for _ in range(3)]
    assert [a.status_code for a in answers] == [202, 202, 202]
    assert len({a.json()["id"] for a in answers}) == 1
    assert Run.objects.filter(subscription_id=subscription_id).count() == 1


def test_the_same_key_for_another_request_is_refused_and_does_nothing(api, alice):
    post(api, SUBSCRIPTIONS, BODY)
    other = post(api, SUBSCRIPTIONS, {**BODY, "name": "Something else"})
    assert other.status_code == 422
    assert other.json()["error"]["code"] == "idempotency_key_reused"
    assert list(Subscription.objects.values_list("name", flat=True)) == ["Databases"]


def test_a_refused_request_keeps_nothing_so_the_corrected_one_goes_through(api, alice):
    refused = post(api, SUBSCRIPTIONS, {**BODY, "cron": "0 25 * * *"})
    assert refused.status_code == 400
    assert not IdempotentRequest.objects.exists()
    assert post(api, SUBSCRIPTIONS, BODY).status_code == 201


def test_keys_are_per_user(api, alice, bob):
    post(api, SUBSCRIPTIONS, BODY)
    bobs = post(api_client_for(bob), SUBSCRIPTIONS, BODY)
    assert bobs.status_code == 201 and "Idempotent-Replayed" not in bobs
    assert Subscription.objects.filter(owner=bob).count() == 1


def test_while_the_first_is_served_a_retry_waits_and_a_dead_first_is_given_up(api, alice, now):
    fingerprint_of = post(api, SUBSCRIPTIONS, BODY, key="probe")
    assert fingerprint_of.status_code == 201
    row = IdempotentRequest.objects.get(key="probe")
    # The same request, its first copy still in progress (no answer stored yet).
    IdempotentRequest.objects.create(
        user=alice, key="busy", fingerprint=row.fingerprint, created_at=now
    )
    with time_machine.travel(now + timedelta(seconds=30), tick=False):
        busy = post(api, SUBSCRIPTIONS, BODY, key="busy")
    assert busy.status_code == 409 and busy["Retry-After"]
    with time_machine.travel(now + ABANDONED_AFTER + timedelta(seconds=1), tick=False):
        taken_over = post(api, SUBSCRIPTIONS, BODY, key="busy")
    assert taken_over.status_code == 201
    assert IdempotentRequest.objects.get(key="busy").status_code == 201


def test_a_key_is_kept_for_a_day(api, alice, now):
    with time_machine.travel(now, tick=False):
        post(api, SUBSCRIPTIONS, BODY)
    with time_machine.travel(now + KEEP + timedelta(minutes=1), tick=False):
        later = post(api, SUBSCRIPTIONS, BODY)
    assert "Idempotent-Replayed" not in later
    assert Subscription.objects.filter(owner=alice).count() == 2


@pytest.mark.parametrize("key", ["", "x" * 256, "clé-é", "tab\there"])
def test_a_malformed_key_is_refused_naming_the_header(api, alice, key):
    response = post(api, SUBSCRIPTIONS, BODY, key=key)
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["error"]["fields"]
    assert not Subscription.objects.exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_retries_with_one_key_do_the_work_once(alice, now):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent requests are tested on PostgreSQL")
    on_plan(alice, "pro", now=now)

    def create(_n):
        response = post(api_client_for(alice), SUBSCRIPTIONS, BODY, key="same")
        return response.status_code

    codes = at_once(create, range(8))
    assert Subscription.objects.filter(owner=alice).count() == 1
    assert codes.count(201) >= 1 and set(codes) <= {201, 409}
