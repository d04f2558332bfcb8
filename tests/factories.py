"""Small builders shared by tests: pool items made directly, without a feed."""

from __future__ import annotations

from datetime import timedelta

from ingest.canonical import url_hash
from ingest.models import ContentItem, ContentItemSource


def add_item(
    title,
    *,
    now,
    age_hours=2,
    description="",
    source=None,
    content_hash="",
    status="active",
    model=ContentItem,
):
    """A pool item published `age_hours` before `now`, first seen at `now`. `model` may be a
    historical model, for tests that write rows at an earlier migration."""
    url = f"https://news.example/{url_hash(title + description)[:12]}"
    item = model.objects.create(
        canonical_url=url,
        canonical_url_hash=url_hash(url),
        title=title,
        description=description,
        published_at=now - timedelta(hours=age_hours),
        first_seen_at=now,
        last_seen_at=now,
        content_hash=content_hash,
        status=status,
    )
    if source:
        ContentItemSource.objects.create(item=item, source=source, first_seen_at=now)
    return item


def on_plan(user, tier: str, *, now=None):
    """Move `user` to a tier (billing.tiers, as the admin does): for tests that need more than
    the free plan's subscriptions, runs or schedules. Returns the account."""
    from django.utils import timezone

    from billing import tiers
    from billing.accounts import ensure_account

    now = now or timezone.now()
    return tiers.change_tier(ensure_account(user, now=now).pk, tier, now=now).account


def charged_run(user, now, credits: int, *, delivered: int = 1, name: str = "Databases"):
    """A subscription and a run charged `credits` (one search, the rest page fetches) through
    billing.charges.settle, as a finished run is; refunded at once when `delivered` is 0."""
    from billing import charges
    from digests.subscriptions.service import create_subscription, request_manual_run

    subscription = create_subscription(
        user, {"name": name, "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    run = request_manual_run(subscription, now=now)
    breakdown = {
        "operations": {"search": 1, "page_fetch": credits - 1},
        "cache_hits": {"search": 1},
    }
    charges.settle(run, breakdown=breakdown, delivered=delivered, now=now)
    return subscription, run
