"""Public topics: find one and follow it (a follow is a subscription of the reader's)."""

from __future__ import annotations

from typing import Annotated

from django.http import Http404
from pydantic import Field

from inbox.assistants.registry import Answer, now, tool
from inbox.assistants.tools.subscriptions import subscription_data, subscription_line
from inbox.assistants.untrusted import quoted, untrusted
from topics import following
from topics.models import Topic

TOPICS_MAX = 50


@tool(title="Find public topics")
def list_public_topics(
    caller,
    q: Annotated[str, Field(max_length=100, description="Words in the title or description.")] = "",
    limit: Annotated[int, Field(ge=1, le=TOPICS_MAX)] = 20,
) -> Answer:
    """Public topics other readers publish, most followed first: slug, title, description."""
    topics = Topic.objects.listed()
    for word in q.split()[:5]:
        topics = topics.filter(title__icontains=word) | topics.filter(description__icontains=word)
    topics = list(topics.order_by("-follower_count", "slug")[:limit])
    rows = [{"slug": t.slug, **untrusted(title=t.title, description=t.description)} for t in topics]
    lines = [
        f"- [{t.slug}] {quoted(t.title, limit=120)}: {quoted(t.description, limit=200)}"
        for t in topics
    ] or ["No public topic matches."]
    return Answer("\n".join(lines), {"topics": rows})


@tool(title="Follow a public topic", write=True)
def follow_topic(
    caller,
    slug: Annotated[str, Field(min_length=1, max_length=80, pattern=r"^[-a-zA-Z0-9_]+$")],
) -> Answer:
    """Follow a public topic: its editions arrive as briefs in the reader's Inbox, as a
    subscription of theirs (unfollow with delete_subscription)."""
    topic = Topic.objects.filter(slug=slug).first()
    if topic is None or not following.followable(topic, caller.user):
        raise Http404
    existed = following.existing_follow(caller.user, topic) is not None
    subscription = following.follow(caller.user, topic, {}, now=now())
    verb = "Already following" if existed else "Following"
    return Answer(
        f"{verb}. {subscription_line(subscription)}",
        {"subscription": subscription_data(subscription), "created": not existed},
    )
