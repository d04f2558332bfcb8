"""The Web Push channel: a brief as a short notification on every device its owner
registered (inbox/push_devices.py), encrypted for each device (RFC 8291, `aes128gcm`) and
signed with the server's VAPID key (RFC 8292).

pywebpush / http_ece / py_vapid only build the request: the encrypted body
(`WebPusher.encode`) and the `Authorization: vapid t=…, k=…` header. The POST itself goes
through the one safe fetch client (`fetch.post`: addresses checked at send time, no
redirects, a deadline, per-host politeness), like every other outbound request.

One delivery row per run (digests/delivery/service.py) reaches all devices; each device it
reached is recorded (`PushSend`, unique per delivery and device), so a retry after a partial
failure or a dead worker sends only to the devices still missing. A push service answering
404 or 410 says the subscription is gone: the device is removed and the rest go on.
"""

from __future__ import annotations

import json
import time
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from py_vapid import Vapid02
from pywebpush import WebPusher

from digests.delivery.base import Channel, TransportError
from digests.delivery.brief import Brief
from digests.models import Delivery, PushSend
from inbox.models import PushDevice
from ingest.fetching import fetch

# How long a push service keeps a notification for a device that is offline.
TTL_SECONDS = 24 * 3600
DEADLINE_SECONDS = 15.0
# VAPID tokens may live up to 24 hours; a short one is enough for one send.
VAPID_TOKEN_SECONDS = 12 * 3600
# Push services take about 4 KB of encrypted payload; the notification stays well below it.
BODY_MAX_CHARS = 300
TITLE_MAX_CHARS = 120


def configured() -> bool:
    return bool(settings.TIDINGS_VAPID_PUBLIC_KEY and settings.TIDINGS_VAPID_PRIVATE_KEY)


def notification(brief: Brief) -> dict:
    """What the service worker shows (static/push-sw.js): a title, a line naming the new
    items, and the brief's Inbox page to open."""
    with translation.override(brief.locale):
        count = len(brief.items)
        lead = ngettext("%(count)d new: ", "%(count)d new: ", count) % {"count": count}
    titles = " · ".join(item.title for item in brief.items[:3])
    return {
        "title": brief.subscription_name[:TITLE_MAX_CHARS],
        "body": (lead + titles)[:BODY_MAX_CHARS],
        "url": brief.inbox_url,
        "tag": f"tidings-run-{brief.run_id}",
    }


def encrypt(device: PushDevice, data: bytes) -> bytes:
    info = {"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh, "auth": device.auth}}
    return WebPusher(info).encode(data, content_encoding="aes128gcm")["body"]


def vapid_headers(endpoint: str) -> dict[str, str]:
    parts = urlsplit(endpoint)
    claims = {
        "sub": settings.TIDINGS_VAPID_SUBJECT,
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + VAPID_TOKEN_SECONDS,
    }
    return Vapid02.from_string(settings.TIDINGS_VAPID_PRIVATE_KEY).sign(claims)


class DeviceGone(Exception):
    """The push service no longer knows this subscription (404 / 410)."""


def send_to_device(device: PushDevice, data: bytes) -> int:
    """Encrypt `data` for `device` and POST it to its push service. Returns the status;
    raises DeviceGone or TransportError."""
    headers = {
        "Content-Encoding": "aes128gcm",
        "TTL": str(TTL_SECONDS),
        "Urgency": "normal",
        **vapid_headers(device.endpoint),
    }
    try:
        result = fetch.post(
            device.endpoint,
            body=encrypt(device, data),
            content_type="application/octet-stream",
            headers=headers,
            deadline_seconds=DEADLINE_SECONDS,
        )
    except fetch.HTTPStatusError as exc:
        if exc.status in (404, 410):
            raise DeviceGone(exc.message) from None
        # 400/403/413: this request is wrong for the service and will stay wrong; 429 and
        # 5xx can pass later.
        permanent = exc.status in (400, 403, 413)
        raise TransportError(
            exc.message, permanent=permanent, code=exc.status, retry_after=exc.retry_after
        ) from None
    except fetch.HostCoolingDown as exc:
        raise TransportError(exc.message, retry_after=exc.retry_after) from None
    except fetch.FetchRefused as exc:
        raise TransportError(exc.message, permanent=True) from None
    except fetch.FetchError as exc:
        raise TransportError(exc.message) from None
    return result.status


def test_payload() -> bytes:
    return encode(
        {
            "title": "Tidings",
            "body": _("Push notifications work on this device."),
            "url": f"{settings.SITE_URL}/",
            "tag": "tidings-test",
        }
    )


def encode(data: dict) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


class PushChannel(Channel):
    name = Delivery.Channel.PUSH

    def refusal(self, delivery: Delivery) -> str:
        if delivery.subscription.deleted_at is not None:
            return "The subscription was deleted before this brief was sent."
        if not delivery.subscription.push_enabled:
            return "Push notifications were turned off before this brief was sent."
        if not configured():
            return "Web Push is off on this server (no VAPID keys)."
        return ""

    def send(self, delivery: Delivery, brief: Brief | None) -> int | None:
        data = encode(notification(brief)) if brief is not None else test_payload()
        reached = set(
            PushSend.objects.filter(delivery=delivery).values_list("device_id", flat=True)
        )
        devices = list(
            PushDevice.objects.filter(user_id=delivery.subscription.owner_id).exclude(
                pk__in=reached
            )
        )
        if not devices and not reached:
            raise TransportError("No device is registered for push notifications.", permanent=True)
        last_error: TransportError | None = None
        code = None
        for device in devices:
            try:
                code = send_to_device(device, data)
            except DeviceGone:
                device.delete()  # its PushSend rows go with it
                continue
            except TransportError as error:
                if last_error is None or not error.permanent:
                    last_error = error
                continue
            sent_at = timezone.now()
            PushSend.objects.get_or_create(
                delivery=delivery,
                device=device,
                defaults={"response_code": code, "sent_at": sent_at},
            )
            PushDevice.objects.filter(pk=device.pk).update(last_sent_at=sent_at)
        if last_error is not None:
            raise last_error
        if not reached and not PushSend.objects.filter(delivery=delivery).exists():
            raise TransportError(
                "Every registered device is gone (the push service answered 404 or 410).",
                permanent=True,
                code=410,
            )
        return code
