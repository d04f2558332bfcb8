"""A session cookie or a token Tidings never made is refused as unknown, never a 500 — PostgreSQL
refuses a NUL byte in text, so such a value must not reach the database."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse


@pytest.mark.parametrize("cookie", ["abc\x00defghijklmnop", "x" * 5000, "' OR 1=1 --abcdefgh"])
def test_a_forged_session_cookie_is_signed_out(db, cookie):
    client = Client()
    client.cookies["sessionid"] = cookie
    response = client.get(reverse("inbox:index"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


@pytest.mark.parametrize(
    "token", ["tid_abc\x00defghijk_secret", "tid_ABCDEF123456_secret", "tid_zzzzzzzzzzzz_x"]
)
def test_a_forged_token_is_unauthorized(db, token):
    response = Client().get("/api/v1/inbox/items", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 401
    assert response.json()["error"]["code"]
