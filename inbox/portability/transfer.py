"""One-time transfer codes: another Tidings instance pulls this account's export with one.

On the instance the data leaves (the code's side):
- `issue_code` makes a code — `tx_<prefix>_<secret>`, 256 bits, stored as a prefix and a
  SHA-256 hash like API tokens, shown once — good for `TRANSFER_CODE_MINUTES` (15), once, for
  one scope (saved items / saved items and recent briefs / everything); `revoke_code` ends it.
- `redeem` is what `POST /api/v1/transfer/redeem` calls: the code is spent by one conditional
  UPDATE (used, revoked and expired codes match nothing, so two redemptions racing get one
  export), then the export is streamed and its SHA-256 and size are written on the code row
  when the last byte has gone — the audit of this side.

On the instance the data arrives at:
- `pull` posts the code to the other instance's redeem URL through the one safe fetch client
  (`ingest.fetching.fetch.post`: the fetch policy's address checks, timeouts, a size cap of
  IMPORT_MAX_BYTES on the answer), over HTTPS only, and imports the answer like an upload; the
  import's `ImportRecord` (origin `transfer`, the instance, the SHA-256 of what arrived) is the
  audit of this side, and the two checksums match.

Refusals say which case it is: an unknown code (404), a used, revoked or expired one (410).
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import secrets
from collections.abc import Iterator
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import F
from django.utils.translation import gettext as _
from rest_framework import status

from config.api.errors import ServiceRefusal
from inbox.models import ImportJob, ImportRecord, TransferCode
from inbox.portability import import_jobs
from inbox.portability.export import encoded_chunks, stream_export
from inbox.portability.importing import max_import_bytes
from ingest.fetching import fetch

CODE_PREFIX = "tx"
MAX_OPEN_CODES = 5
REDEEM_PATH = "/api/v1/transfer/redeem"
PULL_DEADLINE_SECONDS = 120.0


class TransferRefused(ServiceRefusal):
    code = "transfer_refused"


class UnknownCode(TransferRefused):
    status_code = status.HTTP_404_NOT_FOUND
    code = "not_found"


class SpentCode(TransferRefused):
    status_code = status.HTTP_410_GONE
    code = "transfer_code_spent"


class TooManyOpenCodes(TransferRefused):
    """A limit on what the account holds, not bad input: the same request succeeds once a code
    is revoked or expires."""

    status_code = status.HTTP_409_CONFLICT
    code = "transfer_code_limit"


class RemoteRefused(TransferRefused):
    status_code = status.HTTP_502_BAD_GATEWAY
    code = "transfer_failed"


def _hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def expiry_minutes() -> int:
    return settings.TRANSFER_CODE_MINUTES


def issue_code(user, scope: str, *, now: datetime) -> tuple[TransferCode, str]:
    """A new code; returns the row and the code in clear, which is never stored."""
    if scope not in TransferCode.Scope.values:
        raise TransferRefused(
            {
                "scope": _("Choose one of %(choices)s.")
                % {"choices": ", ".join(TransferCode.Scope.values)}
            }
        )
    open_codes = TransferCode.objects.filter(
        user=user, used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=now
    ).count()
    if open_codes >= MAX_OPEN_CODES:
        raise TooManyOpenCodes(
            {
                "scope": _("You have %(count)d unused transfer codes; revoke one or let it expire.")
                % {"count": open_codes}
            }
        )
    prefix = secrets.token_hex(6)
    code = f"{CODE_PREFIX}_{prefix}_{secrets.token_urlsafe(32)}"
    row = TransferCode.objects.create(
        user=user,
        scope=scope,
        prefix=prefix,
        code_hash=_hash(code),
        created_at=now,
        expires_at=now + timedelta(minutes=expiry_minutes()),
    )
    return row, code


def revoke_code(user, code_id: int, *, now: datetime) -> bool:
    return bool(
        TransferCode.objects.filter(
            user=user, pk=code_id, used_at__isnull=True, revoked_at__isnull=True
        ).update(revoked_at=now)
    )


def _find(code: str) -> TransferCode | None:
    parts = (code or "").split("_", 2)  # the secret may hold "_" itself
    if len(parts) != 3 or parts[0] != CODE_PREFIX:
        return None
    row = TransferCode.objects.filter(prefix=parts[1]).select_related("user").first()
    if row is None or not hmac.compare_digest(row.code_hash, _hash(code)):
        return None
    return row


def _spent_reason(row: TransferCode, now: datetime) -> str:
    if row.revoked_at is not None:
        return _("This transfer code was revoked.")
    if row.used_at is not None:
        return _("This transfer code was used already; a code works once. Make a new one.")
    return _("This transfer code expired; codes last %(minutes)d minutes. Make a new one.") % {
        "minutes": expiry_minutes()
    }


def redeem(code: str, *, now: datetime, address: str = "") -> tuple[TransferCode, Iterator[bytes]]:
    """Spend `code` and return its row and the export's bytes, to be sent as they come."""
    row = _find(code)
    if row is None:
        raise UnknownCode({"code": _("No such transfer code.")})
    spent = TransferCode.objects.filter(
        pk=row.pk, used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=now
    ).update(used_at=now, redeemed_from=address[:64])
    if not spent:
        row.refresh_from_db()
        raise SpentCode({"code": _spent_reason(row, now)})
    return row, _audited(row, encoded_chunks(stream_export(row.user, now=now, scope=row.scope)))


