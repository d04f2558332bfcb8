"""A subscription's webhook endpoint: its URL, its signing secret and whether it is on.

The URL is checked against the fetch policy when it is saved (syntax, scheme, port, and a
literal IP address's range) — and again by the fetch client on every send, where the host's
addresses are resolved and checked, since DNS can change after saving.
"""

from __future__ import annotations

import ipaddress
from datetime import datetime, timedelta

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from digests.delivery.webhook import new_secret
from digests.models import Subscription, WebhookEndpoint
from ingest.fetching import fetch

MAX_URL_LENGTH = 2048
# After a rotation the old secret signs too for this long, so receivers can switch over.
ROTATION_OVERLAP = timedelta(hours=24)


class WebhookURLError(ValueError):
    """`code`: `invalid`, or the fetch policy's (`refused_by_policy`: a private address)."""

    def __init__(self, message: str, code: str = "invalid"):
        super().__init__(message)
        self.message = message
        self.code = code


def check_url(url: str) -> str:
    """The URL, stripped ("" means no webhook); raises WebhookURLError saying why not."""
    url = (url or "").strip()
    if not url:
        return ""
    if len(url) > MAX_URL_LENGTH:
        raise WebhookURLError(_("At most %(count)s characters.") % {"count": MAX_URL_LENGTH})
    try:
        target = fetch.parse_target(url)  # the address's form (the schema's pattern): 400
    except fetch.FetchError as exc:
        raise WebhookURLError(exc.message) from None
    try:
        ipaddress.ip_address(target.host.strip("[]"))
    except ValueError:
        return url  # a host name: resolved and checked on every send
    try:
        fetch.resolve_checked(target)  # a literal address: checked now, no lookup needed
    except fetch.FetchError as exc:
        # A well-formed address the policy does not post to (a private one): 422, its code.
        raise WebhookURLError(exc.message, getattr(exc, "code", "") or "invalid") from None
    return url


def set_url(subscription: Subscription, url: str, *, now: datetime) -> str | None:
    """Point the subscription's webhook at `url` (checked already; "" removes it). Returns the
    new secret in clear when an endpoint was created — the only time it is shown."""
    endpoint = WebhookEndpoint.objects.filter(subscription=subscription).first()
    if not url:
        if endpoint is not None:
            endpoint.delete()
        return None
    if endpoint is None:
        secret = new_secret()
        WebhookEndpoint.objects.create(
            subscription=subscription, url=url, secret=secret, created_at=now, updated_at=now
        )
        return secret
    if endpoint.url != url:
        # A new address starts with a clean slate: old failures were someone else's.
        endpoint.url = url
        endpoint.consecutive_failures = 0
        endpoint.updated_at = now
        endpoint.save(update_fields=["url", "consecutive_failures", "updated_at"])
    return None


def rotate_secret(endpoint: WebhookEndpoint, *, now: datetime) -> str:
    """A new secret (returned in clear, once); the old one keeps signing for a day."""
    secret = new_secret()
    endpoint.previous_secret = endpoint.secret
    endpoint.previous_secret_until = now + ROTATION_OVERLAP
    endpoint.secret = secret
    endpoint.updated_at = now
    endpoint.save(
        update_fields=["secret", "previous_secret", "previous_secret_until", "updated_at"]
    )
    return secret


def set_enabled(endpoint: WebhookEndpoint, enabled: bool, *, now: datetime) -> None:
    """Turn the endpoint on (clearing why it was off and its failure count) or off."""
    endpoint.enabled = enabled
    endpoint.consecutive_failures = 0 if enabled else endpoint.consecutive_failures
    # Stored in English like every reason; pages translate this one (gettext_noop marks it).
    endpoint.disabled_reason = "" if enabled else gettext_noop("Turned off by you.")
    endpoint.disabled_at = None if enabled else now
    endpoint.updated_at = now
    endpoint.save(
        update_fields=[
            "enabled",
            "consecutive_failures",
            "disabled_reason",
            "disabled_at",
            "updated_at",
        ]
    )
