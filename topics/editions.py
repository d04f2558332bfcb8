"""Editions: a public topic's issues, produced on the topic's own schedule by the digest engine.

An edition is scored exactly like a run (digests.runs.runner.score_candidates) with an unsaved
subscription built from the topic's configuration, but with no user's state at all: no
per-user dedup, no read/saved/not-interested feedback — so an edition is stable and
reproducible. Editions are paid for by the platform, never by a user: each produced edition
posts one row to the platform account's ledger (billing.charges.charge_edition, visible in the
admin). Editions are at least 24 hours apart, and at most `TOPIC_EDITION_CONCURRENCY` are
produced at once across all workers.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import override

from billing import charges
from config import leases
from digests.ai import enrichment
from digests.models import DEFAULT_MIN_SCORE, Subscription
from digests.narrative import writer
from digests.runs.meter import RunMeter
from digests.runs.runner import score_candidates
from digests.schedules.next_run import next_run_after, validate_timezone
from ingest.models import ContentItem, LicenseTier
from ingest.pool.recent import id_set
from topics import page_cache
from topics.models import MIN_EDITION_INTERVAL_HOURS, Edition, EditionItem, Topic
from topics.publishing import blocked_domains, domain_of

logger = logging.getLogger(__name__)

CONCURRENCY_RETRY = timedelta(minutes=5)
# Today's edition is attempted at most this many times (a failure, or a worker that died mid-
# edition, counts); then the day is given up and the topic waits for its next edition.
MAX_EDITION_ATTEMPTS = 3
# A daily schedule is 23 hours apart on the day clocks spring forward.
DST_TOLERANCE = timedelta(hours=1)


class LeaseLost(Exception):
    """The edition was reclaimed while this worker was still on it; it must write nothing."""


def claim_due_topics(*, now: datetime, limit: int = 50) -> list[int]:
    """Claim active topics whose next edition is due; each claim is a conditional UPDATE that
    pushes `next_edition_at` forward by a lease, so of several tickers exactly one wins, and a
    task lost before its edition started comes due again once the lease is over."""
    due = list(
        Topic.objects.filter(status=Topic.Status.ACTIVE, next_edition_at__lte=now)
        .order_by("next_edition_at")
        .values_list("pk", "next_edition_at")[:limit]
    )
    return [
        pk
        for pk, due_at in due
        if Topic.objects.filter(pk=pk, next_edition_at=due_at).update(
            next_edition_at=leases.lease_until(now)
        )
    ]


def engine_subscription(topic: Topic) -> Subscription:
    """The topic's configuration as an unsaved subscription, for the scoring pipeline."""
    config = topic.config or {}
    return Subscription(
        owner_id=topic.owner_id,
        name=topic.title,
        topic=config.get("topic", ""),
        interests=config.get("interests", []),
        negative_keywords=config.get("negative_keywords", []),
        min_score=config.get("min_score", DEFAULT_MIN_SCORE),
        max_items=config.get("max_items", 20),
        content_window_hours=config.get("content_window_hours", 48),
        cron=topic.cron,
        timezone=topic.timezone,
    )


def _edition_date(topic: Topic, now: datetime):
    return now.astimezone(validate_timezone(topic.timezone)).date()


def _too_soon(topic: Topic, now: datetime) -> bool:
    if topic.last_edition_at is None:
        return False
    return now - topic.last_edition_at < timedelta(hours=MIN_EDITION_INTERVAL_HOURS) - DST_TOLERANCE


def _next_edition_at(topic: Topic, now: datetime) -> datetime:
    earliest = now + timedelta(hours=MIN_EDITION_INTERVAL_HOURS) - DST_TOLERANCE
    upcoming = next_run_after(topic.cron, topic.timezone, now)
    while upcoming < earliest:
        upcoming = next_run_after(topic.cron, topic.timezone, upcoming)
    return upcoming


