"""One throttle for every way to prove who you are: the console login, the admin login (both
through the authentication backend, so any future surface that calls `authenticate()` is
covered too), the password-reset form, and API tokens (failed bearer authentications per
client address, `api_authentication_*`).

Limits, checked in this order for each login attempt; the first one exhausted refuses it, and
the later ones do not count it:
1. per (client address, account): `LOGIN_FAILURE_LIMIT` in `LOGIN_FAILURE_WINDOW_SECONDS` —
   what stops one attacker guessing one password, and only ever locks out that attacker: the
   owner, at another address, is not touched by it;
2. per client address over all accounts: `LOGIN_ADDRESS_LIMIT` in the same window — trying one
   password on many accounts (spraying);
3. per account over all addresses: `LOGIN_ACCOUNT_LIMIT` in `LOGIN_ACCOUNT_WINDOW_SECONDS`,
   slower — an attacker with many addresses. This is the one an attacker could turn against
   the owner, so it is not applied to a browser that has logged in to that account before (a
   signed cookie set at a successful login; it names the account by a keyed hash only).

Every attempt is counted *before* the password is checked, under a row lock, so N concurrent
attempts check at most the limit's worth of passwords. A successful login gives back the
attempt it spent and clears its (address, account) count. The client address comes from
`config.client_address` (the trusted-proxy setting).
"""

from __future__ import annotations

import hashlib
import hmac
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import F

from config.client_address import client_address, throttle_bucket
from inbox.models import AuthThrottleCounter

KNOWN_BROWSER_COOKIE = "tidings_known"
KNOWN_BROWSER_SALT = "inbox.auth_throttle.known-browser"
KNOWN_BROWSER_MAX_AGE = 365 * 24 * 3600
REQUEST_ATTRIBUTE = "auth_throttle_refusal"  # set on a refused request, read by the middleware


@dataclass(frozen=True)
class Refusal:
    """An attempt the throttle refused: wait `retry_after` seconds."""

    scope: str
    retry_after: int


def account_key(identifier: str) -> str:
    """An account as the throttle names it: a keyed hash of the lowercased email (no address
    in the table, and the same for an account that does not exist)."""
    normalized = (identifier or "").strip().lower().encode()
    return hmac.new(settings.SECRET_KEY.encode(), normalized, hashlib.sha256).hexdigest()[:40]


def _count(key: str, *, limit: int, window: int, now: datetime) -> int | None:
    """Count one attempt under `key`; None when it is within `limit`, else the seconds until
    the window ends. Atomic: the row is locked (or created) inside one transaction."""
    with transaction.atomic():
        row = AuthThrottleCounter.objects.select_for_update().filter(key=key).first()
        if row is None:
            try:
                with transaction.atomic():
                    AuthThrottleCounter.objects.create(
                        key=key, count=1, window_ends_at=now + timedelta(seconds=window)
                    )
                purge_expired(now=now)  # a new key is the only way the table grows
                return None
            except IntegrityError:  # another attempt created it first: lock theirs
                row = AuthThrottleCounter.objects.select_for_update().get(key=key)
        if row.window_ends_at <= now:
            row.count, row.window_ends_at = 1, now + timedelta(seconds=window)
            row.save(update_fields=["count", "window_ends_at"])
            return None
        if row.count >= limit:
            return max(1, math.ceil((row.window_ends_at - now).total_seconds()))
        row.count += 1
        row.save(update_fields=["count"])
        return None


def _give_back(keys: list[str], now: datetime) -> None:
    AuthThrottleCounter.objects.filter(key__in=keys, window_ends_at__gt=now, count__gt=0).update(
        count=F("count") - 1
    )


def _pair_key(address: str, account: str) -> str:
    return f"login:pair:{throttle_bucket(address)}:{account}"


def _address_key(address: str) -> str:
    return f"login:address:{throttle_bucket(address)}"


def _account_key(account: str) -> str:
    return f"login:account:{account}"


def known_browser(request, account: str) -> bool:
    value = request.COOKIES.get(KNOWN_BROWSER_COOKIE) if request is not None else None
    if not value:
        return False
    try:
        accounts = signing.loads(value, salt=KNOWN_BROWSER_SALT, max_age=KNOWN_BROWSER_MAX_AGE)
    except signing.BadSignature:
        return False
    return isinstance(accounts, list) and account in accounts


