"""`Idempotency-Key` on the API's creating and costly requests (create a subscription, run
now, a transfer code, a token, follow or fork a topic, add a feed): a client that retries after
a timeout gets the first answer again, marked `Idempotent-Replayed: true`, and nothing is done
twice. Stored per user for KEEP (24 h) in IdempotentRequest.

- The same key with a different request (method, path or body) is refused with 422.
- While the first request is still being served, the same key is answered 409 with
  Retry-After; a first request whose worker died is given up after ABANDONED_AFTER, so the key
  does not stay blocked.
- Only successes are kept: a refused request (4xx) keeps nothing, so the client may correct it
  and send it again with the same key.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta
from functools import wraps

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.response import Response

from config.api.errors import APIConflictError, APIInputError
from inbox.models import IdempotentRequest

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
KEEP = timedelta(hours=24)
# Longer than any synchronous API request may take (the documented gunicorn timeout).
ABANDONED_AFTER = timedelta(minutes=2)
MAX_KEY_LENGTH = 255


class KeyReused(APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "idempotency_key_reused"


def _fingerprint(request) -> str:
    digest = hashlib.sha256(f"{request.method} {request.path}\n".encode())
    digest.update(request._request.body)
    return digest.hexdigest()


def _check_key(key: str) -> None:
    if not 1 <= len(key) <= MAX_KEY_LENGTH or not key.isascii() or not key.isprintable():
        raise APIInputError(
            {
                HEADER: _("1 to %(max)s printable ASCII characters, e.g. a UUID.")
                % {"max": MAX_KEY_LENGTH}
            }
        )


def _replay(row: IdempotentRequest) -> Response:
    headers = {REPLAYED_HEADER: "true"}
    if row.location:
        headers["Location"] = row.location
    return Response(row.body, status=row.status_code, headers=headers)


def _claim(user, key: str, fingerprint: str, now) -> IdempotentRequest | Response:
    """This request's row (it is the first), or the answer to give instead."""
    IdempotentRequest.objects.filter(user=user, created_at__lt=now - KEEP).delete()
    try:
        with transaction.atomic():
            return IdempotentRequest.objects.create(
                user=user, key=key, fingerprint=fingerprint, created_at=now
            )
    except IntegrityError:
        pass
    row = IdempotentRequest.objects.get(user=user, key=key)
    if row.fingerprint != fingerprint:
        raise KeyReused(_("This Idempotency-Key was used for a different request."))
    if row.status_code is not None:
        return _replay(row)
    if now - row.created_at < ABANDONED_AFTER:
        error = APIConflictError(
            _("A request with this Idempotency-Key is still being served; retry shortly.")
        )
        error.wait = 5
        raise error
    # Its worker died before answering: this request takes the key over.
    IdempotentRequest.objects.filter(pk=row.pk, status_code__isnull=True).update(created_at=now)
    row.created_at = now
    return row


PARAMETER = OpenApiParameter(
    HEADER,
    # What _check_key takes: printable ASCII; no space at either end, which HTTP would drop.
    {
        "type": "string",
        "minLength": 1,
        "maxLength": MAX_KEY_LENGTH,
        "pattern": r"^[!-~]([ -~]*[!-~])?$",
    },
    location=OpenApiParameter.HEADER,
    required=False,
    description="Any unique string (a UUID): sent again with the same request within 24 h, "
    "the first answer is given again (`Idempotent-Replayed: true`) and nothing is done twice; "
    "422 if it was used for a different request, 409 while the first is still being served.",
)


def idempotent(view_method):
    """Wrap an API view's method: with an Idempotency-Key, do the work at most once per key."""

    @wraps(view_method)
    def wrapper(self, request, *args, **kwargs):
        key = request.headers.get(HEADER)
        if key is None:
            return view_method(self, request, *args, **kwargs)
        _check_key(key)
        claimed = _claim(request.user, key, _fingerprint(request), timezone.now())
        if isinstance(claimed, Response):
            return claimed
        try:
            response = view_method(self, request, *args, **kwargs)
        except BaseException:
            claimed.delete()
            raise
        if status.is_success(response.status_code):
            claimed.status_code = response.status_code
            claimed.body = response.data
            claimed.location = response.headers.get("Location", "")
            claimed.save(update_fields=["status_code", "body", "location"])
        else:
            claimed.delete()
        return response

    return extend_schema(parameters=[PARAMETER])(wrapper)