def _at_capacity(now: datetime) -> bool:
    """Editions running under a live lease (a dead worker's edition does not hold a slot)."""
    running = Edition.objects.filter(
        status=Edition.Status.RUNNING, lease_expires_at__gte=now
    ).count()
    return running >= settings.TOPIC_EDITION_CONCURRENCY


def _claimable(now: datetime) -> Q:
    """Pending, failed, or running under a lease that ran out (its worker died)."""
    return Q(status__in=[Edition.Status.PENDING, Edition.Status.FAILED]) | (
        Q(status=Edition.Status.RUNNING) & leases.free(now)
    )


def _start(topic: Topic, now: datetime) -> tuple[Edition, int] | None:
    """Create (or take over a failed one, or one whose worker died) today's edition and mark it
    running under a lease; returns it with this claim's attempt number. None when today's
    edition is done or someone else's, the day was given up, or the platform is at its
    concurrency limit."""
    with transaction.atomic():
        if _at_capacity(now):
            Topic.objects.filter(pk=topic.pk).update(next_edition_at=now + CONCURRENCY_RETRY)
            return None
        try:
            with transaction.atomic():
                edition, _created = Edition.objects.get_or_create(
                    topic=topic,
                    edition_date=_edition_date(topic, now),
                    defaults={"scheduled_at": now, "output_locale": topic.locale},
                )
        except IntegrityError:
            return None
        if edition.attempts >= MAX_EDITION_ATTEMPTS:
            _give_up_today(topic, edition, now)
            return None
        claimed = leases.claim(
            Edition.objects.filter(pk=edition.pk).filter(_claimable(now)),
            now=now,
            seen_attempts=edition.attempts,
            status=Edition.Status.RUNNING,
            started_at=now,
            error="",
        )
        return (edition, edition.attempts + 1) if claimed else None


def _give_up_today(topic: Topic, edition: Edition, now: datetime) -> None:
    """Today's edition failed on every attempt: leave it failed, wait for the next one."""
    Edition.objects.filter(pk=edition.pk).filter(_claimable(now)).update(
        status=Edition.Status.FAILED,
        finished_at=now,
        lease_expires_at=None,
        error=edition.error or "The edition failed on every attempt.",
    )
    Topic.objects.filter(pk=topic.pk).update(next_edition_at=_next_edition_at(topic, now))


def reclaim_editions(*, now: datetime) -> list[int]:
    """Topics whose edition is `running` under a lease that ran out — its worker died — are
    made due again, so this tick's claim hands the edition to a worker that takes it over
    (or gives the day up after MAX_EDITION_ATTEMPTS). Returns those topics' ids."""
    topic_ids = list(
        leases.expired(Edition.objects.filter(status=Edition.Status.RUNNING), now=now)
        .filter(topic__status=Topic.Status.ACTIVE)
        .values_list("topic_id", flat=True)[:50]
    )
    if topic_ids:
        Topic.objects.filter(pk__in=topic_ids, next_edition_at__gt=now).update(next_edition_at=now)
    return topic_ids


def produce_edition(topic_id: int, *, now: datetime) -> Edition | None:
    """Produce today's edition of a topic if it is due; safe to call twice."""
    topic = Topic.objects.filter(pk=topic_id, status=Topic.Status.ACTIVE).first()
    if topic is None:
        return None
    if _too_soon(topic, now):
        Topic.objects.filter(pk=topic.pk).update(next_edition_at=_next_edition_at(topic, now))
        return None
    started = _start(topic, now)
    if started is None:
        return None
    edition, attempt = started
    mine = Edition.objects.filter(pk=edition.pk, status=Edition.Status.RUNNING, attempts=attempt)
    try:
        with leases.Heartbeat(
            Edition, [edition.pk], now=now, status=Edition.Status.RUNNING, attempts=attempt
        ):
            build_edition(topic, edition, now=now, attempt=attempt)
    except LeaseLost:
        logger.warning("edition %s was reclaimed while attempt %s was on it", edition.pk, attempt)
    except Exception as exc:
        logger.exception("edition of topic %s failed", topic.pk)
        error = f"{type(exc).__name__}: {exc}"

        def record_failure() -> None:
            if mine.update(
                status=Edition.Status.FAILED,
                finished_at=now,
                lease_expires_at=None,
                error=error,
            ):
                Topic.objects.filter(pk=topic.pk).update(next_edition_at=now + CONCURRENCY_RETRY)

        leases.write_status(record_failure, what=f"edition {edition.pk}")
    edition.refresh_from_db()
    return edition


