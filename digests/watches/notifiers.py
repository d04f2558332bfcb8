"""Watches that notify by themselves (seed 004: per-watch `notifyChannels` and check interval).

A watched list (ingest/watch/) is a shared `list` Source in the user's library. To hear about
its changes without building a subscription around it, each watcher has a *notifier*: a
subscription of their own with that one source (`Subscription.watch_source`), no schedule, and
the watch's settings:

- channels: `inbox` (the default: the new links arrive in the Inbox as a short brief), plus
  `email` and `push` on top of it (the same brief as an email, through the delivery rows of
  digests/delivery/, and as a Web Push notification to every device the user registered).
  No channel at all (`[]`) pauses the notifier: the watch still feeds any brief that uses it.
- `check_interval_minutes`: how often the list is checked, at least the tier's minimum
  (billing/limits.py) and within the fetch policy's 30 minutes – 24 hours; the shared list is
  checked at its most eager watcher's pace (digests/watches/check_interval.py).

How a change is notified exactly once per channel, whatever is retried:
1. A check stores the list's links; a link is new the first time the list links to it (the
   unique (item, source) sighting — ingest/pool/upsert.py). In the same transaction the
   pipeline calls `changes_seen()`, which makes every active notifier of that list due now. A
   check that is run again finds no new sighting and makes nothing due.
2. The dispatcher tick claims a due notifier like any one-off subscription: one Run, unique
   per (subscription, scheduled time).
3. The run delivers the links the user was never given (per-user dedup, `redelivery: never`),
   and its email and push rows are written with the brief — one per run and channel — and
   sent under a lease by digests/delivery/service.py; a push row remembers each device it
   reached (`PushSend`). An empty run (nothing new for this user) sends nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from billing import limits
from config.api.errors import ServiceRefusal
from digests.delivery import push
from digests.models import MAX_ITEMS_HARD_CAP, Subscription, SubscriptionSource
from digests.subscriptions.source_sets import refresh_subscriptions
from digests.watches.check_interval import (
    DEFAULT_CHECK_MINUTES,
    MAX_CHECK_MINUTES,
    MIN_CHECK_MINUTES,
    active_notifiers,
    sync_source_intervals,
)
from inbox.models import UserPreference
from inbox.page_cache import inbox_changed
from ingest.models import Source

INBOX, EMAIL, PUSH = "inbox", "email", "push"
NOTIFY_CHANNELS = (INBOX, EMAIL, PUSH)
DEFAULT_CHANNELS = (INBOX,)
# The brief of a change: every new link (up to a brief's cap), no narrative to wait for.
NOTIFIER_WINDOW_HOURS = 24 * 90
NAME_MAX_CHARS = 200


class WatchSettingsError(ServiceRefusal):
    """Refused watch settings, by field: HTTP 400, or 422 by its code (`invalid_combination`,
    `not_configured`)."""


@dataclass(frozen=True)
class WatchSettings:
    channels: tuple[str, ...]
    check_interval_minutes: int


def clean_channels(value) -> tuple[str, ...]:
    """A list of channel names, each once; email and push come with the Inbox (they send the
    Inbox's brief of the change, and link to it). Push needs the server's VAPID keys."""
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise WatchSettingsError(
            {"notify": _("Must be a list of channels: %(choices)s.") % _choices()}
        )
    unknown = [v for v in value if v not in NOTIFY_CHANNELS]
    if unknown:
        raise WatchSettingsError(
            {
                "notify": _("Unknown channel %(value)r; choose from %(choices)s.")
                % {"value": unknown[0], **_choices()}
            }
        )
    if len(set(value)) != len(value):
        raise WatchSettingsError({"notify": _("Name each channel once.")})
    if value and INBOX not in value:
        # Each channel is valid; email or push without the Inbox is not (HTTP 422).
        raise WatchSettingsError(
            {
                "notify": _(
                    "Email and push notifications send the Inbox's brief of the change: "
                    "include “inbox”, or choose no channel at all."
                )
            },
            code="invalid_combination",
        )
    if PUSH in value and not push.configured():
        raise WatchSettingsError(
            {"notify": _("Web Push is off on this server (no VAPID keys are set).")},
            code="not_configured",
        )
    return tuple(c for c in NOTIFY_CHANNELS if c in value)


def _choices() -> dict:
    return {"choices": ", ".join(NOTIFY_CHANNELS)}


def clean_interval(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise WatchSettingsError(
            {"check_interval_minutes": _("Must be a whole number of minutes.")}
        )
    if not MIN_CHECK_MINUTES <= value <= MAX_CHECK_MINUTES:
        raise WatchSettingsError(
            {
                "check_interval_minutes": _(
                    "Must be between %(low)d and %(high)d minutes (24 hours)."
                )
                % {"low": MIN_CHECK_MINUTES, "high": MAX_CHECK_MINUTES}
            }
        )
    return value


def check_input(user, *, channels=None, check_interval_minutes=None, now: datetime) -> None:
    """Refuse bad settings before anything is fetched or written (the write checks the tier
    again under the account lock)."""
    if channels is not None:
        clean_channels(channels)
    if check_interval_minutes is not None:
        minutes = clean_interval(check_interval_minutes)
        limits.check_watch_interval(limits.account_for(user.pk, now=now), minutes)


def settings_of(notifier: Subscription | None) -> WatchSettings:
    if notifier is None:
        return WatchSettings(channels=(), check_interval_minutes=DEFAULT_CHECK_MINUTES)
    channels = []
    if notifier.status == Subscription.Status.ACTIVE:
        channels.append(INBOX)
        if notifier.email_enabled:
            channels.append(EMAIL)
        if notifier.push_enabled:
            channels.append(PUSH)
    return WatchSettings(
        channels=tuple(channels),
        check_interval_minutes=notifier.check_interval_minutes or DEFAULT_CHECK_MINUTES,
    )


def notifier_for(user, source: Source) -> Subscription | None:
    return Subscription.objects.alive().filter(owner=user, watch_source=source).first()


def notifiers_by_source(user, source_ids) -> dict[int, Subscription]:
    return {
        s.watch_source_id: s
        for s in Subscription.objects.alive().filter(owner=user, watch_source_id__in=source_ids)
    }


def default_interval(user, *, now: datetime) -> int:
    """A new watch's interval: an hour, or the tier's minimum when that is longer."""
    account = limits.account_for(user.pk, now=now)
    return max(DEFAULT_CHECK_MINUTES, limits.min_watch_minutes(account))


def _zone(user) -> str:
    zone = UserPreference.objects.filter(user=user).values_list("timezone", flat=True).first()
    return zone or "UTC"


def _new_notifier(user, source: Source, *, name: str) -> Subscription:
    label = " ".join((name or source.display_name).split())
    return Subscription(
        owner=user,
        name=(_("Watch: %(name)s") % {"name": label})[:NAME_MAX_CHARS],
        topic="",
        interests=[],
        min_score=0,
        max_items=MAX_ITEMS_HARD_CAP,
        content_window_hours=NOTIFIER_WINDOW_HOURS,
        redelivery=Subscription.Redelivery.NEVER,
        cron="",
        run_at=None,
        timezone=_zone(user),
        narrative_enabled=False,
        watch_source=source,
        next_run_at=None,
    )


def set_watch_notifications(
    user,
    source: Source,
    *,
    now: datetime,
    channels=None,
    check_interval_minutes=None,
    name: str = "",
) -> Subscription:
    """Create or change the user's notifier for the watched list `source`. `None` keeps a
    setting as it is (a new watch: the Inbox, and an hour or the tier's minimum). Refusals
    raise WatchSettingsError (400) or billing.limits.TierLimitError (403, an interval below
    the tier's minimum) naming the field, and write nothing."""
    if source.type != Source.Type.LIST:
        raise WatchSettingsError({"source": _("Only a watched list can notify by itself.")})
    clean = {}
    if channels is not None:
        clean["channels"] = clean_channels(channels)
    if check_interval_minutes is not None:
        clean["check_interval_minutes"] = clean_interval(check_interval_minutes)
    with transaction.atomic():
        account = limits.lock_account(user.pk, now=now)
        notifier = (
            Subscription.objects.alive()
            .select_for_update()
            .filter(owner=user, watch_source=source)
            .first()
        )
        creating = notifier is None
        current = settings_of(notifier)
        wanted_channels = clean.get("channels", DEFAULT_CHANNELS if creating else current.channels)
        minutes = clean.get("check_interval_minutes")
        if minutes is not None:
            limits.check_watch_interval(account, minutes)
        elif creating:
            minutes = max(DEFAULT_CHECK_MINUTES, limits.min_watch_minutes(account))
        else:
            minutes = current.check_interval_minutes
        if creating:
            notifier = _new_notifier(user, source, name=name)
        notifier.check_interval_minutes = minutes
        notifier.email_enabled = EMAIL in wanted_channels
        notifier.push_enabled = PUSH in wanted_channels
        if wanted_channels:
            if notifier.status != Subscription.Status.ACTIVE or creating:
                # Turned on now: what the list gained while nobody listened is not news.
                notifier.notify_since = now
            notifier.status = Subscription.Status.ACTIVE
            notifier.paused_reason = ""
        else:
            notifier.status = Subscription.Status.PAUSED
            notifier.paused_reason = ""
            notifier.next_run_at = None
        if EMAIL in wanted_channels and EMAIL not in current.channels:
            notifier.email_error, notifier.email_error_at = "", None
        notifier.save()
        if creating:
            SubscriptionSource.objects.get_or_create(subscription=notifier, source=source)
            refresh_subscriptions([notifier.pk])
            inbox_changed(user.pk)  # the Inbox's filter lists subscriptions by name
        sync_source_intervals([source.pk])
    return notifier


def changes_seen(source: Source, *, now: datetime) -> int:
    """A check of `source` found links it never linked to before: each active notifier of
    a user who still has the list in their library is due now (one that is due already keeps
    its time). Called by the refresh pipeline inside the transaction that stored the links,
    so a change and the notice that it must be told commit together."""
    return (
        active_notifiers()
        .filter(watch_source=source, next_run_at__isnull=True, owner__library__source=source)
        .update(next_run_at=now)
    )
