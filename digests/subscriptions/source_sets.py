"""Seed 002's subscription hash, per subscription: SHA-256 of the sorted ids of its enabled
sources (ingest/library/source_sets.source_set_hash), materialized on the row
(`Subscription.source_set_hash`, `source_count`).

`refresh_subscriptions()` is called inside the transaction of every change to a subscription's
sources (digests/subscriptions/service.py, digests/watches/notifiers.py) and of a source's deletion
(ingest/library/signals.py recomputes every subscription that had it). The combination cache keys
its first level on this hash (digests/narrative/writer.py); `sharing()` answers "how many users
share each combination" for the admin and the staff API.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db.models import Count
from django.db.models.signals import post_delete, pre_delete

from digests.models import Subscription, SubscriptionSource
from ingest.library.source_sets import refresh_users, source_set_hash
from ingest.models import Source, UserSource, UserSourceSet


def refresh_subscriptions(subscription_ids: Iterable[int]) -> None:
    ids = sorted(set(subscription_ids))
    if not ids:
        return
    # The rows locked before their sources are read (see ingest/library/source_sets.py).
    list(Subscription.objects.select_for_update().filter(pk__in=ids).order_by("pk").values("pk"))
    sources: dict[int, list[int]] = defaultdict(list)
    for subscription_id, source_id in SubscriptionSource.objects.filter(
        subscription_id__in=ids, enabled=True
    ).values_list("subscription_id", "source_id"):
        sources[subscription_id].append(source_id)
    for subscription_id in ids:
        chosen = sources.get(subscription_id, [])
        Subscription.objects.filter(pk=subscription_id).update(
            source_set_hash=source_set_hash(chosen), source_count=len(set(chosen))
        )


def subscriptions_with_sources(source_ids: Iterable[int]) -> list[int]:
    return list(
        SubscriptionSource.objects.filter(source_id__in=list(source_ids))
        .values_list("subscription_id", flat=True)
        .distinct()
    )


def sharing(*, limit: int = 50) -> dict:
    """The combinations most shared: per subscription hash, how many live subscriptions and
    how many distinct users have it; per library hash, how many users. Two queries each."""
    by_subscription = (
        Subscription.objects.alive()
        .exclude(source_set_hash="")
        .values("source_set_hash", "source_count")
        .annotate(subscriptions=Count("id"), users=Count("owner", distinct=True))
        .order_by("-users", "-subscriptions", "source_set_hash")[:limit]
    )
    by_library = (
        UserSourceSet.objects.values("source_set_hash", "source_count")
        .annotate(users=Count("user"))
        .order_by("-users", "source_set_hash")[:limit]
    )
    return {
        "subscriptions": [
            {
                "hash": row["source_set_hash"],
                "sources": row["source_count"],
                "subscriptions": row["subscriptions"],
                "users": row["users"],
            }
            for row in by_subscription
        ],
        "libraries": [
            {"hash": row["source_set_hash"], "sources": row["source_count"], "users": row["users"]}
            for row in by_library
        ],
        "distinct_subscription_hashes": Subscription.objects.alive()
        .exclude(source_set_hash="")
        .values("source_set_hash")
        .distinct()
        .count(),
        "distinct_library_hashes": UserSourceSet.objects.values("source_set_hash")
        .distinct()
        .count(),
    }


# --- A source deleted -----------------------------------------------------------------------


def _remember_holders(sender, instance: Source, **kwargs) -> None:
    """Before a Source and (by cascade) its library and subscription links are deleted: who
    had it. Signals run inside the deleting transaction, so the hashes change with it."""
    instance._source_set_holders = (
        list(UserSource.objects.filter(source=instance).values_list("user_id", flat=True)),
        subscriptions_with_sources([instance.pk]),
    )


def _refresh_holders(sender, instance: Source, **kwargs) -> None:
    user_ids, subscription_ids = getattr(instance, "_source_set_holders", ([], []))
    refresh_users(user_ids)
    refresh_subscriptions(subscription_ids)


def connect() -> None:
    """Called once from DigestsConfig.ready()."""
    pre_delete.connect(_remember_holders, sender=Source, dispatch_uid="source-set-pre-delete")
    post_delete.connect(_refresh_holders, sender=Source, dispatch_uid="source-set-post-delete")
