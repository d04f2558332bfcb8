"""What a follower's run starts from: the items of the topic's recent published editions."""

from __future__ import annotations

from datetime import datetime

from topics.models import Edition, EditionItem, Topic


def followed_topic_item_ids(topic_id: int, *, since: datetime, limit: int) -> list[int]:
    """Pool ids of items in editions published since `since`, newest edition first. A topic
    that was deleted, taken down or made private gives its followers nothing more."""
    rows = (
        EditionItem.objects.filter(
            edition__topic_id=topic_id,
            edition__topic__status=Topic.Status.ACTIVE,
            edition__topic__visibility=Topic.Visibility.PUBLIC,
            edition__status=Edition.Status.SUCCEEDED,
            edition__published_at__gte=since,
            item__isnull=False,
        )
        .order_by("-edition__published_at", "rank")
        .values_list("item_id", flat=True)[:limit]
    )
    return list(dict.fromkeys(rows))
