"""Two steps for what cannot be taken back or costs credits: the first call of such a tool
changes nothing and answers what would happen with a confirmation token; the second call, with
that token, acts.

A token is signed by the server (SECRET_KEY, its own salt) and binds the caller (user and API
token), the tool and its target (the call's arguments, `confirmation` aside); it is good for
CONFIRMATION_TTL and once. An assistant therefore cannot mint one, reuse one for another
subscription, hand one to another reader's token, or replay one: a person (or at least a second,
deliberate call) stands between a stranger's text asking for an action and the action.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta

from django.core import signing
from django.core.cache import cache
from django.utils.translation import gettext as _

from inbox.assistants.caller import Caller

CONFIRMATION_TTL = timedelta(minutes=10)
_SALT = "tidings.mcp.confirmation"
_USED_KEY = "mcp-confirmation-used:{}"


class ConfirmationError(Exception):
    """A confirmation token that is not good for this call: the message says why."""


def _target_digest(tool: str, target: dict) -> str:
    canonical = json.dumps({"tool": tool, "target": target}, sort_keys=True, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()[:32]


def issue(caller: Caller, tool: str, target: dict, *, now: datetime) -> str:
    return signing.dumps(
        {
            "u": caller.user.pk,
            "k": caller.token.pk,
            "t": _target_digest(tool, target),
            "at": int(now.timestamp()),
        },
        salt=_SALT,
        compress=True,
    )


def redeem(caller: Caller, tool: str, target: dict, token: str, *, now: datetime) -> None:
    """Accept `token` for this call once, or raise ConfirmationError."""
    try:
        claims = signing.loads(token, salt=_SALT)
    except signing.BadSignature:
        raise ConfirmationError(
            _("This confirmation token was not issued by this server. Call the tool without one.")
        ) from None
    if not isinstance(claims, dict) or (claims.get("u"), claims.get("k")) != (
        caller.user.pk,
        caller.token.pk,
    ):
        raise ConfirmationError(_("This confirmation token was issued to another caller."))
    if claims.get("t") != _target_digest(tool, target):
        raise ConfirmationError(
            _(
                "This confirmation token was issued for another action or other arguments; "
                "call the tool again without a token to get one for this one."
            )
        )
    issued_at = claims.get("at")
    age = now.timestamp() - issued_at if isinstance(issued_at, int) else None
    if age is None or age < -60 or age > CONFIRMATION_TTL.total_seconds():
        raise ConfirmationError(
            _("This confirmation token has expired (they last %(minutes)d minutes); ask again.")
            % {"minutes": CONFIRMATION_TTL.total_seconds() // 60}
        )
    used_key = _USED_KEY.format(hashlib.sha256(token.encode()).hexdigest())
    if not cache.add(used_key, 1, timeout=int(CONFIRMATION_TTL.total_seconds()) + 120):
        raise ConfirmationError(_("This confirmation token has been used already; ask again."))
