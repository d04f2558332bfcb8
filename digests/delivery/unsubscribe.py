"""One-click unsubscribe (RFC 8058): a signed link per subscription and address.

The token is the subscription id and the address it was mailed to, signed with SECRET_KEY
(django.core.signing, its own salt): it cannot be made for another subscription or address,
and a tampered one is refused. It does not expire — an unsubscribe link in an old message
must keep working. Only a POST changes anything (mail scanners follow GET links).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from django.core import signing
from django.urls import reverse

from digests.delivery.addresses import recipient_for
from digests.delivery.brief import absolute_url
from digests.models import Subscription

SALT = "tidings.digests.delivery.unsubscribe"


class InvalidLink(Exception):
    pass


def token_for(subscription_id: int, address: str) -> str:
    return signing.Signer(salt=SALT).sign_object({"s": subscription_id, "a": address.lower()})


def read_token(token: str) -> tuple[int, str]:
    try:
        data = signing.Signer(salt=SALT).unsign_object(token)
    except (signing.BadSignature, ValueError, TypeError):
        raise InvalidLink from None
    if not isinstance(data, dict) or not isinstance(data.get("s"), int):
        raise InvalidLink
    if not isinstance(data.get("a"), str):
        raise InvalidLink
    return data["s"], data["a"]


def url_for(subscription_id: int, address: str) -> str:
    return absolute_url(reverse("delivery:unsubscribe", args=[token_for(subscription_id, address)]))


class Outcome(Enum):
    UNSUBSCRIBED = "unsubscribed"
    ALREADY_OFF = "already_off"
    # The subscription now mails another address (or is gone): this link's address gets
    # nothing any more, and it cannot turn off what someone else receives.
    NOT_RECEIVING = "not_receiving"


@dataclass
class Link:
    subscription: Subscription | None
    address: str


def open_link(token: str) -> Link:
    """The subscription and address a link stands for (raises InvalidLink)."""
    subscription_id, address = read_token(token)
    subscription = (
        Subscription.objects.alive().select_related("owner").filter(pk=subscription_id).first()
    )
    return Link(subscription, address)


def receives(link: Link) -> bool:
    return link.subscription is not None and recipient_for(link.subscription) == link.address


def unsubscribe(token: str, *, now: datetime) -> tuple[Outcome, Link]:
    """Turn email off for the link's subscription, if its address still receives it."""
    link = open_link(token)
    if not receives(link):
        return Outcome.NOT_RECEIVING, link
    turned_off = Subscription.objects.filter(pk=link.subscription.pk, email_enabled=True).update(
        email_enabled=False, updated_at=now
    )
    link.subscription.email_enabled = False
    return (Outcome.UNSUBSCRIBED if turned_off else Outcome.ALREADY_OFF), link
