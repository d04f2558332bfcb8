"""Schemathesis hooks for `bin/api-fuzz` (loaded through SCHEMATHESIS_HOOKS): the fuzzer's own
credentials.

The API lets a token revoke itself and any other of its account's (`DELETE /tokens/{id}`), and
the fuzzer calls every operation with ids it has seen, so it revokes the token it runs with;
everything after would be a 401 and nothing behind authentication tested. The demo user's
token is therefore given by this provider, which checks before each request that it is still
active and issues a new one (in the same database, through inbox.tokens) when it is not.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import schemathesis

ROOT = Path(__file__).resolve().parent.parent
DEMO_EMAIL = "demo@tidings.local"
TOKEN_NAME = "api-fuzz"


def _django():
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


@schemathesis.auth(refresh_interval=None)
class RenewedToken:
    def __init__(self):
        self.token_id = None
        self.clear = os.environ.get("API_FUZZ_TOKEN", "")

    def get(self, case, context):
        if self.token_id is None:
            _django()
            from django.utils import timezone

            from inbox.tokens import authenticate_token

            token = authenticate_token(self.clear, now=timezone.now()) if self.clear else None
            self.token_id = token.pk if token else 0
        from inbox.models import ApiToken

        if not ApiToken.objects.filter(pk=self.token_id, revoked_at__isnull=True).exists():
            self._renew()
        return self.clear

    def _renew(self):
        from django.contrib.auth import get_user_model
        from django.utils import timezone

        from inbox.tokens import MAX_ACTIVE_TOKENS, issue_token

        user = get_user_model().objects.get(email=DEMO_EMAIL)
        active = user.api_tokens.filter(revoked_at__isnull=True).order_by("id")
        if active.count() >= MAX_ACTIVE_TOKENS:
            active.filter(pk=active.values("pk")[:1]).update(revoked_at=timezone.now())
        token, self.clear = issue_token(user, TOKEN_NAME)
        self.token_id = token.pk

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"
