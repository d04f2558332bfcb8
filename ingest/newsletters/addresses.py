"""Private inbound addresses: create, revoke, allow a sender, choose roundup splitting.

An address owns one `newsletter` source (config {"address": local part}) in its owner's library
only: nobody else can add it, so its issues reach nobody else's briefs. Its items are
`restricted` (private briefs only, never a public topic page or feed).
"""

from __future__ import annotations

import re
import secrets
import string
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from ingest.library.input import SourceInputError
from ingest.library.sources import add_to_library
from ingest.models import (
    ContentItem,
    ContentItemSource,
    LicenseTier,
    NewsletterAddress,
    Source,
    config_hash,
)

LOCAL_PART_PREFIX = "n-"
# 36^12 ≈ 4.7e18 local parts: not guessable, not enumerable at any SMTP rate.
LOCAL_PART_RANDOM_CHARS = 12
_ALPHABET = string.ascii_lowercase + string.digits
LABEL_MAX_CHARS = 200
MAX_ACTIVE_ADDRESSES = 50
MAX_ALLOWED_SENDERS = 100
_SENDER = re.compile(r"^(?:[^@\s]+@)?@?[a-z0-9.-]+\.[a-z]{2,}$")


def new_local_part() -> str:
    return LOCAL_PART_PREFIX + "".join(
        secrets.choice(_ALPHABET) for _ in range(LOCAL_PART_RANDOM_CHARS)
    )


def clean_sender(value: str) -> str:
    """An allowed sender: a full address, or a whole domain written `@example.com`."""
    sender = (value or "").strip().lower()
    if not _SENDER.match(sender) or sender.count("@") > 1:
        raise SourceInputError(
            {"sender": _("Give a sender address (news@example.com) or a domain (@example.com).")}
        )
    return sender


def sender_allowed(address: NewsletterAddress, sender_email: str) -> bool:
    """An empty allow-list accepts any sender; otherwise the sender's address or its domain
    (`@example.com`) must be on it."""
    if not address.allowed_senders:
        return True
    sender = sender_email.lower()
    domain = "@" + sender.rpartition("@")[2]
    return sender in address.allowed_senders or domain in address.allowed_senders


def create_address(
    user,
    *,
    now: datetime,
    label: str = "",
    split_roundups: bool = False,
    subscription=None,
) -> NewsletterAddress:
    """A new address with its own source, in the user's library; with `subscription` (the
    user's own), that subscription uses the source at once."""
    label = (label or "").strip()
    errors = {}
    if len(label) > LABEL_MAX_CHARS:
        errors["label"] = _("Use at most %(n)d characters.") % {"n": LABEL_MAX_CHARS}
    if subscription is not None and subscription.owner_id != user.pk:
        errors["subscription_id"] = _("No such subscription of yours.")
    active = NewsletterAddress.objects.filter(user=user, revoked_at=None).count()
    if active >= MAX_ACTIVE_ADDRESSES:
        errors["label"] = _(
            "You have %(n)d active newsletter addresses, the most an account may have; "
            "revoke one first."
        ) % {"n": MAX_ACTIVE_ADDRESSES}
    if errors:
        raise SourceInputError(errors)
    local_part = new_local_part()
    config = {"address": local_part}
    with transaction.atomic():
        source = Source.objects.create(
            type=Source.Type.NEWSLETTER,
            config=config,
            config_hash=config_hash(Source.Type.NEWSLETTER, config),
            title=label or _("Newsletter"),
            license_tier=LicenseTier.RESTRICTED,
            # Mail arrives by itself: never on the refresh schedule.
            next_refresh_at=None,
        )
        address = NewsletterAddress.objects.create(
            user=user,
            source=source,
            local_part=local_part,
            label=label,
            split_roundups=split_roundups,
            created_at=now,
        )
        add_to_library(user, source, display_name=label or address.address)
        if subscription is not None:
            _use_in(subscription, source)
    return address


def _use_in(subscription, source: Source) -> None:
    from digests.models import SubscriptionSource
    from digests.subscriptions import source_sets

    SubscriptionSource.objects.get_or_create(subscription=subscription, source=source)
    source_sets.refresh_subscriptions([subscription.pk])


def revoke(address: NewsletterAddress, *, now: datetime) -> None:
    """Mail to the address is refused from now on; its items stay in the briefs they reached."""
    if address.revoked_at is None:
        address.revoked_at = now
        address.save(update_fields=["revoked_at"])


def set_split_roundups(address: NewsletterAddress, value: bool) -> None:
    address.split_roundups = bool(value)
    address.save(update_fields=["split_roundups"])


def allow_sender_on_list(address: NewsletterAddress, sender: str) -> bool:
    """Add a sender to the allow-list; False when it was already there."""
    sender = clean_sender(sender)
    with transaction.atomic():
        locked = NewsletterAddress.objects.select_for_update().get(pk=address.pk)
        if sender in locked.allowed_senders:
            address.allowed_senders = locked.allowed_senders
            return False
        if len(locked.allowed_senders) >= MAX_ALLOWED_SENDERS:
            raise SourceInputError(
                {
                    "sender": _("An address allows at most %(n)d senders.")
                    % {"n": MAX_ALLOWED_SENDERS}
                }
            )
        locked.allowed_senders = [*locked.allowed_senders, sender]
        locked.save(update_fields=["allowed_senders"])
        address.allowed_senders = locked.allowed_senders
    return True


def active_address(recipient: str, *, domain: str) -> NewsletterAddress | None:
    """The active address a recipient names, or None (unknown, revoked, another domain)."""
    local, _at, host = (recipient or "").strip().strip("<>").lower().rpartition("@")
    if host != domain.lower() or not local.startswith(LOCAL_PART_PREFIX):
        return None
    return (
        NewsletterAddress.objects.select_related("source")
        .filter(local_part=local, revoked_at=None)
        .first()
    )


def delete_newsletters(user) -> int:
    """An account is deleted: its newsletter sources go, with the issues only they carried
    (that is the reader's mail); linked articles other sources also carry stay in the pool.
    Returns how many items were deleted."""
    source_ids = list(
        Source.objects.filter(newsletter_address__user=user).values_list("pk", flat=True)
    )
    if not source_ids:
        return 0
    carried = set(
        ContentItem.objects.filter(sightings__source_id__in=source_ids).values_list("pk", flat=True)
    )
    elsewhere = set(
        ContentItemSource.objects.filter(item_id__in=carried)
        .exclude(source_id__in=source_ids)
        .values_list("item_id", flat=True)
    )
    deleted, _counts = ContentItem.objects.filter(pk__in=carried - elsewhere).delete()
    Source.objects.filter(pk__in=source_ids).delete()
    return deleted
