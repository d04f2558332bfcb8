"""The digest engine's API surface: pause/resume, preview, retry, schedule preview, output
locale. Alice owns, Bob is another user, anonymous callers only reach the schedule preview."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from django.test import override_settings
from rest_framework.test import APIClient

from billing.models import CreditHold, CreditTransaction
from digests.models import Run, RunItem, Subscription
from digests.runs import runner
from digests.subscriptions import api as digests_api
from digests.subscriptions.service import create_subscription, request_manual_run
from inbox.models import UserContentState, UserPreference
from tests.conftest import api_client_for
from tests.factories import add_item

SCHEDULE_PREVIEW = "/api/v1/schedule/preview"


@pytest.fixture
def frozen(now):
    with time_machine.travel(now, tick=False) as traveller:
        yield traveller


def subscribe(user, now, **data) -> Subscription:
    base = {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}
    base.update(data)
    return create_subscription(user, base, now=now)


def rates(**overrides):
    """Throttle rates as in production settings, with some scopes overridden."""
    return override_settings(
        REST_FRAMEWORK={
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {
                **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                **overrides,
            },
        }
    )


def assert_error(response, status: int, field: str | None = None) -> dict:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert set(error) == {"code", "message", "fields", "field_codes"}
    assert set(error["field_codes"]) == set(error["fields"])
    if field is not None:
        assert field in error["fields"], error
        assert error["fields"][field]
    return error


def counts() -> tuple[int, int, int]:
    return Run.objects.count(), RunItem.objects.count(), UserContentState.objects.count()


# --- Pause and resume ---------------------------------------------------------------------


def test_pause_stops_the_schedule_and_resume_restarts_it_from_now(api, alice, now, frozen):
    subscription = subscribe(alice, now)
    assert subscription.next_run_at == datetime(2026, 11, 21, 8, 0, tzinfo=UTC)

    response = api.post(f"/api/v1/subscriptions/{subscription.pk}/pause")

    assert response.status_code == 200
    assert (response.json()["status"], response.json()["next_run_at"]) == ("paused", None)
    subscription.refresh_from_db()
    assert (subscription.status, subscription.next_run_at) == ("paused", None)

    frozen.move_to(now + timedelta(days=5))  # five mornings missed while paused
    response = api.post(f"/api/v1/subscriptions/{subscription.pk}/resume")

    assert response.status_code == 200
    assert response.json()["status"] == "active"
    assert response.json()["next_run_at"] == "2026-11-26T08:00:00Z"  # the next one, not 5
    subscription.refresh_from_db()
    assert subscription.next_run_at == datetime(2026, 11, 26, 8, 0, tzinfo=UTC)


def test_pausing_twice_and_resuming_an_active_subscription_change_nothing(api, alice, now):
    subscription = subscribe(alice, now)
    due = now - timedelta(minutes=1)  # due, not yet claimed by the scheduler
    Subscription.objects.filter(pk=subscription.pk).update(next_run_at=due)

    response = api.post(f"/api/v1/subscriptions/{subscription.pk}/resume")

    assert response.status_code == 200
    assert Subscription.objects.get().next_run_at == due  # the due run is not skipped
    api.post(f"/api/v1/subscriptions/{subscription.pk}/pause")
    assert api.post(f"/api/v1/subscriptions/{subscription.pk}/pause").status_code == 200
    assert Subscription.objects.get().status == "paused"


def test_pause_and_resume_of_someone_elses_subscription_is_not_found(api, bob, now):
    theirs = subscribe(bob, now)
    for change in ("pause", "resume"):
        assert_error(api.post(f"/api/v1/subscriptions/{theirs.pk}/{change}"), 404)
    theirs.refresh_from_db()
    assert (theirs.status, theirs.next_run_at) == ("active", datetime(2026, 11, 21, 8, tzinfo=UTC))


def test_pause_resume_and_preview_need_authentication(alice, now):
    subscription = subscribe(alice, now)
    anonymous = APIClient()
    for path in ("pause", "resume", "preview"):
        assert_error(anonymous.post(f"/api/v1/subscriptions/{subscription.pk}/{path}"), 401)
    assert Subscription.objects.get().status == "active"


# --- Preview ------------------------------------------------------------------------------


def test_preview_shows_what_a_run_would_deliver(api, alice, now, frozen):
    add_item("PostgreSQL 18 released", now=now)
    add_item(
        "Ancient news from the garden",
        description="Tomatoes, roses and a note on the PostgreSQL box in the shed.",
        now=now,
        age_hours=24 * 6,
    )
    add_item("Nothing relevant", now=now)
    subscription = subscribe(alice, now, min_score=70)

    response = api.get(f"/api/v1/subscriptions/{subscription.pk}/preview")

    assert response.status_code == 200
    body = response.json()
    assert body["candidates_count"] == 2  # the topic pool narrowed to the interests
    assert body["above_min_score"] == 1
    assert body["empty_reason"] == ""
    [item] = body["selected"]
    assert item["title"] == "PostgreSQL 18 released"
    assert item["overall"] >= 70
    assert "matches PostgreSQL in the title" in item["reason"]
    assert item["url"].startswith("https://news.example/")
    assert api.post(f"/api/v1/subscriptions/{subscription.pk}/preview").json() == body


@override_settings(FULLTEXT_TOP_K=5)  # a run of this subscription could cost 10 credits
def test_preview_writes_nothing_and_charges_nothing(api, alice, now, frozen):
    add_item("PostgreSQL preview", now=now)
    subscription = subscribe(alice, now)
    before = Subscription.objects.filter(pk=subscription.pk).values().get()
    ledger = list(CreditTransaction.objects.values_list("kind", "amount"))

    for _ in range(2):
        response = api.post(f"/api/v1/subscriptions/{subscription.pk}/preview")
        assert [i["title"] for i in response.json()["selected"]] == ["PostgreSQL preview"]

    assert counts() == (0, 0, 0)  # no Run, no RunItem, no UserContentState
    assert Subscription.objects.filter(pk=subscription.pk).values().get() == before
    # Nothing reached the ledger and nothing was held: the opening credits only.
    assert list(CreditTransaction.objects.values_list("kind", "amount")) == ledger
    assert ledger == [("monthly_reset", 100)]
    assert not CreditHold.objects.exists()
    assert api.get("/api/v1/billing/balance").json()["balance"] == 100


def test_preview_explains_an_empty_brief(api, alice, now, frozen):
    add_item("PostgreSQL already seen", now=now)
    subscription = subscribe(alice, now)
    runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)

    body = api.get(f"/api/v1/subscriptions/{subscription.pk}/preview").json()

    assert body["selected"] == []
    assert body["dedup_skipped"] == 1
    assert body["empty_reason"] == "Everything that matched was already delivered to you."


def test_preview_of_someone_elses_subscription_is_not_found(api, bob, now):
    theirs = subscribe(bob, now)
    assert_error(api.get(f"/api/v1/subscriptions/{theirs.pk}/preview"), 404)
    assert counts() == (0, 0, 0)


def test_preview_is_rate_limited_per_user(api, alice, bob, now):
    mine, theirs = subscribe(alice, now), subscribe(bob, now)
    with rates(subscription_preview="2/min"):
        for _ in range(2):
            assert api.get(f"/api/v1/subscriptions/{mine.pk}/preview").status_code == 200

        response = api.post(f"/api/v1/subscriptions/{mine.pk}/preview")

        error = assert_error(response, 429)
        assert error["code"] == "throttled"
        assert "Retry-After" in response
        # Bob has his own allowance.
        assert (
            api_client_for(bob).get(f"/api/v1/subscriptions/{theirs.pk}/preview").status_code == 200
        )


# --- Retry --------------------------------------------------------------------------------


def fail_a_run(api, subscription, monkeypatch) -> int:
    def broken(*args, **kwargs):
        raise RuntimeError("database hiccup")

    with monkeypatch.context() as patch:
        patch.setattr(runner, "_deliver", broken)
        response = api.post(f"/api/v1/subscriptions/{subscription.pk}/run")
    assert response.json()["status"] == "failed"
    return response.json()["id"]


def test_a_failed_run_is_retried_under_the_same_id_and_delivers_once(
    api, alice, now, frozen, monkeypatch
):
    add_item("PostgreSQL retry", now=now)
    subscription = subscribe(alice, now)
    run_id = fail_a_run(api, subscription, monkeypatch)
    assert RunItem.objects.count() == 0
    enqueued = []
    real_enqueue = digests_api.enqueue_run

    def enqueue(pk):
        enqueued.append(pk)
        real_enqueue(pk)

    monkeypatch.setattr(digests_api, "enqueue_run", enqueue)

    response = api.post(f"/api/v1/runs/{run_id}/retry")

    assert response.status_code == 202
    body = response.json()
    assert (body["id"], body["status"], body["error"]) == (run_id, "succeeded", "")
    assert enqueued == [run_id]  # the same path as "run now"
    assert Run.objects.count() == 1
    assert Run.objects.get().attempts == 2
    assert RunItem.objects.count() == 1

    again = api.post(f"/api/v1/runs/{run_id}/retry")

    error = assert_error(again, 409, "status")
    assert error["code"] == "conflict"
    assert "this run is succeeded" in error["message"]
    assert enqueued == [run_id]
    assert RunItem.objects.count() == 1
    assert UserContentState.objects.get().delivered_count == 1


@pytest.mark.parametrize("state", ["pending", "running", "succeeded"])
def test_only_a_failed_run_can_be_retried(api, alice, now, state):
    run = request_manual_run(subscribe(alice, now), now=now)
    Run.objects.filter(pk=run.pk).update(status=state)

    error = assert_error(api.post(f"/api/v1/runs/{run.pk}/retry"), 409, "status")

    assert f"this run is {state}" in error["message"]
    run.refresh_from_db()
    assert (run.status, run.attempts) == (state, 0)


def test_two_retries_of_one_failure_make_one_retry(alice, now):
    from digests.subscriptions.service import RunStateError, retry_run

    run = request_manual_run(subscribe(alice, now), now=now)
    Run.objects.filter(pk=run.pk).update(status="failed")
    first, second = Run.objects.get(), Run.objects.get()  # two requests read "failed"

    assert retry_run(first, now=now).status == "pending"
    with pytest.raises(RunStateError):
        retry_run(second, now=now)


def test_a_run_of_a_deleted_subscription_cannot_be_retried(api, alice, now):
    subscription = subscribe(alice, now)
    run = request_manual_run(subscription, now=now)
    Run.objects.filter(pk=run.pk).update(status="failed")
    api.delete(f"/api/v1/subscriptions/{subscription.pk}")

    assert_error(api.post(f"/api/v1/runs/{run.pk}/retry"), 409, "status")
    assert Run.objects.get().status == "failed"


def test_someone_elses_run_cannot_be_retried(api, bob, now):
    run = request_manual_run(subscribe(bob, now), now=now)
    Run.objects.filter(pk=run.pk).update(status="failed")

    assert_error(api.post(f"/api/v1/runs/{run.pk}/retry"), 404)
    assert_error(APIClient().post(f"/api/v1/runs/{run.pk}/retry"), 401)
    assert Run.objects.get().status == "failed"


# --- Schedule preview ---------------------------------------------------------------------


def test_schedule_preview_is_public_and_crosses_dst_in_local_time(db):
    response = APIClient().get(
        SCHEDULE_PREVIEW,
        {
            "cron": "0 8 * * *",
            "timezone": "Europe/Berlin",
            "count": 3,
            "after": "2026-03-28T12:00:00Z",
        },
    )

    assert response.status_code == 200
    assert response.json() == {
        # Berlin moves to summer time on 29 March: 08:00 local is 07:00Z, then 06:00Z.
        "next_runs": ["2026-03-29T06:00:00Z", "2026-03-30T06:00:00Z", "2026-03-31T06:00:00Z"],
        "next_runs_display": [
            "29 Mar 2026, 08:00 CEST",
            "30 Mar 2026, 08:00 CEST",
            "31 Mar 2026, 08:00 CEST",
        ],
        "description": "Every day at 08:00 (Europe/Berlin)",
    }


def test_schedule_preview_runs_are_strictly_after_after(db):
    response = APIClient().get(
        SCHEDULE_PREVIEW,
        {"cron": "*/15 * * * *", "count": 2, "after": "2026-01-05T08:15:00+00:00"},
    )
    assert response.json() == {
        "next_runs": ["2026-01-05T08:30:00Z", "2026-01-05T08:45:00Z"],
        "next_runs_display": ["5 Jan 2026, 08:30 UTC", "5 Jan 2026, 08:45 UTC"],
        "description": "Every 15 minutes",
    }


def test_schedule_preview_defaults_to_five_runs_after_now_in_utc(db, now, frozen):
    body = APIClient().get(SCHEDULE_PREVIEW, {"cron": "@daily"}).json()
    assert body["next_runs"] == [f"2026-11-{day}T00:00:00Z" for day in range(21, 26)]
    assert body["description"] == "Every day at 00:00 (UTC)"


def test_a_plus_sign_sent_unencoded_still_means_an_offset(db):
    # "after=2026-01-05T08:00:00+01:00" in a raw query string decodes to a space.
    response = APIClient().get(
        f"{SCHEDULE_PREVIEW}?cron=0+9+*+*+1-5&count=1&after=2026-01-05T08:00:00+01:00"
    )
    assert response.json()["next_runs"] == ["2026-01-05T09:00:00Z"]


@pytest.mark.parametrize(
    ("query", "field", "fragment"),
    [
        ({"cron": "0 25 * * *"}, "cron", "the hour field cannot be 25"),
        ({"cron": "0 8 * *"}, "cron", "has 4"),
        ({"cron": "@reboot"}, "cron", "Unknown macro"),
        ({"cron": "0 0 30 2 *"}, "cron", "never fires"),
        ({}, "cron", "required"),
        ({"cron": "0 8 * * *", "timezone": "Moon/Base"}, "timezone", "IANA"),
        ({"cron": "0 8 * * *", "timezone": "CEST"}, "timezone", "IANA"),
        ({"cron": "0 8 * * *", "count": 0}, "count", "at least 1"),
        ({"cron": "0 8 * * *", "count": 21}, "count", "at most 20"),
        ({"cron": "0 8 * * *", "count": "many"}, "count", "whole number"),
        ({"cron": "0 8 * * *", "after": "yesterday"}, "after", "ISO 8601"),
        ({"cron": "0 8 * * *", "after": "2026-01-05T08:00:00"}, "after", "UTC offset"),
        ({"cron": "0 8 * * *", "after": "9999-12-31T23:59:00Z"}, "after", "between"),
    ],
)
def test_schedule_preview_refuses_bad_input_naming_the_field(db, query, field, fragment):
    error = assert_error(APIClient().get(SCHEDULE_PREVIEW, query), 400, field)
    assert fragment in error["fields"][field]
    assert error["code"] == "invalid"


def test_schedule_preview_reports_every_bad_field_at_once(db):
    error = assert_error(
        APIClient().get(SCHEDULE_PREVIEW, {"cron": "bad", "timezone": "Nowhere", "count": 99}),
        400,
    )
    assert set(error["fields"]) == {"cron", "timezone", "count"}


def test_schedule_preview_is_rate_limited_per_ip(alice):
    with rates(schedule_preview="2/min"):
        anonymous = APIClient(REMOTE_ADDR="203.0.113.7")
        for _ in range(2):
            assert anonymous.get(SCHEDULE_PREVIEW, {"cron": "@daily"}).status_code == 200

        error = assert_error(anonymous.get(SCHEDULE_PREVIEW, {"cron": "@daily"}), 429)

        assert error["code"] == "throttled"
        # Per IP whoever asks: a signed-in user behind the same address shares the limit...
        signed_in = api_client_for(alice)
        signed_in.defaults["REMOTE_ADDR"] = "203.0.113.7"
        assert signed_in.get(SCHEDULE_PREVIEW, {"cron": "@daily"}).status_code == 429
        # ...and another address has its own.
        other = APIClient(REMOTE_ADDR="198.51.100.2")
        assert other.get(SCHEDULE_PREVIEW, {"cron": "@daily"}).status_code == 200


# --- Output locale ------------------------------------------------------------------------


def create(api, **data):
    payload = {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}
    payload.update(data)
    return api.post("/api/v1/subscriptions", payload, format="json")


def run_now(api, subscription_id: int) -> dict:
    run = api.post(f"/api/v1/subscriptions/{subscription_id}/run").json()
    return api.get(f"/api/v1/runs/{run['id']}").json()


def test_a_fixed_output_locale_is_recorded_on_the_run(api, alice, now):
    UserPreference.objects.filter(user=alice).update(ui_locale="zh-hans")
    response = create(api, language_mode="fixed", output_locale="ja")
    assert response.status_code == 201
    assert (response.json()["language_mode"], response.json()["output_locale"]) == ("fixed", "ja")

    assert run_now(api, response.json()["id"])["output_locale"] == "ja"


def test_follow_ui_records_the_users_ui_language_at_run_time(api, alice, now):
    subscription_id = create(api, language_mode="follow_ui").json()["id"]
    assert run_now(api, subscription_id)["output_locale"] == "en"

    UserPreference.objects.filter(user=alice).update(ui_locale="zh-hans")

    assert run_now(api, subscription_id)["output_locale"] == "zh-hans"


def test_switching_between_modes_through_the_api(api, alice):
    subscription_id = create(api).json()["id"]
    url = f"/api/v1/subscriptions/{subscription_id}"

    fixed = api.patch(url, {"language_mode": "fixed", "output_locale": "ZH-Hans"}, format="json")

    assert fixed.json()["output_locale"] == "zh-hans"
    assert run_now(api, subscription_id)["output_locale"] == "zh-hans"
    api.patch(url, {"language_mode": "follow_ui"}, format="json")
    assert run_now(api, subscription_id)["output_locale"] == "en"


# A field's own rule is 400 (`invalid`); a fixed language without a locale is two valid fields
# that do not go together: 422 `invalid_combination` (no schema can state it for a PATCH).
@pytest.mark.parametrize(
    ("data", "field", "fragment", "status", "code"),
    [
        (
            {"language_mode": "fixed"},
            "output_locale",
            "A fixed language needs",
            422,
            "invalid_combination",
        ),
        (
            {"language_mode": "fixed", "output_locale": ""},
            "output_locale",
            "needs",
            422,
            "invalid_combination",
        ),
        (
            {"language_mode": "fixed", "output_locale": "fr"},
            "output_locale",
            "en, zh-hans, ja, ko",
            400,
            "invalid",
        ),
        ({"output_locale": "klingon"}, "output_locale", "Choose one of", 400, "invalid"),
        ({"language_mode": "sometimes"}, "language_mode", "follow_ui, fixed", 400, "invalid"),
    ],
)
def test_bad_language_settings_are_refused_and_change_nothing(
    api, data, field, fragment, status, code
):
    error = assert_error(create(api, **data), status, field)
    assert fragment in error["fields"][field]
    assert error["code"] == code
    assert Subscription.objects.count() == 0

    subscription_id = create(api, language_mode="fixed", output_locale="ko").json()["id"]
    patched = api.patch(f"/api/v1/subscriptions/{subscription_id}", data, format="json")

    if data != {"language_mode": "fixed"}:  # already fixed, so that one is no change at all
        assert assert_error(patched, status, field)["code"] == code
        subscription = Subscription.objects.get()
        assert (subscription.language_mode, subscription.output_locale) == ("fixed", "ko")
