"""Log in with an email address: the username of every account is its lowercased email.

Every password check goes through the authentication throttle first (inbox/auth_throttle.py):
the console login, the admin login and anything else that calls `authenticate()` with a
request. A refused attempt leaves a `Refusal` on the request (the login forms word their error
from it, inbox/middleware.py answers 429 with Retry-After) and the password is not checked."""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.utils import timezone

from config.client_address import client_address
from config.compiled_query import PLACEHOLDER_ID, CompiledQuery
from inbox import auth_throttle

logger = logging.getLogger(__name__)

# On every signed-in page: compiled once (config/compiled_query.py).
_SIGNED_IN_USER = CompiledQuery(
    lambda user_id: (
        get_user_model()._default_manager.select_related("preference").filter(pk=user_id)[:1]
    ),
    PLACEHOLDER_ID,
)


class EmailBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        email = (username or kwargs.get("email") or "").strip().lower()
        if request is None or password is None:
            return super().authenticate(request, username=email, password=password)
        now = timezone.now()
        refusal = auth_throttle.login_attempt(request, email, now=now)
        if refusal is not None:
            setattr(request, auth_throttle.REQUEST_ATTRIBUTE, refusal)
            logger.warning(
                "login refused by the %s limit: client %s, retry after %ss",
                refusal.scope,
                client_address(request),
                refusal.retry_after,
            )
            return None
        user = super().authenticate(request, username=email, password=password)
        if user is not None:
            auth_throttle.login_succeeded(request, email, now=now)
            request.auth_throttle_known_account = auth_throttle.account_key(email)
        return user

    def get_user(self, user_id):
        """The signed-in user of a session with their preferences (language, time zone, the
        Inbox's version) in the same query: UserPreferenceMiddleware reads them from it
        instead of asking again on every page."""
        user = _SIGNED_IN_USER.first(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None
