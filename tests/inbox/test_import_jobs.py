"""Imports as background work: the upload answers at once with a queued job (nothing imported
yet), a worker imports it, the job tells how it ended; one at a time per account; too large is
refused leaving nothing; a dead worker's import is queued again, then failed; an import past its
time stops and rolls back; the console polls the job's status."""

from __future__ import annotations

import json
import threading
from datetime import timedelta

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from django_q.conf import Conf

from digests.models import Subscription
from inbox.models import ImportJob
from inbox.portability import import_jobs
from inbox.tasks import run_import
from tests.conftest import api_client_for
from tests.inbox.portability_data import populate
from tests.inbox.test_import import export_of
from tests.threads import at_once

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued_only(monkeypatch):
    """The task queue as in production: enqueued tasks wait for a worker (the ORM broker)."""
    monkeypatch.setattr(Conf, "SYNC", False)


@pytest.fixture
def document(alice) -> bytes:
    populate(alice, now=timezone.now())
    return export_of(alice)


@pytest.fixture(autouse=True)
def _no_stored_imports():
    """Storage outlives a test's database: start each test with no stored upload."""
    for name in stored_imports():
        default_storage.delete(f"imports/{name}")


def stored_imports() -> list[str]:
    try:
        return default_storage.listdir("imports")[1]
    except FileNotFoundError:
        return []


def test_the_upload_answers_at_once_and_a_worker_imports_it(bob, document, queued_only):
    client = api_client_for(bob)
    response = client.post("/api/v1/import", data=document, content_type="application/json")
    assert response.status_code == 202
    job = response.json()
    assert job["status"] == "queued" and job["summary"] is None and job["error"] is None
    assert job["size_bytes"] == len(document)
    assert not Subscription.objects.filter(owner=bob).exists()  # nothing imported yet
    assert len(stored_imports()) == 1

    assert run_import(job["id"]) == "done"  # the worker's task
    done = client.get(response["Location"]).json()
    assert done["status"] == "done" and done["progress_percent"] == 100
    assert done["summary"]["subscriptions_created"] == 2
    assert Subscription.objects.filter(owner=bob).count() == 2
    assert stored_imports() == []  # the upload is gone once imported
    assert run_import(job["id"]) == "not claimed"  # a duplicate delivery of the task


def test_one_import_at_a_time_and_another_readers_job_is_not_found(
    alice, bob, document, queued_only
):
    client = api_client_for(bob)
    first = client.post("/api/v1/import", data=document, content_type="application/json")
    second = client.post("/api/v1/import", data=document, content_type="application/json")
    assert second.status_code == 409
    assert second.json()["error"]["code"] == "import_in_progress"
    assert ImportJob.objects.filter(user=bob).count() == 1 and len(stored_imports()) == 1
    assert api_client_for(alice).get(first["Location"]).status_code == 404


def test_a_file_over_the_limit_is_refused_and_leaves_nothing(bob, document, settings):
    settings.IMPORT_MAX_BYTES = 2048
    response = api_client_for(bob).post(
        "/api/v1/import", data=document, content_type="application/json"
    )
    assert response.status_code == 413
    assert not ImportJob.objects.exists() and stored_imports() == []


def test_a_refused_document_fails_its_job_with_the_apis_words(bob, queued_only):
    client = api_client_for(bob)
    # The top level is right (another one is refused at once, with no job: 400), what is
    # inside a member is the job's to check.
    document = {
        "format": "tidings-export@1",
        "exported_at": "2026-11-01T08:00:00Z",
        "instance": {"url": "https://a.example", "software": "other"},
        "scope": "everything",
        "account": {"id": 1, "email": "a@example.com"},
        "preferences": {"ui_locale": "en", "timezone": "UTC", "locale_mode": "auto"},
        "sources": [],
        "subscriptions": [],
        "runs": [],
        "content_states": [],
    }
    response = client.post(
        "/api/v1/import", data=json.dumps(document).encode(), content_type="application/json"
    )
    assert response.status_code == 202, response.content
    run_import(response.json()["id"])
    job = client.get(response["Location"]).json()
    assert job["status"] == "failed"
    assert job["error"]["code"] == "invalid" and job["error"]["status"] == 400
    assert any(name.startswith("instance") for name in job["error"]["fields"]), job["error"]
    assert stored_imports() == []


