"""The demo's public topic: the demo user's AI Daily, published with its first edition."""

from __future__ import annotations

from datetime import datetime

from digests.models import Subscription
from topics import editions, publishing
from topics.models import Topic

DEMO_TOPIC_TITLE = "AI Daily"
DEMO_TOPIC_DESCRIPTION = "Models, inference and agents: the day's best AI reading, with sources."


def publish_demo_topic(user, *, now: datetime) -> Topic | None:
    """Idempotent: publishes once, and produces an edition when there is none yet."""
    topic = Topic.objects.filter(owner=user, title=DEMO_TOPIC_TITLE).first()
    if topic is None:
        subscription = (
            Subscription.objects.alive().filter(owner=user, name=DEMO_TOPIC_TITLE).first()
        )
        if subscription is None:
            return None
        topic = publishing.publish(
            user,
            subscription,
            publishing.PublishInput(
                title=DEMO_TOPIC_TITLE, description=DEMO_TOPIC_DESCRIPTION, slug="ai-daily"
            ),
            now=now,
        )
    if not topic.editions.exists():
        editions.produce_edition(topic.pk, now=now)
    return topic