def known_browser_cookie_value(request, account: str) -> str:
    """The cookie after a successful login: this account added to the ones already known (at
    most five, the latest kept)."""
    accounts: list[str] = []
    value = request.COOKIES.get(KNOWN_BROWSER_COOKIE)
    if value:
        try:
            loaded = signing.loads(value, salt=KNOWN_BROWSER_SALT, max_age=KNOWN_BROWSER_MAX_AGE)
            accounts = [a for a in loaded if isinstance(a, str)] if isinstance(loaded, list) else []
        except signing.BadSignature:
            accounts = []
    accounts = [*[a for a in accounts if a != account][-4:], account]
    return signing.dumps(accounts, salt=KNOWN_BROWSER_SALT)


def login_attempt(request, identifier: str, *, now: datetime) -> Refusal | None:
    """Count a login attempt for `identifier` (an email) from `request`'s client; a Refusal
    when one of the limits is spent (the password must then not be checked)."""
    address = client_address(request)
    account = account_key(identifier)
    window = settings.LOGIN_FAILURE_WINDOW_SECONDS
    checks = [
        ("address-account", _pair_key(address, account), settings.LOGIN_FAILURE_LIMIT, window),
        ("address", _address_key(address), settings.LOGIN_ADDRESS_LIMIT, window),
    ]
    if not known_browser(request, account):
        checks.append(
            (
                "account",
                _account_key(account),
                settings.LOGIN_ACCOUNT_LIMIT,
                settings.LOGIN_ACCOUNT_WINDOW_SECONDS,
            )
        )
    for scope, key, limit, seconds in checks:
        wait = _count(key, limit=limit, window=seconds, now=now)
        if wait is not None:
            return Refusal(scope, wait)
    return None


def login_succeeded(request, identifier: str, *, now: datetime) -> None:
    """The right password: its attempt is given back, and the pair's count starts over."""
    address = client_address(request)
    account = account_key(identifier)
    AuthThrottleCounter.objects.filter(key=_pair_key(address, account)).delete()
    counted = [_address_key(address)]
    if not known_browser(request, account):
        counted.append(_account_key(account))
    _give_back(counted, now)


RESET_QUIET_SCOPE = "reset-requester-account"


def password_reset_attempt(request, email: str, *, now: datetime) -> Refusal | None:
    """Count a password-reset request (each one mails): per client address, then per
    (client address, account). Both count the requester, never the account alone: a count per
    account let anyone's three requests block the owner's own reset for an hour. A refusal of
    the second scope (`RESET_QUIET_SCOPE`) is answered like a success without a mail, so it
    tells nobody whether the account exists or was asked for."""
    window = settings.PASSWORD_RESET_WINDOW_SECONDS
    address = throttle_bucket(client_address(request))
    checks = [
        ("reset-address", f"reset:address:{address}", settings.PASSWORD_RESET_ADDRESS_LIMIT),
        (
            RESET_QUIET_SCOPE,
            f"reset:pair:{address}:{account_key(email)}",
            settings.PASSWORD_RESET_ACCOUNT_LIMIT,
        ),
    ]
    for scope, key, limit in checks:
        wait = _count(key, limit=limit, window=window, now=now)
        if wait is not None:
            return Refusal(scope, wait)
    return None


def _api_failure_key(request) -> str:
    return f"api-auth:address:{throttle_bucket(client_address(request))}"


def api_authentication_failed(request, *, now: datetime) -> Refusal | None:
    """Count one failed API authentication for this client address (atomically); a Refusal
    when that was past the limit."""
    wait = _count(
        _api_failure_key(request),
        limit=settings.API_AUTH_FAILURE_LIMIT,
        window=settings.API_AUTH_FAILURE_WINDOW_SECONDS,
        now=now,
    )
    return None if wait is None else Refusal("api-address", wait)


def purge_expired(*, now: datetime) -> int:
    """Counters whose window ended a day ago: nothing reads them any more."""
    deleted, _ = AuthThrottleCounter.objects.filter(
        window_ends_at__lt=now - timedelta(days=1)
    ).delete()
    return deleted
