"""Sign up, log in, log out, password reset, login throttling and `next` redirects."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import override_settings
from django.urls import reverse

from billing.models import Account
from inbox.models import UserPreference

User = get_user_model()
PASSWORD = "correct horse battery staple"


def signup(client, **overrides):
    data = {"email": "carol@example.com", "password": PASSWORD, "timezone": "Asia/Seoul"}
    data.update(overrides)
    return client.post(reverse("signup"), data)


def test_sign_up_creates_the_user_their_preferences_and_a_free_account(client, db):
    response = signup(client)
    assert response.status_code == 302
    user = User.objects.get(email="carol@example.com")
    assert UserPreference.objects.get(user=user).timezone == "Asia/Seoul"
    assert Account.objects.get(user=user).tier == "free"
    assert client.get(reverse("inbox:index")).status_code == 200  # signed in


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"email": "not-an-email"}, "email", "valid email"),
        ({"password": "short"}, "password", "too short"),
        ({"password": "password123"}, "password", "too common"),
    ],
)
def test_sign_up_refuses_bad_input_and_creates_nothing(client, db, overrides, field, message):
    response = signup(client, **overrides)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert User.objects.count() == 0
    assert UserPreference.objects.count() == 0
    assert Account.objects.count() == 0


def test_an_unknown_browser_timezone_falls_back_to_utc(client, db):
    signup(client, timezone="Mars/Olympus")
    assert UserPreference.objects.get().timezone == "UTC"


def test_sign_up_refuses_an_email_that_already_has_an_account(client, alice):
    response = signup(client, email="ALICE@example.com")
    assert "already exists" in response.content.decode()
    assert User.objects.count() == 1


def test_log_in_with_email_any_case_and_log_out(client, alice):
    response = client.post(
        reverse("login"), {"username": "Alice@Example.COM", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("inbox:index")
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("inbox:index")).status_code == 302  # back to login


def test_login_follows_a_local_next_but_refuses_an_open_redirect(client, alice):
    ok = client.post(
        reverse("login") + "?next=/subscriptions/",
        {"username": "alice@example.com", "password": PASSWORD, "next": "/subscriptions/"},
    )
    assert ok["Location"] == "/subscriptions/"
    client.post(reverse("logout"))
    for evil in ("https://evil.example/", "//evil.example/", "/\\evil.example"):
        response = client.post(
            reverse("login"),
            {"username": "alice@example.com", "password": PASSWORD, "next": evil},
        )
        assert response["Location"] == reverse("inbox:index"), evil
        client.post(reverse("logout"))


def test_signup_refuses_an_open_redirect_too(client, db):
    response = signup(client, next="https://evil.example/")
    assert response["Location"] == reverse("digests:new")


@override_settings(LOGIN_FAILURE_LIMIT=3)
def test_login_is_refused_after_repeated_failures_even_with_the_right_password(client, alice):
    for _ in range(3):
        response = client.post(
            reverse("login"), {"username": "alice@example.com", "password": "wrong"}
        )
        assert response.status_code == 200
    response = client.post(
        reverse("login"), {"username": "alice@example.com", "password": PASSWORD}
    )
    assert response.status_code == 429
    assert "Too many failed attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_password_reset_sends_a_link_that_sets_a_new_password(client, alice):
    response = client.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200
    set_url = form_page.redirect_chain[-1][0]
    response = client.post(
        set_url,
        {"new_password1": "a brand new passphrase", "new_password2": "a brand new passphrase"},
    )
    assert response.status_code == 302
    assert client.login(username="alice@example.com", password="a brand new passphrase")


def test_password_reset_for_an_unknown_email_sends_nothing_and_reveals_nothing(client, db):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert mail.outbox == []
