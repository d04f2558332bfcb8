"""POST /api/v1/import and the console upload: an export reproduces an account in another one;
the same document twice changes nothing; imported runs are history; bad documents are refused
whole, in the error shape, naming where and why."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from billing.models import CreditTransaction
from digests.models import Delivery, Run, RunItem, Subscription
from digests.subscriptions.service import (
    EDITABLE_FIELDS,
    RunStateError,
    create_subscription,
    retry_run,
)
from inbox.models import ImportRecord, UserContentState
from inbox.portability.export import stream_export
from ingest.models import ContentItem, UserSource
from tests.conftest import api_client_for, make_user
from tests.inbox.portability_data import populate

pytestmark = pytest.mark.django_db


def export_of(user, **kwargs) -> bytes:
    return "".join(stream_export(user, now=kwargs.pop("now", timezone.now()), **kwargs)).encode()


class JobOutcome:
    """How a queued import ended, read from its job (GET at the POST's Location) and answered
    like the synchronous import used to be: 200 and the summary, or the refusal's status and
    error. (The worker is inline in the tests: the job has ended by the time the POST returns.)"""

    def __init__(self, job: dict):
        self.job = job
        assert job["status"] in ("done", "failed"), job
        self.status_code = 200 if job["status"] == "done" else job["error"]["status"]

    def json(self) -> dict:
        if self.job["status"] == "done":
            return self.job["summary"]
        return {"error": {k: self.job["error"][k] for k in ("code", "message", "fields")}}


def post_import(client, body: bytes, content_type="application/json"):
    response = client.post("/api/v1/import", data=body, content_type=content_type)
    if response.status_code != 202:
        return response  # refused before any job: size, media type, scope, throttle
    assert response["Location"].endswith(f"/api/v1/import/jobs/{response.json()['id']}")
    return JobOutcome(client.get(response["Location"]).json())


# The import's own bookkeeping: its job and the task queue's record of running it.
BOOKKEEPING = {"inbox.ImportJob", "django_q.Task", "django_q.Success", "django_q.Failure"}


def row_counts() -> dict[str, int]:
    """Rows of every table the account's data lives in."""
    return {
        model._meta.label: model.objects.count()
        for model in apps.get_models()
        if model._meta.label not in BOOKKEEPING
    }


def test_an_export_imported_into_a_fresh_account_reproduces_it(alice, bob):
    populate(alice, now=timezone.now())
    response = post_import(api_client_for(bob), export_of(alice))
    assert response.status_code == 200, response.json()
    summary = response.json()
    assert summary["subscriptions_created"] == 2
    assert summary["runs_created"] == 4  # the running one is not history yet
    assert summary["runs_skipped_unfinished"] == 1
    assert summary["run_items_created"] == 12
    assert summary["content_states_created"] == 12

    mine = {s.name: s for s in Subscription.objects.filter(owner=alice)}
    theirs = {s.name: s for s in Subscription.objects.filter(owner=bob)}
    assert set(theirs) == {"Databases", "Security"}
    for name, original in mine.items():
        copy = theirs[name]
        # Every setting the owner can edit (the webhook's address lives in its own table).
        for field in (*(f for f in EDITABLE_FIELDS if f != "webhook_url"), "status"):
            assert getattr(copy, field) == getattr(original, field), field
        assert copy.created_at == original.created_at
        assert copy.next_run_at is not None  # scheduled from now on, like the original
    (library,) = UserSource.objects.filter(user=bob)
    assert library.display_name == "My favourite blog"
    assert list(theirs["Databases"].sources.all()) == list(mine["Databases"].sources.all())
    assert UserContentState.objects.filter(user=bob, saved_at__isnull=False).count() == 3
    assert UserContentState.objects.filter(user=bob, read_at__isnull=False).count() == 3
    bob_items = RunItem.objects.filter(run__user=bob).order_by("run__scheduled_at", "rank")
    alice_items = RunItem.objects.filter(run__user=alice).order_by("run__scheduled_at", "rank")
    assert [(i.title, i.summary, i.reason, i.url, i.item_id) for i in bob_items] == [
        (i.title, i.summary, i.reason, i.url, i.item_id) for i in alice_items
    ]
    # Bob's Inbox shows the briefs, with Alice's saved items saved.
    client = api_client_for(bob)
    saved = client.get("/api/v1/inbox/items?state=saved").json()["results"]
    assert len(saved) == 3


def test_imported_runs_are_history_never_run_delivered_or_charged(alice, bob):
    populate(alice, now=timezone.now())
    ledger_before = CreditTransaction.objects.count()
    deliveries_before = Delivery.objects.count()
    post_import(api_client_for(bob), export_of(alice))
    runs = Run.objects.filter(user=bob)
    assert {run.trigger for run in runs} == {Run.Trigger.IMPORTED}
    assert {run.status for run in runs} == {Run.Status.SUCCEEDED, Run.Status.FAILED}
    assert all(run.lease_expires_at is None and run.attempts == 0 for run in runs)
    assert CreditTransaction.objects.count() == ledger_before
    assert Delivery.objects.count() == deliveries_before
    failed = runs.get(status=Run.Status.FAILED)
    with pytest.raises(RunStateError):
        retry_run(failed, now=timezone.now())
    # The dispatcher's tick, a day later (every lease long expired), hands none of them out.
    from digests.schedules.scheduler import tick

    imported = set(runs.values_list("pk", flat=True))
    handed: list[int] = []
    later = timezone.now() + timedelta(days=1)
    tick(now=later, run_source=lambda pk: None, run_run=handed.append, run_delivery=handed.append)
    assert not imported & set(handed)
    assert set(Run.objects.filter(pk__in=imported).values_list("status", flat=True)) <= {
        Run.Status.SUCCEEDED,
        Run.Status.FAILED,
    }


def test_the_same_document_twice_changes_nothing(alice, bob):
    populate(alice, now=timezone.now())
    document = export_of(alice)
    client = api_client_for(bob)
    assert post_import(client, document).status_code == 200
    before = row_counts()
    second = post_import(client, document)
    assert second.status_code == 200
    assert second.json()["already_imported"] is True
    assert row_counts() == before


def test_a_newer_export_of_the_same_account_adds_only_what_is_new(alice, bob):
    populate(alice, now=timezone.now())
    client = api_client_for(bob)
    post_import(client, export_of(alice))
    before = row_counts()
    later = export_of(alice, now=timezone.now() + timedelta(minutes=5))
    summary = post_import(client, later).json()
    assert summary["already_imported"] is False
    assert summary["subscriptions_matched"] == 2 and summary["subscriptions_created"] == 0
    assert summary["runs_matched"] == 4 and summary["runs_created"] == 0
    after = row_counts()
    assert after.pop("inbox.ImportRecord") == before.pop("inbox.ImportRecord") + 1
    assert after == before


def test_an_unknown_format_is_refused_before_anything_is_written(bob):
    before = row_counts()
    for document in (
        {"format": "tidings-export@2", "runs": []},
        {"format": "aiget-digest-export@1"},
        {"runs": []},
        [],
    ):
        response = post_import(api_client_for(bob), json.dumps(document).encode())
        assert response.status_code == 400
        error = response.json()["error"]
        assert error["code"] == "unsupported_format"
        assert "format" in error["fields"]
    assert {k: v for k, v in row_counts().items() if k != "inbox.ApiToken"} == {
        k: v for k, v in before.items() if k != "inbox.ApiToken"
    }


def test_a_document_over_the_size_cap_is_refused_with_413_naming_the_rule(alice, bob):
    populate(alice, now=timezone.now())
    document = export_of(alice)
    with override_settings(IMPORT_MAX_BYTES=len(document) - 1):
        response = post_import(api_client_for(bob), document)
        assert response.status_code == 413
        assert "IMPORT_MAX_BYTES" in response.json()["error"]["message"]
        # Padding hidden in whitespace does not get round it, nor does the console upload.
        client = api_client_for(bob)
        assert post_import(client, document + b" " * 10).status_code == 413
    assert not Subscription.objects.filter(owner=bob).exists()


def test_the_cap_is_larger_than_the_apis_usual_body_limit(alice, bob, settings):
    populate(alice, now=timezone.now(), runs=6, items_per_run=10)
    document = export_of(alice)
    settings.API_MAX_BODY_BYTES = 1024
    assert len(document) > 1024
    assert post_import(api_client_for(bob), document).status_code == 200


def _broken(alice, change) -> bytes:
    document = json.loads(export_of(alice))
    change(document)
    return json.dumps(document).encode()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["runs"][0].update(delivered_count="3"), "runs.0.delivered_count"),
        (lambda d: d["runs"][0].update(delivered_count=True), "runs.0.delivered_count"),
        (lambda d: d["runs"][0]["items"][0].update(rank=1.5), "runs.0.items.0.rank"),
        (lambda d: d["subscriptions"][0].update(min_score=101), "subscriptions.0.min_score"),
        (lambda d: d["subscriptions"][0].update(cron="0 25 * * *"), "subscriptions.0.cron"),
        (lambda d: d["subscriptions"][0].update(timezone="Mars/Base"), "subscriptions.0.timezone"),
        (lambda d: d["subscriptions"][0].update(colour="red"), "subscriptions.0.colour"),
        (lambda d: d["runs"][0].update(scheduled_at="yesterday"), "runs.0.scheduled_at"),
        (lambda d: d["runs"][0].update(subscription=999999), "runs.0.subscription"),
        (
            lambda d: d["runs"][0]["items"].append(d["runs"][0]["items"][0]),
            "runs.0.items.4.canonical_url",
        ),
        (
            lambda d: d["runs"][2]["items"][0].update(canonical_url="javascript:alert(1)"),
            "runs.2.items.0.canonical_url",
        ),
        (lambda d: d["content_states"].append({"canonical_url": 1}), None),
        (lambda d: d.pop("runs"), "runs"),
    ],
)
def test_a_wrong_field_refuses_the_whole_document_naming_it(alice, bob, change, field):
    populate(alice, now=timezone.now())
    body = _broken(alice, change)
    before = row_counts()
    response = post_import(api_client_for(bob), body)
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    if field:
        assert field in error["fields"], error
    after = row_counts()
    after.pop("inbox.ApiToken"), before.pop("inbox.ApiToken")
    assert after == before  # one transaction: nothing written, not even the sources


