"""Personal API tokens: hashed at rest, shown once, revocable; the API's error shape."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from inbox.models import ApiToken
from inbox.tokens import authenticate_token, issue_token, revoke_token


@pytest.fixture
def api():
    return APIClient()


def bearer(api, token):
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return api


def test_a_token_is_stored_only_as_prefix_and_hash(alice):
    row, clear = issue_token(alice, "backup script")
    stored = ApiToken.objects.get(pk=row.pk)
    assert clear.startswith(f"tid_{stored.prefix}_")
    assert clear not in (stored.token_hash, stored.prefix)
    assert len(stored.token_hash) == 64


def test_a_valid_token_authenticates_and_records_last_use(api, alice):
    row, clear = issue_token(alice, "cli")
    response = bearer(api, clear).get("/api/v1/me")
    assert response.status_code == 200
    assert response.json() == {
        "id": alice.id,
        "email": "alice@example.com",
        "token_scope": "write",
        "language": "auto",
        "timezone": "Europe/Berlin",  # the fixture user's preference
    }
    row.refresh_from_db()
    assert row.last_used_at is not None


def test_a_revoked_token_is_refused_with_the_error_shape(api, alice):
    row, clear = issue_token(alice, "cli")
    assert revoke_token(alice, row.pk, now=timezone.now())
    response = bearer(api, clear).get("/api/v1/me")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Bearer"
    assert response.json() == {
        "error": {
            "code": "authentication_failed",
            "message": "Invalid or revoked API token.",
            "fields": {},
            "field_codes": {},
        }
    }


@pytest.mark.parametrize(
    "header",
    [
        "Bearer",
        "Bearer tid_abc",
        "Bearer tid_0123456789ab_wrongsecret",
        "Bearer two words",
        "Bearer not-a-token-at-all",
    ],
)
def test_malformed_or_unknown_tokens_get_401(api, alice, header):
    issue_token(alice, "cli")
    api.credentials(HTTP_AUTHORIZATION=header)
    response = api.get("/api/v1/me")
    assert response.status_code == 401
    assert response.json()["error"]["code"] in {"authentication_failed", "not_authenticated"}


def test_no_credentials_is_401_not_a_redirect(api, db):
    response = api.get("/api/v1/me")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


def test_one_users_token_never_reveals_another_users_data(api, alice, bob):
    _row, clear = issue_token(bob, "bob's")
    response = bearer(api, clear).get("/api/v1/me")
    assert response.json()["email"] == "bob@example.com"
    assert authenticate_token(clear, now=timezone.now()).user == bob


def test_last_used_is_written_at_most_once_a_minute(alice):
    row, clear = issue_token(alice, "cli")
    first = timezone.now()
    authenticate_token(clear, now=first)
    authenticate_token(clear, now=first + timedelta(seconds=20))
    row.refresh_from_db()
    assert row.last_used_at == first


def test_the_tokens_page_shows_a_new_token_once_and_revokes(client, alice):
    client.force_login(alice)
    page = client.post(reverse("inbox:tokens"), {"name": "laptop"})
    body = page.content.decode()
    assert "It will not be shown again" in body
    clear = body.split('readonly value="')[1].split('"')[0]
    assert clear.startswith("tid_")
    assert clear not in client.get(reverse("inbox:tokens")).content.decode()
    token = ApiToken.objects.get()
    client.post(reverse("inbox:tokens"), {"revoke": str(token.pk)})
    token.refresh_from_db()
    assert token.revoked_at is not None


def test_a_token_needs_a_name(client, alice):
    client.force_login(alice)
    response = client.post(reverse("inbox:tokens"), {"name": "  "})
    assert "Give the token a name" in response.content.decode()
    assert ApiToken.objects.count() == 0


def test_validation_errors_name_the_field(api, alice):
    _row, clear = issue_token(alice, "cli")
    response = bearer(api, clear).post(
        "/api/v1/subscriptions", {"name": "", "cron": "99 * * * *"}, format="json"
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert set(error["fields"]) >= {"name", "cron"}
    assert "the minute field cannot be 99" in error["fields"]["cron"]


def test_unknown_objects_are_404_in_the_error_shape(api, alice):
    _row, clear = issue_token(alice, "cli")
    response = bearer(api, clear).get("/api/v1/subscriptions/999999")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_the_openapi_schema_and_docs_are_served(client, db):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/v1/subscriptions" in schema.content
    assert b"PersonalApiToken" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger-ui" in docs.content


def test_a_read_only_token_reads_but_changes_nothing(alice, now):
    from rest_framework.test import APIClient

    from digests.models import Subscription
    from digests.subscriptions.service import create_subscription

    subscription = create_subscription(
        alice, {"name": "PG", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    _row, clear = issue_token(alice, "dashboard", "read")
    reader = APIClient()
    reader.credentials(HTTP_AUTHORIZATION=f"Bearer {clear}")
    assert reader.get("/api/v1/me").json()["token_scope"] == "read"
    assert reader.get("/api/v1/subscriptions").json()["results"][0]["id"] == subscription.pk
    for method, path in [
        ("post", f"/api/v1/subscriptions/{subscription.pk}/run"),
        ("patch", f"/api/v1/subscriptions/{subscription.pk}"),
        ("delete", f"/api/v1/subscriptions/{subscription.pk}"),
        ("post", "/api/v1/inbox/items/bulk"),
    ]:
        refused = getattr(reader, method)(path, {"name": "X"})
        assert refused.status_code == 403, (method, path)
        assert "read-only" in refused.json()["error"]["message"]
    subscription.refresh_from_db()
    assert (subscription.name, subscription.deleted_at) == ("PG", None)
    assert not subscription.runs.exists()
    assert Subscription.objects.count() == 1


def test_the_tokens_page_makes_a_read_only_token(client, alice):
    client.force_login(alice)
    client.post(reverse("inbox:tokens"), {"name": "reader", "scope": "read"})
    assert ApiToken.objects.get().scope == "read"
    client.post(reverse("inbox:tokens"), {"name": "writer"})
    assert ApiToken.objects.get(name="writer").scope == "write"
    response = client.post(reverse("inbox:tokens"), {"name": "odd", "scope": "admin"})
    assert "scope" in response.content.decode()
    assert not ApiToken.objects.filter(name="odd").exists()


# --- Tokens and the account over the API --------------------------------------------------------


def test_a_client_creates_lists_and_revokes_tokens(api, alice):
    _row, clear = issue_token(alice, "setup script")
    client = bearer(api, clear)
    made = client.post("/api/v1/tokens", {"name": "dashboard"}, format="json")
    assert made.status_code == 201
    body = made.json()
    assert body["scope"] == "read"  # the safer default
    assert body["token"].startswith(f"tid_{body['prefix']}_")
    assert made["Location"].endswith(f"/api/v1/tokens/{body['id']}")
    listed = client.get("/api/v1/tokens").json()["results"]
    assert [t["name"] for t in listed] == ["dashboard", "setup script"]
    assert all("token" not in t and "token_hash" not in t for t in listed)
    assert [t["current"] for t in listed] == [False, True]
    assert bearer(APIClient(), body["token"]).get("/api/v1/me").json()["token_scope"] == "read"
    assert client.delete(f"/api/v1/tokens/{body['id']}").status_code == 204
    assert bearer(APIClient(), body["token"]).get("/api/v1/me").status_code == 401
    assert client.delete(f"/api/v1/tokens/{body['id']}").status_code == 404


def test_a_read_only_token_cannot_make_tokens_and_no_one_revokes_anothers(api, alice, bob):
    _row, read_only = issue_token(alice, "reader", "read")
    refused = bearer(api, read_only).post("/api/v1/tokens", {"name": "escalate"}, format="json")
    assert refused.status_code == 403
    assert ApiToken.objects.filter(user=alice).count() == 1
    bobs, _clear = issue_token(bob, "bob's")
    _row, write = issue_token(alice, "writer")
    assert bearer(APIClient(), write).delete(f"/api/v1/tokens/{bobs.pk}").status_code == 404
    assert ApiToken.objects.get(pk=bobs.pk).revoked_at is None


@pytest.mark.parametrize(
    ("body", "field", "fragment"),
    [
        ({"name": ""}, "name", "may not be blank"),
        ({"name": "   "}, "name", "Give the token a name"),
        ({"name": "x" * 101}, "name", "At most 100"),
        ({"name": "ok", "scope": "admin"}, "scope", "Choose one of"),
        ({"name": "ok", "expires": "never"}, "expires", "Unknown field"),
    ],
)
def test_bad_token_requests_name_the_field_and_make_nothing(api, alice, body, field, fragment):
    _row, clear = issue_token(alice, "setup")
    response = bearer(api, clear).post("/api/v1/tokens", body, format="json")
    assert response.status_code == 400
    assert fragment in response.json()["error"]["fields"][field]
    assert ApiToken.objects.filter(user=alice).count() == 1


def test_the_account_preferences_are_read_and_changed_over_the_api(api, alice):
    _row, clear = issue_token(alice, "cli")
    client = bearer(api, clear)
    changed = client.patch(
        "/api/v1/me", {"language": "zh-hans", "timezone": "Asia/Shanghai"}, format="json"
    )
    assert changed.status_code == 200, changed.json()
    assert (changed.json()["language"], changed.json()["timezone"]) == ("zh-hans", "Asia/Shanghai")
    refused = client.patch("/api/v1/me", {"timezone": "Mars/Base"}, format="json")
    assert refused.status_code == 400 and "timezone" in refused.json()["error"]["fields"]
    assert client.get("/api/v1/me").json()["timezone"] == "Asia/Shanghai"
