"""Publishing a subscription as a public topic, changing it, deleting it, and moderation.

The console, the API and the admin all call these functions, so each rule (blocked domains,
the 24-hour edition interval, sources) is written once and every refusal names its field. The
tier's rules — private topics for paid plans only, and the free plan's anti-spam limits — are
billing's (billing/limits.py `check_topic`), checked under the user's account lock inside the
write's transaction so racing publishes cannot both pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext

from billing import intervals, limits
from digests.models import Subscription
from digests.schedules.next_run import (
    ScheduleError,
    next_run_after,
    normalize_cron,
    validate_timezone,
)
from digests.subscriptions.service import SubscriptionInputError
from topics import page_cache
from topics.models import (
    MIN_EDITION_INTERVAL_HOURS,
    BlockedDomain,
    ModerationAction,
    PublishEvent,
    Topic,
)

MAX_SOURCES = 5
MAX_SOURCE_DOMAINS = 10
CONFIG_FIELDS = (
    "topic",
    "interests",
    "negative_keywords",
    "min_score",
    "max_items",
    "content_window_hours",
    "redelivery",
    "cooldown_days",
)


class TopicInputError(SubscriptionInputError):
    """Refused topic input: `errors` maps each field to its message, like a subscription's."""


@dataclass(frozen=True)
class PublishInput:
    title: str
    description: str = ""
    slug: str = ""
    visibility: str = Topic.Visibility.PUBLIC
    cron: str = ""
    timezone: str = ""


def domain_of(url: str) -> str:
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    return host[4:] if host.startswith("www.") else host


def blocked_domains(domains: set[str]) -> set[str]:
    """Those of `domains` on the block list, themselves or as a subdomain; one query."""
    if not domains:
        return set()
    blocked = set(BlockedDomain.objects.values_list("domain", flat=True))
    return {
        domain
        for domain in domains
        if any(".".join(domain.split(".")[start:]) in blocked for start in range(domain.count(".")))
    }


def _check_schedule(cron: str, timezone: str, errors: dict, now: datetime) -> str:
    try:
        cron = normalize_cron(cron)
        validate_timezone(timezone)
        # The interval is checked on the nominal (UTC) clock: a daily schedule stays daily
        # across DST changes in the topic's own zone.
        too_close = intervals.gap_below(
            cron, "UTC", timedelta(hours=MIN_EDITION_INTERVAL_HOURS), now=now
        )
    except ScheduleError as exc:
        errors["cron"] = str(exc)
        return cron
    if too_close is not None:
        errors["cron"] = gettext(
            "Editions are at least %(hours)d hours apart; this schedule fires more often."
        ) % {"hours": MIN_EDITION_INTERVAL_HOURS}
    return cron


def _unique_slug(wanted: str, *, exclude_pk: int | None = None) -> str:
    base = slugify(wanted)[:70].strip("-") or "topic"
    slug, number = base, 1
    taken = Topic.objects.exclude(pk=exclude_pk)
    while taken.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    return slug


def _source_rules(subscription: Subscription, errors: dict) -> list:
    sources = list(
        subscription.sources.filter(subscriptionsource__enabled=True).order_by("id").distinct()
    )
    if len(sources) > MAX_SOURCES:
        errors["sources"] = gettext(
            "A public topic has at most %(limit)d sources; this subscription has %(count)d. "
            "Publish it privately or trim its sources."
        ) % {"limit": MAX_SOURCES, "count": len(sources)}
        return sources
    domains = {domain_of(s.url or s.site_url) for s in sources if (s.url or s.site_url)}
    if len(domains) > MAX_SOURCE_DOMAINS:
        errors["sources"] = gettext("A public topic draws on at most %(limit)d domains.") % {
            "limit": MAX_SOURCE_DOMAINS
        }
    bad = min(blocked_domains(domains), default=None)
    if bad:
        errors["sources"] = gettext("Sources from %(domain)s may not appear in public topics.") % {
            "domain": bad
        }
    return sources


def _check_plan(user, topic: Topic | None, visibility: str, now: datetime) -> None:
    """The tier's limits; call inside the write's transaction."""
    account = limits.lock_account(user.pk, now=now)
    limits.check_topic(account, user_id=user.pk, topic=topic, visibility=visibility, now=now)


