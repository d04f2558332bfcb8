"""Personal API tokens: shown once, stored as a prefix plus a SHA-256 hash, revocable.

Format: ``tid_<prefix>_<secret>``. The prefix finds the row; the hash of the whole token is
compared in constant time. Tokens carry 256 bits of entropy, so a fast hash is enough.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext as _

from inbox.models import ApiToken

TOKEN_PREFIX = "tid"  # noqa: S105 - a label, not a secret
LAST_USED_RESOLUTION = timedelta(minutes=1)
MAX_ACTIVE_TOKENS = 20


class TokenError(Exception):
    def __init__(self, message: str, *, field: str = "name"):
        super().__init__(message)
        self.field = field
        self.message = message


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(user, name: str, scope: str = ApiToken.Scope.WRITE) -> tuple[ApiToken, str]:
    """Create a token; returns the row and the clear token, which is never stored."""
    if scope not in ApiToken.Scope.values:
        raise TokenError(
            _("Choose the token's scope: %(choices)s.")
            % {"choices": ", ".join(ApiToken.Scope.values)},
            field="scope",
        )
    name = (name or "").strip()
    if not name:
        raise TokenError(_("Give the token a name, e.g. the script that will use it."))
    if len(name) > 100:
        raise TokenError(_("The name is at most 100 characters."))
    with transaction.atomic():
        if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= MAX_ACTIVE_TOKENS:
            raise TokenError(
                _("At most %(count)s active tokens; revoke one first.")
                % {"count": MAX_ACTIVE_TOKENS}
            )
        prefix = secrets.token_hex(6)
        clear = f"{TOKEN_PREFIX}_{prefix}_{secrets.token_urlsafe(32)}"
        token = ApiToken.objects.create(
            user=user, name=name, scope=scope, prefix=prefix, token_hash=_hash(clear)
        )
    return token, clear


def authenticate_token(clear: str, *, now: datetime) -> ApiToken | None:
    """The active token matching `clear`, or None. Updates last-used (at most once a minute)."""
    parts = (clear or "").split("_", 2)
    if len(parts) != 3 or parts[0] != TOKEN_PREFIX or len(parts[1]) != 12:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(prefix=parts[1], revoked_at__isnull=True)
        .first()
    )
    if token is None or not hmac.compare_digest(token.token_hash, _hash(clear)):
        return None
    if not token.user.is_active:
        return None
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def revoke_token(user, token_id: int, *, now: datetime) -> bool:
    return bool(
        ApiToken.objects.filter(user=user, pk=token_id, revoked_at__isnull=True).update(
            revoked_at=now
        )
    )
