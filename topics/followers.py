"""A topic's follower count, kept current as people follow and unfollow (SPEC §9): counted
again from the subscriptions in one UPDATE once the follow or unfollow has committed, so two
people following at once cannot leave it one short, and the cached public pages are retired
with it. The hourly trending job (topics/trending.py) counts the same way."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce

from digests.models import Subscription
from topics import page_cache
from topics.models import Topic


def recount(topic_id: int) -> None:
    """Set the topic's follower count from its live following subscriptions, now."""
    counted = (
        Subscription.objects.filter(followed_topic_id=OuterRef("pk"), deleted_at__isnull=True)
        .order_by()
        .values("followed_topic_id")
        .annotate(alive=Count("pk"))
        .values("alive")
    )
    Topic.objects.filter(pk=topic_id).update(
        follower_count=Coalesce(Subquery(counted, output_field=IntegerField()), 0)
    )


def followers_changed(topic_id: int | None) -> None:
    """Call where a follow is made or undone: the count and the public pages follow suit after
    the transaction commits (before it, the new follow is invisible to the count)."""
    if topic_id is None:
        return
    transaction.on_commit(lambda: recount(topic_id))
    page_cache.invalidate()
