"""Delivery rows: planned with the run, claimed under a lease, sent once, retried with backoff.

- `plan_for_run()` runs inside the run's delivery transaction: a brief that reached the Inbox
  has its email and webhook rows (unique per run and channel) or neither does. Channels are
  never a reason for the run to fail; they are sent after it committed.
- `send_delivery()` claims a row under a lease (`config/leases.py`, the one mechanism every
  kind of background work uses): pending, or failed and due -> sending, attempts + 1, in one
  conditional UPDATE, so of two workers or two ticks racing for one row exactly one sends. A
  heartbeat renews the lease while the message is on its way; the outcome is written only if
  the row is still this attempt's (the attempt number fences a worker whose lease ran out and
  was taken over), and a dropped database connection while writing it is survived.
- `due_ids()` is the tick's part: a `sending` row whose lease ran out belonged to a worker
  that died and is sent again (same Message-ID / webhook-id, so the receiving side can tell
  it is a repeat); failed rows whose time has come and pending rows whose task was lost are
  handed out again.

Nothing here runs inside a transaction that holds row locks while talking to the outside.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from config import leases
from digests.delivery.addresses import recipient_for
from digests.delivery.base import Channel, TransportError
from digests.delivery.brief import brief_for_run
from digests.delivery.email import EmailChannel
from digests.delivery.push import PushChannel
from digests.delivery.push import configured as push_configured
from digests.delivery.webhook import WebhookChannel
from digests.models import Delivery, Run, Subscription, WebhookEndpoint
from inbox.models import PushDevice

logger = logging.getLogger(__name__)

CHANNELS: dict[str, Channel] = {
    Delivery.Channel.EMAIL: EmailChannel(),
    Delivery.Channel.WEBHOOK: WebhookChannel(),
    Delivery.Channel.PUSH: PushChannel(),
}
# A push delivery's `recipient`: it goes to every device of the subscription's owner.
PUSH_RECIPIENT = "all push devices of the owner"
MAX_ATTEMPTS = 6
# After attempt n fails, the next one waits BACKOFF[n - 1] (then the last value).
BACKOFF = (
    timedelta(minutes=1),
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=2),
    timedelta(hours=6),
)
DUE_BATCH = 500


class DeliveryStateError(Exception):
    """A delivery cannot take this step in its current state (the API answers 409)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def new_message_id() -> str:
    return f"msg_{uuid.uuid4().hex}"


def plan_for_run(run: Run, subscription: Subscription, *, now: datetime) -> list[Delivery]:
    """The run's delivery rows, written in the run's own transaction before anything is sent.
    An empty brief is not sent anywhere."""
    if run.delivered_count == 0:
        return []
    planned = []
    if subscription.email_enabled:
        recipient = recipient_for(subscription)
        if recipient:
            planned.append(_new(run, subscription, Delivery.Channel.EMAIL, recipient, now))
    endpoint = WebhookEndpoint.objects.filter(subscription=subscription, enabled=True).first()
    if endpoint is not None:
        planned.append(
            _new(run, subscription, Delivery.Channel.WEBHOOK, endpoint.url, now, endpoint)
        )
    if (
        subscription.push_enabled
        and push_configured()
        and PushDevice.objects.filter(user_id=subscription.owner_id).exists()
    ):
        planned.append(_new(run, subscription, Delivery.Channel.PUSH, PUSH_RECIPIENT, now))
    # Apprise targets the subscription (or watch) is routed to: rows of their own.
    from digests.textwatch.apprise import plan_sends

    plan_sends(run, now=now)
    if not planned:
        return []
    # A retried run that had already planned them (it cannot: a failed run planned nothing)
    # meets the unique (run, channel) key here and keeps the rows it has.
    Delivery.objects.bulk_create(planned, ignore_conflicts=True)
    return planned


