"""Where a subscription's email briefs go."""

from __future__ import annotations

from digests.models import Subscription


def recipient_for(subscription: Subscription) -> str:
    """The subscription's `email_to`, else the account's address.

    Tidings has no separate address verification: the account's address is the one it signs
    in with (and resets its password through). Every message carries a one-click unsubscribe
    bound to its address, so whoever receives a brief they did not ask for stops it at once."""
    return (subscription.email_to or subscription.owner.email or "").strip().lower()