def test_nul_characters_lone_surrogates_and_deep_nesting_are_refused(alice, bob):
    populate(alice, now=timezone.now())
    client = api_client_for(bob)
    nul = _broken(alice, lambda d: d["subscriptions"][0].update(name="Data\u0000bases"))
    assert post_import(client, nul).json()["error"]["code"] == "bad_text"
    surrogate = export_of(alice).replace(b'"Databases"', b'"Data\\ud800bases"')
    assert post_import(client, surrogate).status_code == 400
    deep = b'{"format": "tidings-export@1", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    response = post_import(client, deep)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "too_deep"
    assert post_import(client, b"\xff\xfe{").status_code == 400
    assert post_import(client, b'{"format": "tidings-export@1", "format": "x"}').status_code == 400
    assert not Subscription.objects.filter(owner=bob).exists()


def test_a_source_the_fetch_policy_refuses_is_reported_and_left_out(alice, bob):
    populate(alice, now=timezone.now())

    def add_bad_sources(document):
        document["sources"] += [
            {
                **document["sources"][0],
                "id": 90001,
                "config": {"url": "http://127.0.0.1/feed"},
                "url": "http://127.0.0.1/feed",
            },
            {**document["sources"][0], "id": 90002, "config": {"file": "/etc/passwd"}, "url": ""},
            {
                **document["sources"][0],
                "id": 90003,
                "config": {"url": "http://169.254.169.254/"},
                "url": "http://169.254.169.254/",
            },
        ]
        document["subscriptions"][0]["sources"].append(
            {"source": 90001, "enabled": True, "weight": 1.0}
        )

    response = post_import(api_client_for(bob), _broken(alice, add_bad_sources))
    assert response.status_code == 200, response.json()
    refused = {r["id"] for r in response.json()["sources_refused"]}
    assert refused == {90001, 90002, 90003}
    assert UserSource.objects.filter(user=bob).count() == 1
    assert not UserSource.objects.filter(user=bob, source__url__contains="127.0.0.1").exists()


