"""django-q2 entry points for public topics: thin wrappers around the services."""

from __future__ import annotations

from django.utils import timezone

from topics import editions, trending


def produce_edition(topic_id: int) -> str:
    edition = editions.produce_edition(topic_id, now=timezone.now())
    return edition.status if edition else "not due"


def recompute_trending() -> int:
    return trending.recompute(now=timezone.now())
