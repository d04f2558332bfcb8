"""One authentication throttle for the console login, the admin login and password reset:
per (address, account), per address, per account (sparing known browsers); atomic; 429 with
Retry-After; keyed on the trusted client address."""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate
from django.core import mail
from django.db import connection
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

from inbox import auth_throttle
from tests.conftest import make_user
from tests.threads import at_once

PASSWORD = "correct horse battery staple"
CONSOLE = "/accounts/login/"
ADMIN = "/admin/login/"


def attempt(client, url, email, password):
    field = "username"
    return client.post(url, {field: email, "password": password})


def from_address(address: str, **extra) -> Client:
    return Client(REMOTE_ADDR=address, **extra)


@pytest.fixture
def staff(db):
    user = make_user("staff@example.com")
    user.is_staff = user.is_superuser = True
    user.save()
    return user


@override_settings(LOGIN_FAILURE_LIMIT=3)
def test_the_admin_login_is_throttled_like_the_console_with_retry_after(staff):
    attacker = from_address("203.0.113.9")
    for _ in range(3):
        assert attempt(attacker, ADMIN, "staff@example.com", "wrong").status_code == 200
    response = attempt(attacker, ADMIN, "staff@example.com", PASSWORD)
    assert response.status_code == 429
    assert 800 < int(response["Retry-After"]) <= 900
    assert "Too many failed attempts" in response.content.decode()
    assert "_auth_user_id" not in attacker.session


@override_settings(LOGIN_FAILURE_LIMIT=3)
def test_console_and_admin_count_against_one_allowance(staff):
    attacker = from_address("203.0.113.9")
    attempt(attacker, CONSOLE, "staff@example.com", "wrong")
    attempt(attacker, CONSOLE, "staff@example.com", "wrong")
    attempt(attacker, ADMIN, "staff@example.com", "wrong")
    assert attempt(attacker, ADMIN, "staff@example.com", PASSWORD).status_code == 429
    assert attempt(attacker, CONSOLE, "staff@example.com", PASSWORD).status_code == 429


@override_settings(LOGIN_FAILURE_LIMIT=3)
def test_an_attacker_guessing_cannot_lock_the_owner_out(alice):
    attacker = from_address("203.0.113.9")
    for _ in range(10):
        attempt(attacker, CONSOLE, "alice@example.com", "wrong")
    assert attempt(attacker, CONSOLE, "alice@example.com", PASSWORD).status_code == 429
    owner = from_address("198.51.100.4")
    assert attempt(owner, CONSOLE, "alice@example.com", PASSWORD).status_code == 302


@override_settings(LOGIN_FAILURE_LIMIT=3, TIDINGS_TRUSTED_PROXIES="10.0.0.0/8")
def test_behind_a_trusted_proxy_each_client_has_its_own_count(alice, bob):
    attacker = from_address("10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.9")
    for _ in range(3):
        attempt(attacker, CONSOLE, "bob@example.com", "wrong")
    assert attempt(attacker, CONSOLE, "bob@example.com", PASSWORD).status_code == 429
    # Another client through the same proxy, and bob himself from his own address, go on.
    owner = from_address("10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.4")
    assert attempt(owner, CONSOLE, "alice@example.com", PASSWORD).status_code == 302
    bob_himself = from_address("10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.5")
    assert attempt(bob_himself, CONSOLE, "bob@example.com", PASSWORD).status_code == 302


@override_settings(LOGIN_FAILURE_LIMIT=3)
def test_a_forged_forwarded_header_from_an_untrusted_client_changes_nothing(alice):
    attacker = Client(REMOTE_ADDR="203.0.113.9")
    for n in range(3):
        attacker.defaults["HTTP_X_FORWARDED_FOR"] = f"192.0.2.{n}"
        attempt(attacker, CONSOLE, "alice@example.com", "wrong")
    attacker.defaults["HTTP_X_FORWARDED_FOR"] = "192.0.2.200"
    assert attempt(attacker, CONSOLE, "alice@example.com", PASSWORD).status_code == 429


@override_settings(LOGIN_FAILURE_LIMIT=100, LOGIN_ADDRESS_LIMIT=4)
def test_one_address_spraying_many_accounts_is_stopped(db):
    sprayer = from_address("203.0.113.9")
    for n in range(4):
        assert attempt(sprayer, CONSOLE, f"user{n}@example.com", "Summer2026").status_code == 200
    response = attempt(sprayer, CONSOLE, "user9@example.com", "Summer2026")
    assert response.status_code == 429
    assert "Retry-After" in response