def _without_blocked_domains(candidates):
    blocked = blocked_domains({domain_of(c.canonical_url) for c in candidates})
    return [c for c in candidates if domain_of(c.canonical_url) not in blocked]


def _publishable(candidates):
    """Items of restricted sources never go public (seed 003 `licenseTier`): not in an
    edition, its narrative, its feed or its followers' briefs."""
    restricted = set(
        ContentItem.objects.filter(
            pk__in=id_set([c.item_id for c in candidates]), license_tier=LicenseTier.RESTRICTED
        ).values_list("pk", flat=True)
    )
    return [c for c in candidates if c.item_id not in restricted]


def build_edition(
    topic: Topic, edition: Edition, *, now: datetime, attempt: int | None = None
) -> None:
    """Score, snapshot and write. Model calls (item summaries, the narrative) happen before
    the transaction, through the same cached AI layer as runs — so an edition and a follower's
    brief over the same items share their summaries — and fall back like runs do."""
    spec = engine_subscription(topic)
    # An edition only reads the pool (its sources are refreshed on their own schedule; no
    # on-run searches, no full text), so nothing records on this meter today; whatever an
    # edition comes to cost is the platform's.
    meter = RunMeter()
    source_ids = list(topic.sources.values_list("id", flat=True))
    _count, scored = score_candidates(spec, now=now, source_ids=source_ids, personal=False)
    picked = _publishable(_without_blocked_domains(scored))[: spec.max_items]
    summaries = enrichment.summarize(
        [enrichment.SummaryInput(c.item_id, c.title, c.description, c.site_name) for c in picked],
        locale=topic.locale,
        now=now,
    )
    items = [
        EditionItem(
            edition=edition,
            item_id=c.item_id,
            canonical_url_hash=c.canonical_url_hash,
            rank=rank,
            overall=c.overall,
            title=c.title[:500],
            url=c.canonical_url,
            summary=summaries[c.item_id].summary,
            source_name=c.site_name,
            published_at=c.published_at,
        )
        for rank, c in enumerate(picked, start=1)
    ]
    with override(topic.locale):
        narrative = writer.write_narrative(
            [
                writer.NarrativeItem(
                    canonical_url_hash=c.canonical_url_hash,
                    content_hash=c.content_hash,
                    title=item.title,
                    url=item.url,
                    summary=item.summary,
                    source_name=item.source_name,
                )
                for c, item in zip(picked, items, strict=True)
            ],
            title=topic.title,
            locale=topic.locale,
            now=now,
        )
    with transaction.atomic():
        # The fence: an edition reclaimed meanwhile (this worker was presumed dead) is not ours.
        if attempt is not None and not leases.hold(
            Edition.objects.filter(pk=edition.pk, status=Edition.Status.RUNNING),
            attempt=attempt,
            now=now,
        ):
            raise LeaseLost(edition.pk)
        EditionItem.every.filter(edition=edition).delete()  # a failed attempt's leftovers
        EditionItem.objects.bulk_create(items)
        Edition.objects.filter(pk=edition.pk).update(
            status=Edition.Status.SUCCEEDED,
            finished_at=now,
            lease_expires_at=None,
            # An edition with nothing in it is kept for the record but never published.
            published_at=now if items else None,
            item_count=len(items),
            narrative_md=narrative.markdown,
            narrative_generator=narrative.generator,
        )
        Topic.objects.filter(pk=topic.pk).update(
            last_edition_at=now if items else topic.last_edition_at,
            next_edition_at=_next_edition_at(topic, now),
        )
        charges.charge_edition(edition.pk, breakdown=meter.breakdown(), now=now)
        page_cache.invalidate()
