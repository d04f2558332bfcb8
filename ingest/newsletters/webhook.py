"""Mailgun's inbound routes, for deployments that do not run `manage.py mailin`.

A route whose action is `forward("https://tidings.example/api/v1/public/newsletters/inbound/mailgun")`
with "mime" posts the raw message as the `body-mime` field, and signs the post: `signature` is
the hex HMAC-SHA256 of `timestamp` + `token` under the account's HTTP webhook signing key
(MAILGUN_SIGNING_KEY). A post whose signature does not verify, is older than
MAX_SIGNATURE_AGE, or replays a token is refused with 403; an unknown recipient answers 406,
which Mailgun reads as "rejected, do not retry".
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from ingest.newsletters.receiving import Refused, accept_message
from ingest.newsletters.smtp import enqueue_read

MAX_SIGNATURE_AGE = timedelta(minutes=15)


class NotAcceptable(exceptions.APIException):
    status_code = status.HTTP_406_NOT_ACCEPTABLE
    default_code = "refused"


def signature_problem(timestamp: str, token: str, signature: str, *, now: datetime) -> str:
    """Why a Mailgun signature is not good, or "" when it is."""
    key = settings.MAILGUN_SIGNING_KEY
    if not key:
        return _("The Mailgun webhook is off: MAILGUN_SIGNING_KEY is not set.")
    expected = hmac.new(key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, (signature or "").lower()):
        return _("signature: it does not verify with the signing key.")
    try:
        signed_at = datetime.fromtimestamp(int(timestamp), tz=now.tzinfo)
    except (ValueError, OverflowError, OSError):
        return _("timestamp: not a Unix time.")
    if abs(now - signed_at) > MAX_SIGNATURE_AGE:
        return _("timestamp: signed more than 15 minutes away from now.")
    # A token is good once: a captured post cannot be replayed.
    if not cache.add(f"mailgun-token:{token}", 1, int(MAX_SIGNATURE_AGE.total_seconds()) * 2):
        return _("token: already used.")
    return ""


class MailgunInboundView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        request=None,
        responses={
            200: OpenApiResponse(description="Taken (or already taken)."),
            403: OpenApiResponse(description="The signature does not verify."),
            406: OpenApiResponse(description="No such address: Mailgun does not retry."),
        },
        description="Mailgun inbound route (forward with MIME): fields recipient, body-mime, "
        "timestamp, token, signature.",
    )
    def post(self, request):
        now = timezone.now()
        data = request.data
        problem = signature_problem(
            str(data.get("timestamp", "")),
            str(data.get("token", "")),
            str(data.get("signature", "")),
            now=now,
        )
        if problem:
            raise exceptions.PermissionDenied(problem)
        raw = data.get("body-mime", "")
        if hasattr(raw, "read"):
            raw = raw.read()
        raw = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else raw
        recipients = [r.strip() for r in str(data.get("recipient", "")).split(",") if r.strip()]
        try:
            rows = accept_message(recipients, raw, now=now, enqueue=enqueue_read)
        except Refused as refused:
            raise NotAcceptable(refused.message) from None
        return Response({"accepted": len(rows)})
