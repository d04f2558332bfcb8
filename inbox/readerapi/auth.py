"""App-password checks shared by both protocols, with the login throttle: a wrong password
counts as a failed login (inbox.auth_throttle), and once a limit is spent every attempt from
that client is refused until the window ends — as the console login is."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace

from config.api.throttling import LiveUserRateThrottle, TokenRateThrottle
from inbox.auth_throttle import Refusal, login_attempt, login_succeeded

# The throttle's "account" for credentials that name none (a Fever api_key, a bearer-like
# GoogleLogin token): the per-address limits still apply.
ANONYMOUS = "reading-app"


def failed(request, identifier: str, *, now: datetime) -> Refusal | None:
    """Count a failed attempt; the Refusal when a limit is spent."""
    return login_attempt(request, identifier or ANONYMOUS, now=now)


def before_password(request, identifier: str, *, now: datetime) -> Refusal | None:
    """ClientLogin, which names the account: counted before the password is checked."""
    return login_attempt(request, identifier or ANONYMOUS, now=now)


def succeeded(request, identifier: str, *, now: datetime) -> None:
    login_succeeded(request, identifier or ANONYMOUS, now=now)


def wait_before_request(request, token) -> float | None:
    """Count a signed-in request against the JSON API's own allowances — the user's (shared
    with their scripts and the API) and the app password's — so a reading app polling in a
    loop is slowed like any API client. None when it may go ahead, else seconds to wait."""
    counted = SimpleNamespace(user=token.user, auth=token, META=request.META, _request=request)
    for throttle in (LiveUserRateThrottle(), TokenRateThrottle()):
        if not throttle.allow_request(counted, None):
            return throttle.wait() or 1.0
    return None
