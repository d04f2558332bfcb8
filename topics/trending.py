"""Trending and quality, computed by a periodic job from aggregates only (SPEC §9):

    trending = 0.4·growth + 0.3·freshness + 0.3·engagement − penalties

growth is the log of the 7-day net new followers, freshness decays with the age of the last
edition, engagement is the followers' saved share against not-interested (Laplace-smoothed, so
a topic with three followers is not "perfect"), and penalties come from open reports and the
share of low-quality or duplicate items in recent editions. Each part is scaled to 0..1.
Only these aggregates are stored and shown — never who saved or dismissed what.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.db.models import Avg, Count, Q

from digests.models import Subscription
from inbox.models import UserContentState
from ingest.models import ContentItem
from topics.models import Edition, EditionItem, Topic

GROWTH_SATURATION = 1000  # net new followers a week that count as full growth
FRESHNESS_HALF_LIFE_HOURS = 48
REPORT_PENALTY = 0.1
MAX_REPORT_PENALTY = 0.5
LOW_QUALITY = 40
RECENT_EDITIONS = 5


def growth(net_new_followers: int) -> float:
    return min(1.0, math.log1p(max(0, net_new_followers)) / math.log1p(GROWTH_SATURATION))


def freshness(last_edition_at: datetime | None, now: datetime) -> float:
    if last_edition_at is None:
        return 0.0
    hours = max(0.0, (now - last_edition_at).total_seconds() / 3600)
    return 0.5 ** (hours / FRESHNESS_HALF_LIFE_HOURS)


def engagement(saved: int, not_interested: int) -> float:
    return (saved + 1) / (saved + not_interested + 2)


def penalties(open_reports: int, weak_share: float) -> float:
    return min(MAX_REPORT_PENALTY, REPORT_PENALTY * open_reports) + 0.3 * weak_share


def trending_score(
    *,
    net_new: int,
    last_edition_at,
    saved: int,
    dismissed: int,
    reports: int,
    weak_share: float,
    now: datetime,
) -> float:
    return round(
        0.4 * growth(net_new)
        + 0.3 * freshness(last_edition_at, now)
        + 0.3 * engagement(saved, dismissed)
        - penalties(reports, weak_share),
        6,
    )


def _weak_share(topic: Topic) -> tuple[float, float]:
    """Share of low-quality or duplicate items in the recent editions, and their mean score."""
    recent = list(
        Edition.objects.filter(topic=topic, published_at__isnull=False)
        .order_by("-published_at")
        .values_list("pk", flat=True)[:RECENT_EDITIONS]
    )
    if not recent:
        return 0.0, 0.0
    items = EditionItem.objects.filter(edition_id__in=recent)
    totals = items.aggregate(
        count=Count("pk"),
        weak=Count(
            "pk",
            filter=Q(item__status=ContentItem.Status.FILTERED)
            | Q(item__score_quality__lt=LOW_QUALITY),
        ),
        mean=Avg("overall"),
    )
    if not totals["count"]:
        return 0.0, 0.0
    return totals["weak"] / totals["count"], float(totals["mean"] or 0.0)


def recompute(*, now: datetime) -> int:
    """Recompute follower counts, trending and quality for every active topic."""
    week_ago = now - timedelta(days=7)
    updated = 0
    for topic in Topic.objects.filter(status=Topic.Status.ACTIVE).iterator():
        followers = Subscription.objects.filter(followed_topic=topic)
        counts = followers.aggregate(
            alive=Count("pk", filter=Q(deleted_at__isnull=True)),
            joined=Count("pk", filter=Q(created_at__gte=week_ago)),
            left=Count("pk", filter=Q(deleted_at__gte=week_ago)),
        )
        feedback = UserContentState.objects.filter(
            last_run__subscription__followed_topic=topic
        ).aggregate(
            saved=Count("pk", filter=Q(saved_at__isnull=False)),
            dismissed=Count("pk", filter=Q(not_interested_at__isnull=False)),
        )
        reports = topic.reports.filter(
            resolved_at__isnull=True, created_at__gte=now - timedelta(days=30)
        ).count()
        weak, mean = _weak_share(topic)
        Topic.objects.filter(pk=topic.pk).update(
            follower_count=counts["alive"],
            trending_score=trending_score(
                net_new=counts["joined"] - counts["left"],
                last_edition_at=topic.last_edition_at,
                saved=feedback["saved"],
                dismissed=feedback["dismissed"],
                reports=reports,
                weak_share=weak,
                now=now,
            ),
            quality_score=round(mean * (1 - weak), 3),
        )
        updated += 1
    return updated