def test_a_dead_workers_import_is_queued_again_then_failed(bob, document, now):
    job = import_jobs.start_import(bob, _file(document), now=now)
    for attempt in (1, 2):
        # A worker claims it, then dies: its lease runs out.
        ImportJob.objects.filter(pk=job.pk).update(
            status="running", attempts=attempt, lease_expires_at=now
        )
        again = import_jobs.reclaim(now=now + timedelta(minutes=10))
        if attempt == 1:
            assert again == [job.pk]
            assert ImportJob.objects.get(pk=job.pk).status == "queued"
    failed = ImportJob.objects.get(pk=job.pk)
    assert failed.status == "failed" and failed.error_code == "worker_lost"
    assert stored_imports() == [] and not Subscription.objects.filter(owner=bob).exists()


def test_a_queued_job_whose_task_was_lost_is_handed_out_again(bob, document, now):
    job = import_jobs.start_import(bob, _file(document), now=now)
    assert import_jobs.reclaim(now=now) == []  # its lease still runs
    assert import_jobs.reclaim(now=now + timedelta(hours=1)) == [job.pk]


def test_an_import_past_its_time_stops_and_rolls_back(bob, document, now, settings):
    settings.IMPORT_MAX_SECONDS = 0
    job = import_jobs.start_import(bob, _file(document), now=now)
    import_jobs.run_import_job(job.pk, now=now)
    job.refresh_from_db()
    assert job.status == "failed" and job.error_code == "import_timed_out"
    assert "nothing was imported" in job.error_message
    assert not Subscription.objects.filter(owner=bob).exists()


def test_the_console_queues_the_upload_and_polls_until_it_ends(client, bob, document, queued_only):
    client.force_login(bob)
    upload = SimpleUploadedFile("export.json", document, "application/json")
    page = client.post(reverse("inbox:import"), {"file": upload}, follow=True).content.decode()
    assert "Import started" in page
    assert 'hx-get="/inbox/preferences/import/status/"' in page  # polls while queued
    assert "Waiting for a worker" in page
    job = ImportJob.objects.get(user=bob)
    run_import(job.pk)
    status = client.get(reverse("inbox:import_status")).content.decode()
    assert "Imported: 2 subscriptions" in status and "hx-get" not in status


def _file(data: bytes):
    import io

    return io.BytesIO(data)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_uploads_racing_past_the_check_meet_the_constraint_and_one_wins(
    alice, bob, queued_only, monkeypatch
):
    """Both uploads pass the "no active import" check before either writes its job (a barrier
    holds them there); the database's one-active-import constraint lets one job in, and the
    other upload is answered 409 `import_in_progress` with its stored file removed."""
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is tested on PostgreSQL")
    populate(alice, now=timezone.now())
    document = export_of(alice)
    barrier = threading.Barrier(2, timeout=20)
    store = import_jobs._store

    def store_then_meet(upload, key, limit):
        size = store(upload, key, limit)
        barrier.wait()  # both have checked and stored: now both write their job
        return size

    monkeypatch.setattr(import_jobs, "_store", store_then_meet)

    def upload(client):
        return client.post("/api/v1/import", data=document, content_type="application/json")

    answers = at_once(upload, [api_client_for(bob), api_client_for(bob)])
    assert sorted(answer.status_code for answer in answers) == [202, 409], answers
    refused = next(answer for answer in answers if answer.status_code == 409)
    assert refused.json()["error"]["code"] == "import_in_progress"
    assert refused.json()["error"]["fields"]["file"]
    assert ImportJob.objects.filter(user=bob).count() == 1
    assert len(stored_imports()) == 1  # the loser's upload is gone
