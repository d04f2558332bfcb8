"""Builders shared by the delivery tests: a subscription with email on, a run that reached the
Inbox, and sending its deliveries the way the worker does (inline, with an injected now)."""

from __future__ import annotations

from digests.delivery import service as deliveries
from digests.models import Run
from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from tests.factories import add_item


def subscribe(user, now, **data):
    base = {
        "name": "Databases",
        "interests": ["PostgreSQL"],
        "cron": "0 8 * * *",
        "email_enabled": True,
    }
    base.update(data)
    return create_subscription(user, base, now=now)


def run_only(subscription, now) -> Run:
    """A run that delivered to the Inbox; its deliveries planned but not sent."""
    run = request_manual_run(subscription, now=now)
    return runner.execute_run(run.pk, now=now)


def run_and_send(subscription, now) -> Run:
    """A run and its deliveries, sent inline as the worker's task chain does."""
    run = run_only(subscription, now)
    deliveries.hand_out_run(run.pk, lambda pk: deliveries.send_delivery(pk, now=now))
    return run


def add_items(now, *titles, **kwargs):
    return [add_item(title, now=now, **kwargs) for title in titles]
