"""A user's Web Push devices: the subscriptions their browsers' service worker obtained
(`PushSubscription.toJSON()`: endpoint + keys p256dh and auth), registered from the
preferences page or the API, listed and removed there.

The endpoint is where the push service takes notifications for that browser: an https URL the
fetch policy must accept (checked here, and again at every send by the fetch client). The
keys are checked for shape (an uncompressed P-256 point, a 16-byte secret) so a broken
subscription is refused now rather than failing every send later. One endpoint belongs to one
browser profile: registering it again (another account signed in there) moves it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from config.api.errors import ServiceRefusal
from digests.delivery.endpoints import WebhookURLError, check_url
from inbox.models import PushDevice
from ingest.fetching import fetch

ENDPOINT_MAX_CHARS = 2048
LABEL_MAX_CHARS = 100
MAX_DEVICES = 20


class PushDeviceError(ServiceRefusal):
    """Refused device input, by field (HTTP 400)."""


def push_enabled() -> bool:
    return bool(settings.TIDINGS_VAPID_PUBLIC_KEY and settings.TIDINGS_VAPID_PRIVATE_KEY)


def _b64url(value: str, field: str, size: int, what: str) -> str:
    value = (value or "").strip()
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if not value or len(raw) != size or (size == 65 and raw[0] != 4):
        raise PushDeviceError({field: _("Must be %(what)s, base64url-encoded.") % {"what": what}})
    return value.rstrip("=")


def _endpoint(value: str) -> str:
    value = (value or "").strip()
    if not value:
        raise PushDeviceError({"endpoint": _("The push subscription has no endpoint.")})
    if len(value) > ENDPOINT_MAX_CHARS:
        raise PushDeviceError(
            {"endpoint": _("At most %(count)d characters.") % {"count": ENDPOINT_MAX_CHARS}}
        )
    try:
        # The webhook rule: syntax, scheme, port and a literal address's range now; the
        # host's addresses are resolved and checked by the fetch client at every send.
        check_url(value)
        target = fetch.parse_target(value)
    except (WebhookURLError, fetch.FetchError) as exc:
        raise PushDeviceError({"endpoint": exc.message}) from None
    # Push services are https; the test-only loopback hosts (never set in production) serve
    # the tests' fake push service over plain http.
    if target.scheme != "https" and target.host not in settings.FETCH_TEST_ONLY_LOOPBACK_HOSTS:
        raise PushDeviceError({"endpoint": _("A push endpoint is an https address.")})
    return value


def endpoint_hash(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()


def register_device(
    user, *, endpoint: str, p256dh: str, auth: str, label: str = "", now: datetime
) -> tuple[PushDevice, bool]:
    """Add (or refresh) a browser's push subscription; returns (device, created)."""
    endpoint = _endpoint(endpoint)
    p256dh = _b64url(p256dh, "keys.p256dh", 65, _("an uncompressed P-256 public key (65 bytes)"))
    auth = _b64url(auth, "keys.auth", 16, _("a 16-byte authentication secret"))
    if not push_enabled():
        # After the input's own rules: a refusal of this server's configuration (422), not of
        # the request.
        refusal = PushDeviceError(
            {"endpoint": _("Web Push is off on this server (no VAPID keys are set).")},
            message=_("Web Push is off on this server."),
        )
        refusal.code = "not_configured"
        raise refusal
    label = " ".join((label or "").split())
    if len(label) > LABEL_MAX_CHARS:
        raise PushDeviceError(
            {"label": _("At most %(count)d characters.") % {"count": LABEL_MAX_CHARS}}
        )
    digest = endpoint_hash(endpoint)
    with transaction.atomic():
        mine = PushDevice.objects.filter(user=user).exclude(endpoint_hash=digest).count()
        if mine >= MAX_DEVICES:
            raise PushDeviceError(
                {
                    "endpoint": _(
                        "You have %(count)d devices for push notifications; remove one first."
                    )
                    % {"count": mine}
                }
            )
        device, created = PushDevice.objects.update_or_create(
            endpoint_hash=digest,
            defaults={
                "user": user,
                "endpoint": endpoint,
                "p256dh": p256dh,
                "auth": auth,
                "label": label,
            },
            create_defaults={
                "user": user,
                "endpoint": endpoint,
                "p256dh": p256dh,
                "auth": auth,
                "label": label,
                "created_at": now,
            },
        )
    return device, created


def devices_of(user):
    return PushDevice.objects.filter(user=user).order_by("created_at", "pk")


def remove_device(user, device_id: int) -> bool:
    deleted, _rows = PushDevice.objects.filter(user=user, pk=device_id).delete()
    return bool(deleted)
