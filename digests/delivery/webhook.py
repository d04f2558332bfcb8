"""The webhook channel: a brief as JSON, POSTed through the one safe fetch client and signed
in the Standard Webhooks style (https://www.standardwebhooks.com/).

Headers `webhook-id` (the delivery's id, the same on every attempt, for the receiver's
dedup), `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature`:
`v1,<base64 HMAC-SHA256 over "id.timestamp.body">` keyed with the endpoint's secret
(`whsec_<base64 key>`); right after a rotation a second signature with the previous secret
follows, space-separated. A 2xx is success; 410 Gone stops retries and disables the endpoint;
timeouts, 5xx and other answers are retried with backoff; an address the fetch policy refuses
is permanent. After DISABLE_AFTER_FAILURES failed attempts in a row the endpoint is disabled,
with the reason shown.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from datetime import datetime

from django.db.models import F
from django.utils import timezone

from digests.delivery.base import Channel, TransportError
from digests.delivery.brief import Brief
from digests.models import Delivery, WebhookEndpoint
from ingest.fetching import fetch

SECRET_PREFIX = "whsec_"  # noqa: S105 — the format's prefix, not a secret
DISABLE_AFTER_FAILURES = 15
# A receiver only has to say it got the message (Standard Webhooks suggests ~15 s).
DEADLINE_SECONDS = 15.0
EVENT_BRIEF = "brief.published"
EVENT_TEST = "webhook.test"


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def sign(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    key = base64.b64decode(secret.removeprefix(SECRET_PREFIX))
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(key, signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def signature_header(
    endpoint: WebhookEndpoint, message_id: str, timestamp: int, body: bytes, *, now: datetime
) -> str:
    signatures = [sign(endpoint.secret, message_id, timestamp, body)]
    if (
        endpoint.previous_secret
        and endpoint.previous_secret_until
        and now < endpoint.previous_secret_until
    ):
        signatures.append(sign(endpoint.previous_secret, message_id, timestamp, body))
    return " ".join(signatures)


def payload(delivery: Delivery, brief: Brief | None, *, now: datetime) -> dict:
    if delivery.event == Delivery.Event.TEST:
        return {
            "type": EVENT_TEST,
            "timestamp": now.isoformat(),
            "data": {
                "subscription": {
                    "id": delivery.subscription_id,
                    "name": delivery.subscription.name,
                },
                "message": "A test event from Tidings: this endpoint receives its briefs.",
            },
        }
    return {"type": EVENT_BRIEF, "timestamp": now.isoformat(), "data": brief.as_payload()}


def encode(data: dict) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


class WebhookChannel(Channel):
    name = Delivery.Channel.WEBHOOK

    def refusal(self, delivery: Delivery) -> str:
        if delivery.subscription.deleted_at is not None:
            return "The subscription was deleted before this brief was sent."
        endpoint = delivery.endpoint
        if endpoint is None:
            return "The webhook was removed before this brief was sent."
        if not endpoint.enabled and delivery.event == Delivery.Event.BRIEF:
            return f"The webhook endpoint is disabled: {endpoint.disabled_reason or 'by you'}"
        return ""

    def send(self, delivery: Delivery, brief: Brief | None) -> int | None:
        endpoint = delivery.endpoint
        # The moment of this attempt, not the injected run time: receivers reject old stamps.
        sent_at = timezone.now()
        body = encode(payload(delivery, brief, now=sent_at))
        stamp = int(sent_at.timestamp())
        headers = {
            "webhook-id": delivery.message_id,
            "webhook-timestamp": str(stamp),
            "webhook-signature": signature_header(
                endpoint, delivery.message_id, stamp, body, now=sent_at
            ),
        }
        try:
            result = fetch.post(
                endpoint.url,
                body=body,
                content_type="application/json",
                headers=headers,
                deadline_seconds=DEADLINE_SECONDS,
            )
        except fetch.HTTPStatusError as exc:
            raise TransportError(
                exc.message,
                permanent=exc.status == 410,
                code=exc.status,
                retry_after=exc.retry_after,
            ) from None
        except fetch.HostCoolingDown as exc:
            raise TransportError(exc.message, retry_after=exc.retry_after) from None
        except fetch.FetchRefused as exc:
            raise TransportError(exc.message, permanent=True) from None
        except fetch.FetchError as exc:
            raise TransportError(exc.message) from None
        return result.status

    def succeeded(self, delivery: Delivery, *, now: datetime) -> None:
        endpoint = delivery.endpoint
        if delivery.event == Delivery.Event.BRIEF and endpoint and endpoint.consecutive_failures:
            WebhookEndpoint.objects.filter(pk=endpoint.pk).update(consecutive_failures=0)

    def failed(
        self, delivery: Delivery, error: TransportError, *, gave_up: bool, now: datetime
    ) -> None:
        # A test event is the owner trying things out: it never counts against the endpoint.
        if delivery.event != Delivery.Event.BRIEF or not delivery.endpoint_id:
            return
        endpoints = WebhookEndpoint.objects.filter(pk=delivery.endpoint_id)
        endpoints.update(consecutive_failures=F("consecutive_failures") + 1)
        failures = endpoints.values_list("consecutive_failures", flat=True).first() or 0
        if error.code == 410:
            reason = "The endpoint answered 410 Gone: it asked not to be called again."
        elif failures >= DISABLE_AFTER_FAILURES:
            reason = f"{failures} attempts in a row failed; the last: {error.message}"
        else:
            return
        endpoints.filter(enabled=True).update(
            enabled=False, disabled_reason=reason[:500], disabled_at=now, updated_at=now
        )
