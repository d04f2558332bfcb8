"""Tier limits (SPEC §5, §9; seed 000 §7.2, §16.1, §17.3): the one table, and the checks the
subscription, run and topic services call, so the console and the API refuse alike.

Every check that counts rows runs inside the caller's transaction after taking the user's
account row lock (`lock_account`), so two requests racing to create a fourth subscription
are serialized and the second one sees the first. A refusal raises `TierLimitError`: HTTP 403
with code `tier_limit` in the API, the same message on the form field in the console.

What counts:
- subscriptions: the user's recurring subscriptions (a cron schedule), active or paused — a
  paused one still holds its place, so pausing cannot be used to make more. One-off
  deliveries (a reading-list page at a set time) run once and are not counted; every run is
  charged anyway. Resuming needs an active place (`active` ≤ the same limit), so after a
  downgrade a user can choose which of their subscriptions run.
- the minimum interval: the shortest real gap between two runs of the schedule, over the
  calendar and the coming year's clock changes (billing/intervals.py).
- manual "Run now": runs the user started by hand in the last hour.
- public topics (free: at most 3 listed, at most 3 public publishes a day) and private
  topics (paid tiers only).
- how often a watched list may be checked (`min_watch_interval`; a watch's check interval,
  digests/watches/notifiers.py). Never below the fetch policy's 30 minutes per address (SPEC §4.8).

Downgrading never deletes anything: `enforce()` pauses what no longer fits, with a reason the
user sees on the subscription.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework import status

from billing import intervals
from billing.accounts import account_for, lock_for_user
from billing.models import Account, Tier
from config.api.errors import ServiceRefusal
from digests.models import Run, Subscription
from digests.watches.check_interval import sync_source_intervals
from topics.models import PublishEvent, Topic


@dataclass(frozen=True)
class TierLimits:
    subscriptions: int
    min_interval: timedelta
    manual_runs_per_hour: int
    public_topics: int | None  # None: no limit
    public_publishes_per_day: int | None
    private_topics: bool
    # The shortest check interval of a watched list (seed 004: at least an hour for free).
    min_watch_interval: timedelta = timedelta(minutes=60)


_HOUR = timedelta(minutes=60)
_HALF_HOUR = timedelta(minutes=30)  # the fetch policy's floor per address
LIMITS = {
    Tier.FREE: TierLimits(
        3, timedelta(minutes=60), 5, 3, 3, private_topics=False, min_watch_interval=_HOUR
    ),
    Tier.BASIC: TierLimits(
        20, timedelta(minutes=10), 20, None, None, private_topics=True, min_watch_interval=_HOUR
    ),
    Tier.PRO: TierLimits(
        100,
        timedelta(minutes=1),
        60,
        None,
        None,
        private_topics=True,
        min_watch_interval=_HALF_HOUR,
    ),
    Tier.TEAM: TierLimits(
        500,
        timedelta(minutes=1),
        120,
        None,
        None,
        private_topics=True,
        min_watch_interval=_HALF_HOUR,
    ),
}

# Why the platform paused a subscription (digests.Subscription.paused_reason).
PAUSED_SUBSCRIPTIONS = "plan_subscriptions"
PAUSED_INTERVAL = "plan_interval"


class TierLimitError(ServiceRefusal):
    status_code = status.HTTP_403_FORBIDDEN
    code = "tier_limit"

    def __init__(self, field: str, message: str, *, limit: str):
        super().__init__({field: message})
        self.field = field
        self.limit = limit


def limits_of(account: Account) -> TierLimits:
    return LIMITS[Tier(account.tier)]


def _plan(account: Account) -> str:
    return Tier(account.tier).label


def lock_account(user_id: int, *, now: datetime) -> Account:
    """The user's account under its row lock: call inside the transaction that writes what
    the limit counts."""
    return lock_for_user(user_id, now=now)


def duration_words(seconds: int) -> str:
    if seconds % 60 == 0:
        minutes = seconds // 60
        return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
    return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}


# --- Schedules ------------------------------------------------------------------------------


def check_schedule(account: Account, cron: str, timezone: str, *, now: datetime) -> None:
    """Refuse a schedule whose runs can come closer together than the tier allows."""
    limit = limits_of(account).min_interval
    gap = intervals.gap_below(cron, timezone, limit, now=now)
    if gap is None:
        return
    values = {
        "plan": _plan(account),
        "limit": duration_words(int(limit.total_seconds())),
        "gap": duration_words(gap.seconds),
    }
    if gap.on_date is None:
        message = _(
            "Your %(plan)s plan runs a subscription at most once every %(limit)s; this "
            "schedule has runs %(gap)s apart."
        )
    else:
        values["date"] = gap.on_date.isoformat()
        message = _(
            "Your %(plan)s plan runs a subscription at most once every %(limit)s; in "
            "%(timezone)s this schedule has runs %(gap)s apart on %(date)s, when the clocks "
            "change."
        )
        values["timezone"] = timezone
    raise TierLimitError("cron", message % values, limit="min_interval")


def fits_schedule(account: Account, cron: str, timezone: str, *, now: datetime) -> bool:
    try:
        check_schedule(account, cron, timezone, now=now)
    except TierLimitError:
        return False
    return True


# --- Subscriptions --------------------------------------------------------------------------


def _recurring(user_id: int):
    return Subscription.objects.alive().filter(owner_id=user_id).exclude(cron="")


def check_subscription_count(account: Account, *, user_id: int, exclude_pk=None) -> None:
    """Room for one more recurring subscription (the caller holds the account lock)."""
    limit = limits_of(account).subscriptions
    count = _recurring(user_id).exclude(pk=exclude_pk).count()
    if count >= limit:
        raise TierLimitError(
            "subscriptions",
            _(
                "Your %(plan)s plan allows %(limit)d recurring subscriptions and you have "
                "%(count)d. Delete one, or upgrade your plan."
            )
            % {"plan": _plan(account), "limit": limit, "count": count},
            limit="subscriptions",
        )


def check_active_count(account: Account, *, user_id: int, exclude_pk=None) -> None:
    """Room for one more active recurring subscription (resuming one, after a downgrade)."""
    limit = limits_of(account).subscriptions
    active = (
        _recurring(user_id).filter(status=Subscription.Status.ACTIVE).exclude(pk=exclude_pk).count()
    )
    if active >= limit:
        raise TierLimitError(
            "subscriptions",
            _(
                "Your %(plan)s plan runs at most %(limit)d recurring subscriptions at once; "
                "pause or delete another one first."
            )
            % {"plan": _plan(account), "limit": limit},
            limit="subscriptions",
        )


def check_manual_run(account: Account, *, user_id: int, now: datetime) -> None:
    """Room for one more "Run now" this hour (the caller holds the account lock). A retry of a
    failed run is a "Run now" too (`Run.retried_at`): retrying must not sidestep the limit."""
    limit = limits_of(account).manual_runs_per_hour
    hour = (now - timedelta(hours=1), now)
    requested = (
        Run.objects.filter(user_id=user_id, trigger=Run.Trigger.MANUAL, scheduled_at__range=hour)
        .order_by("scheduled_at")
        .values_list("scheduled_at", flat=True)[:limit]
    )
    retried = (
        Run.objects.filter(user_id=user_id, retried_at__range=hour)
        .order_by("retried_at")
        .values_list("retried_at", flat=True)[:limit]
    )
    recent = sorted([*requested, *retried])[:limit]
    recent = [moment for moment in recent if moment > hour[0]]
    if len(recent) < limit:
        return
    wait = max(math.ceil((recent[0] + timedelta(hours=1) - now).total_seconds() / 60), 1)
    raise TierLimitError(
        "manual_runs_per_hour",
        _("Your %(plan)s plan allows %(limit)d “Run now” requests an hour; try again in %(wait)s.")
        % {"plan": _plan(account), "limit": limit, "wait": duration_words(wait * 60)},
        limit="manual_runs_per_hour",
    )


# --- Watches -------------------------------------------------------------------------------


def min_watch_minutes(account: Account) -> int:
    return int(limits_of(account).min_watch_interval.total_seconds() // 60)


def check_watch_interval(account: Account, minutes: int) -> None:
    """Refuse a watch check interval shorter than the tier allows."""
    floor = min_watch_minutes(account)
    if minutes < floor:
        raise TierLimitError(
            "check_interval_minutes",
            _(
                "Your %(plan)s plan checks a watched page at most once every %(limit)s; "
                "choose %(minutes)d minutes or more, or upgrade your plan."
            )
            % {
                "plan": _plan(account),
                "limit": duration_words(floor * 60),
                "minutes": floor,
            },
            limit="min_watch_interval",
        )


# --- Public and private topics --------------------------------------------------------------


def check_topic(account: Account, *, user_id: int, topic, visibility: str, now) -> None:
    """Private topics are for paid plans; free plans have at most N listed public topics and
    N public publishes a day (the caller holds the account lock)."""
    limits = limits_of(account)
    if visibility == Topic.Visibility.PRIVATE:
        if not limits.private_topics:
            raise TierLimitError(
                "visibility",
                _("Only paid plans can keep a topic private."),
                limit="private_topics",
            )
        return
    if limits.public_topics is not None:
        others = Topic.objects.listed().filter(owner_id=user_id)
        if topic is not None:
            others = others.exclude(pk=topic.pk)
        if others.count() >= limits.public_topics:
            raise TierLimitError(
                "public_topics",
                _("Free accounts have at most %(limit)d public topics; delete one first.")
                % {"limit": limits.public_topics},
                limit="public_topics",
            )
    if limits.public_publishes_per_day is not None:
        recent = PublishEvent.objects.filter(
            user_id=user_id, created_at__gt=now - timedelta(days=1)
        ).count()
        if recent >= limits.public_publishes_per_day:
            raise TierLimitError(
                "public_publishes_per_day",
                _(
                    "Free accounts may publish or update public topics %(limit)d times a day; "
                    "try again tomorrow."
                )
                % {"limit": limits.public_publishes_per_day},
                limit="public_publishes_per_day",
            )


def may_keep_private(user_id: int, *, now: datetime) -> bool:
    return limits_of(account_for(user_id, now=now)).private_topics


# --- A change of tier -----------------------------------------------------------------------


def enforce(account: Account, *, now: datetime) -> list[int]:
    """Pause the user's active recurring subscriptions that no longer fit the account's tier:
    those whose schedule runs too often, then the newest beyond the subscription limit. Never
    deletes anything; each gets a reason the user sees. Returns the paused ids. The caller
    holds the account lock."""
    limits = limits_of(account)
    active = list(
        _recurring(account.user_id)
        .filter(status=Subscription.Status.ACTIVE)
        .order_by("created_at", "pk")
        .only("pk", "cron", "timezone")
    )
    too_often = [s.pk for s in active if not _fits(account, s, now)]
    keep = [s.pk for s in active if s.pk not in too_often][: limits.subscriptions]
    too_many = [s.pk for s in active if s.pk not in too_often and s.pk not in keep]
    for ids, reason in ((too_often, PAUSED_INTERVAL), (too_many, PAUSED_SUBSCRIPTIONS)):
        if ids:
            Subscription.objects.filter(pk__in=ids).update(
                status=Subscription.Status.PAUSED,
                paused_reason=reason,
                next_run_at=None,
                updated_at=now,
            )
    _slow_down_watches(account, now=now)
    return too_often + too_many


def _slow_down_watches(account: Account, *, now: datetime) -> None:
    """Watches checked more often than the tier now allows are checked at its minimum (the
    user sees the new interval on the watch; nothing is paused or lost)."""
    floor = min_watch_minutes(account)
    too_often = Subscription.objects.alive().filter(
        owner_id=account.user_id, watch_source__isnull=False, check_interval_minutes__lt=floor
    )
    source_ids = list(too_often.values_list("watch_source_id", flat=True))
    if source_ids:
        too_often.update(check_interval_minutes=floor, updated_at=now)
        sync_source_intervals(source_ids)


def _fits(account: Account, subscription: Subscription, now: datetime) -> bool:
    try:
        return fits_schedule(account, subscription.cron, subscription.timezone, now=now)
    except ValueError:  # an invalid stored schedule: the scheduler pauses it on its own
        return True


def paused_by_plan() -> Q:
    return Q(paused_reason__in=[PAUSED_SUBSCRIPTIONS, PAUSED_INTERVAL])
