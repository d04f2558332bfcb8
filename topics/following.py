"""Follow and Fork (SPEC §9).

Follow creates a subscription whose candidates are the topic's editions, with the allowed
tweaks on top (keywords added or excluded, min score, max items, schedule, language); it keeps
receiving what the topic publishes. Changing sources means Fork: a private copy of the topic's
configuration and sources that the user then owns outright.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext

from digests.models import DEFAULT_MIN_SCORE, Subscription
from digests.subscriptions.service import SubscriptionInputError, create_subscription
from inbox.models import UserPreference
from ingest.library.sources import add_to_library
from topics.followers import followers_changed
from topics.models import Topic

ALLOWED_TWEAKS = {
    "interests",
    "negative_keywords",
    "min_score",
    "max_items",
    "cron",
    "timezone",
    "language_mode",
    "output_locale",
}


def followable(topic: Topic, user) -> bool:
    return topic.is_listed or (topic.owner_id == user.pk and topic.status == Topic.Status.ACTIVE)


def existing_follow(user, topic: Topic) -> Subscription | None:
    return Subscription.objects.alive().filter(owner=user, followed_topic=topic).first()


def _user_timezone(user) -> str:
    preference = UserPreference.objects.filter(user=user).first()
    return preference.timezone if preference and preference.timezone else "UTC"


def follow(user, topic: Topic, tweaks: dict | None = None, *, now: datetime) -> Subscription:
    """Follow `topic`; following twice returns the existing subscription."""
    tweaks = dict(tweaks or {})
    if not followable(topic, user):
        raise SubscriptionInputError({"topic": gettext("This topic is not public.")})
    unknown = sorted(set(tweaks) - ALLOWED_TWEAKS)
    if "source_ids" in unknown:
        raise SubscriptionInputError(
            {
                "source_ids": gettext(
                    "Following keeps the topic's sources; fork the topic to change them."
                )
            }
        )
    if unknown:
        raise SubscriptionInputError({unknown[0]: gettext("Not something a follow can change.")})
    current = existing_follow(user, topic)
    if current is not None:
        return current
    config = topic.config or {}
    data = {
        "name": topic.title,
        "topic": config.get("topic", ""),
        "interests": [*config.get("interests", []), *tweaks.pop("interests", [])],
        "negative_keywords": [
            *config.get("negative_keywords", []),
            *tweaks.pop("negative_keywords", []),
        ],
        "min_score": config.get("min_score", DEFAULT_MIN_SCORE),
        "max_items": config.get("max_items", 20),
        "cron": topic.cron,
        "timezone": _user_timezone(user),
        **tweaks,
    }
    with transaction.atomic():
        subscription = create_subscription(user, data, now=now)
        subscription.followed_topic = topic
        subscription.save(update_fields=["followed_topic"])
        followers_changed(topic.pk)
    return subscription


def fork(user, topic: Topic, *, now: datetime) -> Subscription:
    """A private copy of the topic's configuration and sources, no longer tied to it."""
    if not followable(topic, user):
        raise SubscriptionInputError({"topic": gettext("This topic is not public.")})
    config = topic.config or {}
    with transaction.atomic():
        sources = list(topic.sources.all())
        for source in sources:
            add_to_library(user, source)
        return create_subscription(
            user,
            {
                "name": f"{topic.title} (fork)"[:200],
                "topic": config.get("topic", ""),
                "interests": config.get("interests", []),
                "negative_keywords": config.get("negative_keywords", []),
                "min_score": config.get("min_score", DEFAULT_MIN_SCORE),
                "max_items": config.get("max_items", 20),
                "cron": topic.cron,
                "timezone": _user_timezone(user),
                "source_ids": [s.pk for s in sources],
            },
            now=now,
        )
