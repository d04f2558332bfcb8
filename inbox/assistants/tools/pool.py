"""The shared pool: what Tidings has read lately, beyond what was delivered to this reader."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from pydantic import Field

from inbox.assistants.registry import Answer, now, tool
from inbox.assistants.untrusted import quoted, redact_url, untrusted
from ingest.models import ContentItem
from ingest.pool.recent import id_set
from ingest.pool.search_index import search_pool
from ingest.pool.visibility import visible_to

POOL_RESULTS_MAX = 50
POOL_WINDOW_DAYS_MAX = 30


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
    reader's Inbox), best match first: title, source, address, date. Other readers' newsletter
    issues are never among them."""
    moment = now()
    ids = search_pool(terms, since=moment - timedelta(days=days), until=moment, limit=limit * 3)
    rank = {item_id: position for position, item_id in enumerate(ids)}
    items = sorted(
        ContentItem.objects.filter(visible_to(caller.user.pk), pk__in=id_set(ids)).only(
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