def _new(run, subscription, channel, recipient, now, endpoint=None) -> Delivery:
    return Delivery(
        run=run,
        subscription=subscription,
        channel=channel,
        endpoint=endpoint,
        recipient=recipient,
        message_id=new_message_id(),
        created_at=now,
        # Handed out as soon as the run commits: if that task is lost, the tick hands the
        # row out again once this lease has run out.
        lease_expires_at=leases.lease_until(now),
    )


def hand_out_run(run_id: int, send: Callable[[int], object]) -> list[int]:
    """Give a finished run's pending deliveries to `send` (enqueue, or send inline)."""
    ids = list(
        Delivery.objects.filter(run_id=run_id, status=Delivery.Status.PENDING).values_list(
            "pk", flat=True
        )
    )
    for pk in ids:
        send(pk)
    return ids


def claim(delivery_id: int, *, now: datetime) -> bool:
    claimable = Q(status=Delivery.Status.PENDING) | Q(
        status=Delivery.Status.FAILED, next_attempt_at__lte=now
    )
    return bool(
        leases.claim(
            Delivery.objects.filter(claimable, pk=delivery_id),
            now=now,
            status=Delivery.Status.SENDING,
            last_attempt_at=now,
            next_attempt_at=None,
        )
    )


def send_delivery(delivery_id: int, *, now: datetime) -> Delivery | None:
    """Send one delivery if it is pending or due; safe to call twice or from two workers."""
    if not claim(delivery_id, now=now):
        return Delivery.objects.filter(pk=delivery_id).first()
    delivery = Delivery.objects.select_related(
        "subscription__owner", "run__subscription", "endpoint"
    ).get(pk=delivery_id)
    channel = CHANNELS[delivery.channel]
    refusal = channel.refusal(delivery)
    if refusal:
        return _record(delivery, now=now, error=TransportError(refusal, permanent=True))
    started = time.monotonic()
    heartbeat = leases.Heartbeat(
        Delivery,
        [delivery.pk],
        now=now,
        status=Delivery.Status.SENDING,
        attempts=delivery.attempts,
    )
    try:
        with heartbeat:
            brief = brief_for_run(delivery.run) if delivery.run_id else None
            heartbeat.beat()  # the brief is built: renew before the slow part, the send
            code = channel.send(delivery, brief)
    except TransportError as error:
        return _record(delivery, now=now, error=error, started=started)
    except Exception as exc:  # a bug or an unexpected library error: retried, and logged
        logger.exception("delivery %s failed unexpectedly", delivery_id)
        error = TransportError(f"{type(exc).__name__}: {exc}")
        return _record(delivery, now=now, error=error, started=started)
    return _record(delivery, now=now, code=code, started=started)


def _record(
    delivery: Delivery,
    *,
    now: datetime,
    code: int | None = None,
    error: TransportError | None = None,
    started: float | None = None,
) -> Delivery:
    duration = int((time.monotonic() - started) * 1000) if started is not None else 0
    mine = Delivery.objects.filter(
        pk=delivery.pk, status=Delivery.Status.SENDING, attempts=delivery.attempts
    )
    channel = CHANNELS[delivery.channel]
    recipient = delivery.endpoint.url if delivery.endpoint_id else delivery.recipient
    if error is None:
        changes = dict(
            status=Delivery.Status.SENT,
            sent_at=now,
            response_code=code,
            last_error="",
            recipient=recipient,
        )
        after = lambda: channel.succeeded(delivery, now=now)  # noqa: E731
    else:
        gave_up = (
            error.permanent
            or delivery.attempts >= MAX_ATTEMPTS
            or delivery.event == Delivery.Event.TEST
        )
        changes = dict(
            status=Delivery.Status.FAILED,
            next_attempt_at=None if gave_up else now + _backoff(delivery.attempts, error),
            response_code=error.code,
            last_error=error.message[:1000],
            recipient=recipient,
        )
        after = lambda: channel.failed(delivery, error, gave_up=gave_up, now=now)  # noqa: E731

    def write() -> bool:
        with transaction.atomic():
            if not mine.update(lease_expires_at=None, duration_ms=duration, **changes):
                return False
            after()
            return True

    written = leases.write_status(write, what=f"delivery {delivery.pk}")
    if not written:
        # Taken over after its lease ran out (that attempt records itself), or the database
        # stayed away: the lease runs out and the tick hands the row out again.
        logger.warning("delivery %s attempt %s was not recorded", delivery.pk, delivery.attempts)
        if written is False:
            delivery.refresh_from_db()
        return delivery
    for name, value in {"lease_expires_at": None, "duration_ms": duration, **changes}.items():
        setattr(delivery, name, value)
    return delivery