def _clean(user, subscription: Subscription, data: PublishInput, topic, now) -> dict:
    errors: dict[str, str] = {}
    if subscription.owner_id != user.pk or subscription.deleted_at is not None:
        errors["subscription"] = gettext("Not one of your subscriptions.")
    followed = subscription.followed_topic_id is not None
    # What the subscription is (its name, what it reads) is its state, not this input: refused
    # after the input's own rules, as a conflict (409 in the API).
    conflicts: dict[str, str] = {}
    title = " ".join((data.title or subscription.name).split())
    if not 3 <= len(title) <= 200:
        # Without a title the subscription's name is the title: then what it is named (its
        # state) is refused, 409 in the API, after the input's own rules.
        (errors if data.title else conflicts)["title"] = gettext("Must be 3 to 200 characters.")
    description = " ".join((data.description or "").split())
    if len(description) > 500:
        errors["description"] = gettext("At most 500 characters.")
    if data.visibility not in Topic.Visibility.values:
        errors["visibility"] = gettext("Must be 'public' or 'private'.")
    timezone = data.timezone or subscription.timezone
    cron = _check_schedule(data.cron or subscription.cron or "0 8 * * *", timezone, errors, now)
    sources = _source_rules(subscription, conflicts)
    if data.slug and slugify(data.slug) != data.slug:
        errors["slug"] = gettext("Only lowercase letters, digits and hyphens.")
    if errors:
        raise TopicInputError(errors)
    if followed:
        conflicts["subscription"] = gettext(
            "A followed topic cannot be published again; fork it first."
        )
    if conflicts:
        raise TopicInputError(conflicts, code="conflict")
    if (
        data.slug
        and Topic.objects.filter(slug=data.slug).exclude(pk=topic.pk if topic else None).exists()
    ):
        # Only once the input is right: a conflict with what exists (409 in the API).
        raise TopicInputError({"slug": gettext("That address is taken.")}, code="taken")
    return {
        "title": title,
        "description": description,
        "visibility": data.visibility,
        "cron": cron,
        "timezone": timezone,
        "sources": sources,
        "config": {name: getattr(subscription, name) for name in CONFIG_FIELDS},
    }


def publish(user, subscription: Subscription, data: PublishInput, *, now: datetime) -> Topic:
    """Publish `subscription` as a new topic (public by default)."""
    clean = _clean(user, subscription, data, None, now)
    sources = clean.pop("sources")
    with transaction.atomic():
        _check_plan(user, None, clean["visibility"], now)
        topic = Topic.objects.create(
            owner=user,
            published_from=subscription,
            slug=data.slug or _unique_slug(clean["title"]),
            locale=subscription.output_locale or "en",
            next_edition_at=next_run_after(clean["cron"], clean["timezone"], now),
            **clean,
        )
        topic.sources.set(sources)
        if topic.visibility == Topic.Visibility.PUBLIC:
            PublishEvent.objects.create(user=user, topic=topic, created_at=now)
    page_cache.invalidate()
    return topic


def update(user, topic: Topic, data: PublishInput, *, now: datetime) -> Topic:
    """Publish the subscription's current configuration again, with new page details."""
    if topic.owner_id != user.pk or topic.status == Topic.Status.DELETED:
        raise TopicInputError({"topic": gettext("Not one of your topics.")})
    subscription = topic.published_from
    if subscription is None:
        raise TopicInputError(
            {"subscription": gettext("The subscription behind this topic is gone.")}
        )
    clean = _clean(user, subscription, data, topic, now)
    sources = clean.pop("sources")
    with transaction.atomic():
        _check_plan(user, topic, clean["visibility"], now)
        for name, value in clean.items():
            setattr(topic, name, value)
        if data.slug:
            topic.slug = data.slug
        topic.next_edition_at = next_run_after(topic.cron, topic.timezone, now)
        topic.save()
        topic.sources.set(sources)
        if topic.visibility == Topic.Visibility.PUBLIC:
            PublishEvent.objects.create(user=user, topic=topic, created_at=now)
    page_cache.invalidate()
    return topic


def delete(user, topic: Topic, *, now: datetime) -> None:
    """Delete at once: the page answers 410 and the topic leaves every list. Followers keep
    their subscriptions, which simply stop receiving editions."""
    if topic.owner_id != user.pk:
        raise TopicInputError({"topic": gettext("Not one of your topics.")})
    Topic.objects.filter(pk=topic.pk).update(
        status=Topic.Status.DELETED, deleted_at=now, next_edition_at=None
    )
    page_cache.invalidate()


def take_down(topic: Topic, *, actor, reason: str, now: datetime) -> None:
    if not reason.strip():
        raise TopicInputError({"reason": gettext("Say why, for the audit trail.")})
    with transaction.atomic():
        Topic.objects.filter(pk=topic.pk).update(status=Topic.Status.TAKEN_DOWN)
        ModerationAction.objects.create(
            topic=topic,
            action=ModerationAction.Action.TAKE_DOWN,
            actor=actor,
            reason=reason.strip(),
            created_at=now,
        )
        topic.reports.filter(resolved_at__isnull=True).update(resolved_at=now)
    page_cache.invalidate()


def restore(topic: Topic, *, actor, reason: str, now: datetime) -> None:
    if not reason.strip():
        raise TopicInputError({"reason": gettext("Say why, for the audit trail.")})
    with transaction.atomic():
        Topic.objects.filter(pk=topic.pk, status=Topic.Status.TAKEN_DOWN).update(
            status=Topic.Status.ACTIVE
        )
        ModerationAction.objects.create(
            topic=topic,
            action=ModerationAction.Action.RESTORE,
            actor=actor,
            reason=reason.strip(),
            created_at=now,
        )
    page_cache.invalidate()