def _audited(row: TransferCode, blocks: Iterator[bytes]) -> Iterator[bytes]:
    digest = hashlib.sha256()
    size = 0
    for block in blocks:
        digest.update(block)
        size += len(block)
        yield block
    # Written when the last byte has been handed over: a transfer that broke off records none.
    TransferCode.objects.filter(pk=row.pk).update(
        checksum=digest.hexdigest(), export_bytes=F("export_bytes") + size
    )


# --- The receiving side ---------------------------------------------------------------------------


def redeem_url(instance: str) -> str:
    """The other instance's redeem URL; HTTPS only (a code and someone's data travel on it)."""
    instance = (instance or "").strip().rstrip("/")
    try:
        parts = urlsplit(instance)
        test_host = parts.hostname in settings.FETCH_TEST_ONLY_LOOPBACK_HOSTS
        _port = parts.port
    except ValueError:  # "https://[", a port that is not a number
        raise TransferRefused({"instance": _("This is not a web address.")}) from None
    if parts.scheme != "https" and not (test_host and parts.scheme == "http"):
        raise TransferRefused(
            {"instance": _("Give the other Tidings' address starting with https://.")}
        )
    if parts.query or parts.fragment or parts.username or parts.password:
        raise TransferRefused(
            {"instance": _("Give only the other Tidings' address, e.g. https://tidings.example.")}
        )
    return f"{instance}{REDEEM_PATH}"


def pull(user, *, instance: str, code: str, now: datetime) -> ImportJob:
    """Redeem `code` at `instance` and queue the import of what it answers into `user`'s
    account (inbox/portability/import_jobs.py): the fetch is bounded by PULL_DEADLINE_SECONDS,
    the import runs in the worker. The caller enqueues the job."""
    if import_jobs.active(user).exists():
        raise import_jobs.in_progress()  # before spending the other instance's one-time code
    code = (code or "").strip()
    if not code.startswith(f"{CODE_PREFIX}_") or len(code) > 200:
        raise TransferRefused({"code": _("A transfer code starts with “tx_”.")})
    url = redeem_url(instance)
    try:
        answer = fetch.post(
            url,
            body=json.dumps({"code": code}).encode(),
            content_type="application/json",
            headers={"Accept": "application/json"},
            max_bytes=max_import_bytes(),
            deadline_seconds=PULL_DEADLINE_SECONDS,
            whole_answer=True,
        )
    except fetch.HTTPStatusError as exc:
        reasons = {
            404: _("The other Tidings does not know this code."),
            410: _("The other Tidings says this code was used, revoked or has expired."),
        }
        raise RemoteRefused({"code": reasons.get(exc.status, exc.message)}) from None
    except fetch.FetchError as exc:
        raise RemoteRefused({"instance": exc.message}) from None
    return import_jobs.start_import(
        user, io.BytesIO(answer.content), now=now, origin=ImportRecord.Origin.TRANSFER
    )