def _backoff(attempts: int, error: TransportError) -> timedelta:
    wait = BACKOFF[min(attempts, len(BACKOFF)) - 1]
    if error.retry_after:
        wait = max(wait, timedelta(seconds=min(error.retry_after, 24 * 3600)))
    return wait


def due_ids(*, now: datetime, limit: int = DUE_BATCH) -> list[int]:
    """The tick's sweep: deliveries to hand out now (config/leases.py).

    - `sending` with its lease run out: the worker died mid-send. The row is failed and due
      now, or given up after MAX_ATTEMPTS claims.
    - `pending` with its lease run out: the task was lost before a worker claimed it (a killed
      cluster had already pulled it from the broker). A planned row is leased from the moment
      it is written, so this is noticed one lease after it was handed out, not later.
    - `failed` whose retry time has come.

    Each is handed out at most once per lease, by a conditional UPDATE of its lease, so of
    several tickers one hands it out and a busy queue is not flooded with repeats; a task that
    then arrives twice finds its row claimed and does nothing."""
    sending = leases.expired(Delivery.objects.filter(status=Delivery.Status.SENDING), now=now)
    sending.filter(attempts__gte=MAX_ATTEMPTS).update(
        status=Delivery.Status.FAILED,
        lease_expires_at=None,
        next_attempt_at=None,
        last_error="The worker stopped mid-send on the last attempt; gave up.",
    )
    sending.update(
        status=Delivery.Status.FAILED,
        lease_expires_at=None,
        next_attempt_at=now,
        last_error="The worker stopped mid-send; sending again.",
    )
    waiting = Q(status=Delivery.Status.PENDING) | Q(
        status=Delivery.Status.FAILED, next_attempt_at__lte=now
    )
    handed_out = []
    for pk in (
        leases.expired(Delivery.objects.filter(waiting), now=now)
        .order_by("pk")
        .values_list("pk", flat=True)[:limit]
    ):
        still_waiting = leases.expired(Delivery.objects.filter(waiting, pk=pk), now=now)
        if still_waiting.update(lease_expires_at=leases.lease_until(now)):
            handed_out.append(pk)
    return handed_out


def retry_delivery(delivery: Delivery, *, now: datetime) -> Delivery:
    """A failed delivery, by hand: pending again under the same id (and Message-ID). A sent
    one is refused — sending it again would deliver the brief twice."""
    moved = Delivery.objects.filter(pk=delivery.pk, status=Delivery.Status.FAILED).update(
        status=Delivery.Status.PENDING, next_attempt_at=None
    )
    delivery.refresh_from_db()
    if not moved:
        if delivery.status == Delivery.Status.SENT:
            raise DeliveryStateError(
                _("This delivery was sent; sending it again would send it twice.")
            )
        raise DeliveryStateError(
            _("Only a failed delivery can be retried; this one is %(status)s.")
            % {"status": delivery.get_status_display()}
        )
    return delivery


def send_test_event(endpoint: WebhookEndpoint, *, now: datetime) -> Delivery:
    """A test event to the endpoint, sent now (once, no retries); its row joins the log."""
    delivery = Delivery.objects.create(
        subscription_id=endpoint.subscription_id,
        channel=Delivery.Channel.WEBHOOK,
        event=Delivery.Event.TEST,
        endpoint=endpoint,
        recipient=endpoint.url,
        message_id=new_message_id(),
        created_at=now,
    )
    return send_delivery(delivery.pk, now=now)