def test_beyond_the_plan_imported_subscriptions_are_paused_not_refused(alice, now):
    populate(alice, now=timezone.now())
    carol = make_user("carol@example.com")
    for name in ("One", "Two"):
        create_subscription(
            carol, {"name": name, "interests": ["x"], "cron": "0 9 * * *"}, now=timezone.now()
        )
    summary = post_import(api_client_for(carol), export_of(alice)).json()
    assert summary["subscriptions_paused_by_plan"] == 1
    own = Subscription.objects.filter(owner=carol, name__in=["One", "Two"])
    assert {s.status for s in own} == {"active"}  # the account's own stay active
    paused = Subscription.objects.get(owner=carol, status="paused")
    assert paused.paused_reason == "plan_subscriptions"


def test_items_the_pool_lacks_come_as_filtered_placeholders_and_revive_when_seen(alice, bob):
    populate(alice, now=timezone.now())
    document = json.loads(export_of(alice))
    document["runs"][0]["items"][0]["canonical_url"] = "https://elsewhere.example/only-there"
    post_import(api_client_for(bob), json.dumps(document).encode())
    placeholder = ContentItem.objects.get(canonical_url="https://elsewhere.example/only-there")
    assert placeholder.status == ContentItem.Status.FILTERED and placeholder.cluster_id is None

    from ingest.feeds.parse import ParsedEntry
    from ingest.library.bulk_add import SourceSpec, add_sources_to_library
    from ingest.pool.upsert import upsert_entries

    (added,) = add_sources_to_library(
        alice,
        [(SourceSpec(type="feed", config={"url": "https://elsewhere.example/feed"}), "")],
        now=timezone.now(),
    )
    upsert_entries(
        added.user_source.source,
        [
            ParsedEntry(
                url="https://elsewhere.example/only-there",
                title="The real title",
                entry_id="1",
                description="",
                content_html="",
                author="",
                published_at=None,
            )
        ],
        now=timezone.now(),
    )
    placeholder.refresh_from_db()
    assert placeholder.status == ContentItem.Status.ACTIVE
    assert placeholder.title == "The real title"


