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

from config.compiled_query import CompiledQuery
from inbox.models import ApiToken

TOKEN_PREFIX = "tid"  # noqa: S105 - a label, not a secret
LAST_USED_RESOLUTION = timedelta(minutes=1)
MAX_ACTIVE_TOKENS = 20


# One query, on every API request: the token, its user and the user's preferences (their Inbox
# version keys the JSON API's list cache, inbox.page_cache.cached_api_page); compiled once.
_ACTIVE_TOKEN = CompiledQuery(
    lambda prefix: ApiToken.objects.select_related("user", "user__preference").filter(
        prefix=prefix, revoked_at__isnull=True
    )[:1],
    "\x00prefix",
)


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
            user=user,
            name=name,
            scope=scope,
            prefix=prefix,
            token_hash=_hash(clear),
            fever_key_hash=_hash(fever_api_key(user.email, clear))
            if scope == ApiToken.Scope.READER
            else "",
        )
    return token, clear


def fever_api_key(email: str, app_password: str) -> str:
    """What a Fever client sends as `api_key`: md5 of "email:password" (the protocol's choice;
    the password is a 256-bit app password, so md5's weakness gives nothing away)."""
    return hashlib.md5(f"{email}:{app_password}".encode(), usedforsecurity=False).hexdigest()


def _is_prefix(text: str) -> bool:
    """What issue_token writes (12 hex digits): anything else, a NUL byte included (PostgreSQL
    refuses it in text), names no token and is never sent to the database."""
    return len(text) == 12 and all(char in "0123456789abcdef" for char in text)


def authenticate_token(clear: str, *, now: datetime) -> ApiToken | None:
    """The active token matching `clear`, or None. Updates last-used (at most once a minute)."""
    parts = (clear or "").split("_", 2)
    if len(parts) != 3 or parts[0] != TOKEN_PREFIX or not _is_prefix(parts[1]):
        return None
    token = _ACTIVE_TOKEN.first(parts[1])
    if token is None or not hmac.compare_digest(token.token_hash, _hash(clear)):
        return None
    if not token.user.is_active:
        return None
    _touch(token, now)
    return token


def _touch(token: ApiToken, now: datetime) -> None:
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now


def authenticate_app_password(clear: str, *, now: datetime) -> ApiToken | None:
    """The active app password (a READER-scope token) matching `clear`, or None."""
    token = authenticate_token(clear, now=now)
    return token if token is not None and token.scope == ApiToken.Scope.READER else None


def authenticate_fever_key(api_key: str, *, now: datetime) -> ApiToken | None:
    """The active app password whose Fever api_key is `api_key`, or None."""
    api_key = (api_key or "").strip().lower()
    if len(api_key) != 32:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(
            fever_key_hash=_hash(api_key),
            scope=ApiToken.Scope.READER,
            revoked_at__isnull=True,
            user__is_active=True,
        )
        .first()
    )
    if token is not None:
        _touch(token, now)
    return token


def revoke_token(user, token_id: int, *, now: datetime) -> bool:
    return bool(
        ApiToken.objects.filter(user=user, pk=token_id, revoked_at__isnull=True).update(
            revoked_at=now
        )
    )