@override_settings(LOGIN_FAILURE_LIMIT=100, LOGIN_ACCOUNT_LIMIT=4)
def test_many_addresses_hit_the_per_account_limit_but_a_known_browser_still_gets_in(alice):
    owner = from_address("198.51.100.4")
    assert attempt(owner, CONSOLE, "alice@example.com", PASSWORD).status_code == 302
    owner.post(reverse("logout"))
    assert auth_throttle.KNOWN_BROWSER_COOKIE in owner.cookies

    for n in range(4):
        bot = from_address(f"203.0.113.{n}")
        assert attempt(bot, CONSOLE, "alice@example.com", "wrong").status_code == 200
    assert (
        attempt(from_address("203.0.113.50"), CONSOLE, "alice@example.com", PASSWORD).status_code
        == 429
    )
    # The owner's browser has logged in to this account before: that limit does not apply.
    assert attempt(owner, CONSOLE, "alice@example.com", PASSWORD).status_code == 302
    # A forged or other account's cookie does not count as known.
    forger = from_address("203.0.113.60")
    forger.cookies[auth_throttle.KNOWN_BROWSER_COOKIE] = "not-signed"
    assert attempt(forger, CONSOLE, "alice@example.com", PASSWORD).status_code == 429


@override_settings(LOGIN_FAILURE_LIMIT=3)
def test_a_success_starts_the_count_over(alice):
    client = from_address("198.51.100.4")
    for _ in range(2):
        attempt(client, CONSOLE, "alice@example.com", "wrong")
    assert attempt(client, CONSOLE, "alice@example.com", PASSWORD).status_code == 302
    client.post(reverse("logout"))
    for _ in range(2):
        assert attempt(client, CONSOLE, "alice@example.com", "wrong").status_code == 200
    assert attempt(client, CONSOLE, "alice@example.com", PASSWORD).status_code == 302


@override_settings(PASSWORD_RESET_ADDRESS_LIMIT=2)
def test_password_reset_is_limited_per_address(alice, bob):
    client = from_address("203.0.113.9")
    for email in ["alice@example.com", "bob@example.com"]:
        assert client.post(reverse("password_reset"), {"email": email}).status_code == 302
    response = client.post(reverse("password_reset"), {"email": "carol@example.com"})
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert len(mail.outbox) == 2


@override_settings(PASSWORD_RESET_ACCOUNT_LIMIT=3)
def test_anyones_reset_requests_never_block_the_owners_own_reset(alice):
    stranger = from_address("203.0.113.66")
    answers = [
        stranger.post(reverse("password_reset"), {"email": "ALICE@example.com"}) for _ in range(5)
    ]
    # The same neutral answer every time; past the limit no mail is sent.
    assert {(a.status_code, a["Location"]) for a in answers} == {
        (302, reverse("password_reset_done"))
    }
    assert len(mail.outbox) == 3
    owner = from_address("198.51.100.7")
    response = owner.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert (response.status_code, response["Location"]) == (302, reverse("password_reset_done"))
    assert len(mail.outbox) == 4
    assert mail.outbox[-1].to == ["alice@example.com"]


@pytest.mark.django_db(transaction=True)
@override_settings(LOGIN_FAILURE_LIMIT=5)
def test_concurrent_wrong_logins_never_check_more_passwords_than_the_limit():
    """20 threads with their own connections try a wrong password for one account from one
    address at the same moment: exactly 5 passwords are checked, 15 attempts are refused."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    make_user("target@example.com")
    factory = RequestFactory()

    def guess(n: int) -> str:
        request = factory.post(CONSOLE, REMOTE_ADDR="203.0.113.9")
        request.COOKIES = {}
        authenticate(request, username="target@example.com", password=f"guess-{n}")
        return "refused" if getattr(request, auth_throttle.REQUEST_ATTRIBUTE, None) else "checked"

    outcomes = at_once(guess, range(20))
    assert (outcomes.count("checked"), outcomes.count("refused")) == (5, 15), outcomes


@override_settings(API_AUTH_FAILURE_LIMIT=5, API_AUTH_FAILURE_WINDOW_SECONDS=300)
def test_failed_api_authentication_is_throttled_per_client_address(alice):
    from rest_framework.test import APIClient

    from inbox.tokens import issue_token

    guesser = APIClient(REMOTE_ADDR="203.0.113.9")
    answers = []
    for n in range(8):
        guesser.credentials(HTTP_AUTHORIZATION=f"Bearer tid_wrong{n}")
        answers.append(guesser.get("/api/v1/subscriptions"))
    assert [a.status_code for a in answers] == [401] * 5 + [429] * 3
    assert 290 <= int(answers[-1]["Retry-After"]) <= 300
    assert answers[-1].json()["error"]["code"] == "throttled"
    # Another address is not touched: the owner's good token works there.
    _row, clear = issue_token(alice, "tests")
    owner = APIClient(REMOTE_ADDR="198.51.100.7")
    owner.credentials(HTTP_AUTHORIZATION=f"Bearer {clear}")
    assert owner.get("/api/v1/subscriptions").status_code == 200
    # Good tokens cost no count: many requests later the owner is still in.
    for _ in range(6):
        assert owner.get("/api/v1/subscriptions").status_code == 200