def test_a_read_only_token_cannot_import(alice, bob):
    from rest_framework.test import APIClient

    from inbox.tokens import issue_token

    client = APIClient()
    _row, clear = issue_token(bob, "reader", scope="read")
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {clear}")
    populate(alice, now=timezone.now())
    assert post_import(client, export_of(alice)).status_code == 403


def test_a_form_body_is_refused_415(bob):
    response = api_client_for(bob).post("/api/v1/import", data="a=b", content_type="text/plain")
    assert response.status_code == 415


def test_the_console_upload_imports_and_says_what_it_did(client, alice, bob):
    populate(alice, now=timezone.now())
    client.force_login(bob)
    upload = SimpleUploadedFile("export.json", export_of(alice), "application/json")
    response = client.post(reverse("inbox:import"), {"file": upload}, follow=True)
    assert "Imported: 2 subscriptions" in response.content.decode()
    assert ImportRecord.objects.filter(user=bob, origin="upload").count() == 1
    bad = SimpleUploadedFile("export.json", b'{"format": "other@9"}', "application/json")
    response = client.post(reverse("inbox:import"), {"file": bad}, follow=True)
    assert "Nothing was imported" in response.content.decode()


def test_more_subscriptions_than_the_largest_plan_allows_are_refused(alice, bob):
    from inbox.portability.importing import MAX_SUBSCRIPTIONS

    populate(alice, now=timezone.now())

    def crowd(document):
        first = document["subscriptions"][0]
        document["subscriptions"] += [
            {**first, "id": 100_000 + n, "name": f"Copy {n}"} for n in range(MAX_SUBSCRIPTIONS)
        ]

    response = post_import(api_client_for(bob), _broken(alice, crowd))
    assert response.status_code == 400
    assert "subscriptions" in response.json()["error"]["fields"]
    assert not Subscription.objects.filter(owner=bob).exists()
