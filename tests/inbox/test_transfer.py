"""Transfer codes between two Tidings instances: the old one (a live server) hands out a
one-time code; the new one (the test client, as another account) redeems it through its safe
fetch client and imports. Both sides audit the export's SHA-256."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from digests.models import Run, Subscription
from inbox.models import ImportRecord, TransferCode
from inbox.portability import transfer
from tests.conftest import api_client_for
from tests.inbox.portability_data import populate


def make_code(user, scope="everything") -> str:
    response = api_client_for(user).post("/api/v1/transfer/codes", {"scope": scope}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["code"].startswith("tx_")
    return body["code"]


@pytest.fixture
def old_instance(live_server):
    """The instance the data leaves: a real HTTP server on loopback, reachable by the fetch
    client only through the suite's test-only loopback allowance."""
    with override_settings(FETCH_TEST_ONLY_LOOPBACK_HOSTS=("localhost",)):
        yield live_server.url


@pytest.mark.django_db(transaction=True)
def test_a_transfer_between_two_instances_works_end_to_end_and_once(old_instance, alice, bob):
    populate(alice, now=timezone.now())
    code = make_code(alice)
    new_instance = api_client_for(bob)

    response = new_instance.post(
        "/api/v1/transfer/pull", {"instance": old_instance, "code": code}, format="json"
    )
    # Fetched now, imported by the worker (inline here): the answer is the import's job.
    assert response.status_code == 202, response.content
    job = new_instance.get(response["Location"]).json()
    assert job["status"] == "done", job
    summary = job["summary"]
    assert summary["subscriptions_created"] == 2 and summary["run_items_created"] == 12
    assert set(Subscription.objects.filter(owner=bob).values_list("name", flat=True)) == {
        "Databases",
        "Security",
    }
    assert Run.objects.filter(user=bob, trigger="imported").count() == 4
    # Audited on both sides with the same SHA-256.
    sent = TransferCode.objects.get(user=alice)
    received = ImportRecord.objects.get(user=bob, origin="transfer")
    assert sent.used_at is not None and sent.redeemed_from == "127.0.0.1"
    assert len(sent.checksum) == 64 and sent.checksum == received.checksum
    assert sent.export_bytes > 0

    again = new_instance.post(
        "/api/v1/transfer/pull", {"instance": old_instance, "code": code}, format="json"
    )
    assert again.status_code == 502
    assert "used, revoked or has expired" in again.json()["error"]["fields"]["code"]
    assert Subscription.objects.filter(owner=bob).count() == 2


@pytest.mark.django_db
def test_a_code_works_once_within_its_minutes_and_not_after_revocation(alice):
    now = timezone.now()
    _row, code = transfer.issue_code(alice, "saved", now=now)
    with pytest.raises(transfer.SpentCode, match="expired"):
        transfer.redeem(code, now=now + timedelta(minutes=15, seconds=1))
    row, code = transfer.issue_code(alice, "saved", now=now)
    _used, blocks = transfer.redeem(code, now=now + timedelta(minutes=14))
    body = b"".join(blocks)
    assert json.loads(body)["scope"] == "saved"
    row.refresh_from_db()
    assert row.checksum == hashlib.sha256(body).hexdigest()
    with pytest.raises(transfer.SpentCode, match="used already"):
        transfer.redeem(code, now=now + timedelta(minutes=14))
    row, code = transfer.issue_code(alice, "saved", now=now)
    assert transfer.revoke_code(alice, row.pk, now=now)
    with pytest.raises(transfer.SpentCode, match="revoked"):
        transfer.redeem(code, now=now)


@pytest.mark.django_db
def test_redeem_answers_404_for_unknown_codes_and_410_for_spent_ones(client, alice):
    unknown = client.post(
        "/api/v1/transfer/redeem", {"code": "tx_000000000000_nope"}, "application/json"
    )
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "not_found"
    code = make_code(alice, "saved")
    first = client.post("/api/v1/transfer/redeem", {"code": code}, "application/json")
    assert first.status_code == 200
    assert json.loads(b"".join(first.streaming_content))["format"] == "tidings-export@1"
    second = client.post("/api/v1/transfer/redeem", {"code": code}, "application/json")
    assert second.status_code == 410
    assert second.json()["error"]["code"] == "transfer_code_spent"
    # A guessed secret with a real prefix is unknown, not spent.
    prefix = code.split("_", 2)[1]
    guessed = client.post(
        "/api/v1/transfer/redeem", {"code": f"tx_{prefix}_guess"}, "application/json"
    )
    assert guessed.status_code == 404


@pytest.mark.django_db
def test_pulling_needs_https_and_a_real_code(bob):
    client = api_client_for(bob)
    for instance in (
        "http://tidings.example",
        "ftp://tidings.example",
        "https://u:p@x.example",
        "https://[",
        "https://x.example:port",
    ):
        response = client.post(
            "/api/v1/transfer/pull", {"instance": instance, "code": "tx_a_b"}, format="json"
        )
        assert response.status_code == 400
        assert "instance" in response.json()["error"]["fields"]
    response = client.post(
        "/api/v1/transfer/pull",
        {"instance": "https://tidings.example", "code": "hello"},
        format="json",
    )
    assert response.status_code == 400 and "code" in response.json()["error"]["fields"]


@pytest.mark.django_db
def test_the_fetch_policy_guards_the_pull(bob):
    """Without the test-only allowance a loopback or private instance is refused by the fetch
    client before any connection: a transfer cannot be used to reach the internal network."""
    response = api_client_for(bob).post(
        "/api/v1/transfer/pull",
        {"instance": "https://127.0.0.1:8443", "code": "tx_a_b"},
        format="json",
    )
    assert response.status_code == 502
    assert "never fetches" in response.json()["error"]["fields"]["instance"]


@pytest.mark.django_db
def test_codes_are_scoped_limited_and_revocable(alice):
    client = api_client_for(alice)
    bad = client.post("/api/v1/transfer/codes", {"scope": "all"}, format="json")
    assert bad.status_code == 400 and "scope" in bad.json()["error"]["fields"]
    for _ in range(transfer.MAX_OPEN_CODES):
        make_code(alice)
    refused = client.post("/api/v1/transfer/codes", {"scope": "saved"}, format="json")
    assert refused.status_code == 409  # a state of the account, not a bad request
    assert refused.json()["error"]["code"] == "transfer_code_limit"
    assert "revoke one" in refused.json()["error"]["fields"]["scope"]
    code = TransferCode.objects.filter(user=alice).first()
    assert client.delete(f"/api/v1/transfer/codes/{code.pk}").status_code == 204
    assert client.delete(f"/api/v1/transfer/codes/{code.pk}").status_code == 404
    # Only a hash is kept: no stored field holds a code in clear.
    assert not TransferCode.objects.filter(code_hash__startswith="tx_").exists()


@pytest.mark.django_db
def test_the_preferences_page_shows_a_new_code_once(client, alice):
    client.force_login(alice)
    response = client.post("/inbox/preferences/transfer/", {"scope": "saved_recent"})
    assert response.status_code == 200
    page = response.content.decode()
    row = TransferCode.objects.get(user=alice)
    assert f"tx_{row.prefix}_" in page
    assert "Saved items and recent briefs" in page
    again = client.get("/inbox/preferences/").content.decode()
    assert f'value="tx_{row.prefix}_' not in again
