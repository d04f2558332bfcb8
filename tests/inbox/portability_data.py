"""An account with something of everything, for the export, import, transfer and deletion
tests: a feed source, two subscriptions, runs with items, and read / saved / not-interested
states."""

from __future__ import annotations

from datetime import timedelta

from digests.models import Run, RunItem
from digests.subscriptions.service import create_subscription
from inbox.models import UserContentState
from ingest.canonical import url_hash
from ingest.library.bulk_add import SourceSpec, add_sources_to_library
from ingest.models import ContentItem, Source


def pool_item(number: int, *, now) -> ContentItem:
    url = f"https://news.example/story-{number}"
    return ContentItem.objects.create(
        canonical_url=url,
        canonical_url_hash=url_hash(url),
        title=f"Story {number}",
        first_seen_at=now,
        last_seen_at=now,
    )


def populate(user, *, now, runs: int = 3, items_per_run: int = 4):
    """Returns (subscriptions, runs)."""
    (feed,) = add_sources_to_library(
        user,
        [
            (
                SourceSpec(
                    type=Source.Type.FEED,
                    config={"url": "https://blog.example/feed.xml"},
                    url="https://blog.example/feed.xml",
                ),
                "My favourite blog",
            )
        ],
        now=now,
    )
    databases = create_subscription(
        user,
        {
            "name": "Databases",
            "interests": ["PostgreSQL", "SQLite"],
            "negative_keywords": ["MongoDB"],
            "cron": "0 8 * * 1-5",
            "timezone": "Europe/Berlin",
            "min_score": 55,
            "max_items": 12,
            "source_ids": [feed.user_source.source_id],
            "email_enabled": True,
            "email_subject": "{name} for {date}",
            "sections": ["경제", "IT"],
        },
        now=now,
    )
    security = create_subscription(
        user,
        {"name": "Security", "interests": ["CVE"], "cron": "0 7 * * *", "tone": "brisk"},
        now=now,
    )
    made = []
    number = 0
    for index in range(runs):
        subscription = databases if index % 2 == 0 else security
        when = now - timedelta(days=runs - index)
        run = Run.objects.create(
            subscription=subscription,
            user=user,
            status=Run.Status.SUCCEEDED,
            trigger=Run.Trigger.SCHEDULED,
            scheduled_at=when,
            started_at=when,
            finished_at=when + timedelta(seconds=30),
            narrative_md=f"## Brief {index}\n\nWhat happened.",
            selected_count=items_per_run,
            delivered_count=items_per_run,
        )
        for rank in range(items_per_run):
            number += 1
            item = pool_item(number, now=now)
            RunItem.objects.create(
                run=run,
                item=item,
                canonical_url_hash=item.canonical_url_hash,
                relevance=80,
                overall=70 + rank,
                reason=f"Mentions PostgreSQL ({rank})",
                rank=rank + 1,
                title=item.title,
                url=item.canonical_url,
                summary=f"Summary of {item.title}.",
                source_name="Blog",
                delivered_at=when,
            )
            UserContentState.objects.create(
                user=user,
                canonical_url_hash=item.canonical_url_hash,
                item=item,
                first_delivered_at=when,
                last_delivered_at=when,
                delivered_count=1,
                last_run=run,
                read_at=when if rank == 0 else None,
                saved_at=when if rank == 1 else None,
                not_interested_at=when if rank == 2 else None,
            )
        made.append(run)
    # A failed run (nothing delivered) and one still running: history and not.
    Run.objects.create(
        subscription=security,
        user=user,
        status=Run.Status.FAILED,
        trigger=Run.Trigger.MANUAL,
        scheduled_at=now - timedelta(hours=5),
        finished_at=now - timedelta(hours=5),
        error="The source timed out.",
    )
    Run.objects.create(
        subscription=databases,
        user=user,
        status=Run.Status.RUNNING,
        trigger=Run.Trigger.MANUAL,
        scheduled_at=now - timedelta(minutes=1),
    )
    return [databases, security], made
