"""The shared pool: what Tidings has read lately, beyond what was delivered to this reader."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from django.db.models import Exists, OuterRef, Q
from pydantic import Field

from inbox.assistants.registry import Answer, now, tool
from inbox.assistants.untrusted import quoted, redact_url, untrusted
from ingest.models import ContentItem, ContentItemSource, Source, UserSource
from ingest.pool.recent import id_set
from ingest.pool.search_index import search_pool

POOL_RESULTS_MAX = 50
POOL_WINDOW_DAYS_MAX = 30


def visible_to(user):
    """Pool items a reader may see: all but another reader's newsletter issues. An issue is its
    owner's mail; an item a newsletter shares with a public source (a linked article) is not."""
    foreign_newsletter = ContentItemSource.objects.filter(
        item=OuterRef("pk"), source__type=Source.Type.NEWSLETTER
    ).exclude(source__in=UserSource.objects.filter(user=user).values("source_id"))
    public = ContentItemSource.objects.filter(item=OuterRef("pk")).exclude(
        source__type=Source.Type.NEWSLETTER
    )
    return ~Q(Exists(foreign_newsletter)) | Q(Exists(public))


@tool(title="Search the pool")
def search_pool_items(
    caller,
    terms: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=100)]],
        Field(min_length=1, max_length=10, description="Words or phrases; any may match."),
    ],
    days: Annotated[int, Field(ge=1, le=POOL_WINDOW_DAYS_MAX, description="How far back.")] = 7,
    limit: Annotated[int, Field(ge=1, le=POOL_RESULTS_MAX)] = 20,
) -> Answer:
    """Search everything Tidings has read in the last days (the shared pool, not only the
    reader's Inbox), best match first: title, source, address, date."""
    moment = now()
    ids = search_pool(terms, since=moment - timedelta(days=days), until=moment, limit=limit * 3)
    rank = {item_id: position for position, item_id in enumerate(ids)}
    items = sorted(
        ContentItem.objects.filter(visible_to(caller.user), pk__in=id_set(ids)).only(
            "id", "title", "site_name", "canonical_url", "published_at", "first_seen_at"
        ),
        key=lambda item: rank[item.pk],
    )[:limit]
    rows = [
        {
            "pool_item_id": item.pk,
            "url": redact_url(item.canonical_url),
            "published_at": (item.published_at or item.first_seen_at).isoformat(),
            **untrusted(title=item.title, source_name=item.site_name),
        }
        for item in items
    ]
    lines = [
        f"- {quoted(item.title, limit=160)} — {quoted(item.site_name, limit=60)}, "
        f"{(item.published_at or item.first_seen_at):%Y-%m-%d}; {redact_url(item.canonical_url)}"
        for item in items
    ] or ["Nothing in the pool matches."]
    return Answer("\n".join(lines), {"items": rows})
