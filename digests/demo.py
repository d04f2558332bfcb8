"""The offline demo: sample feeds, a demo user with subscriptions, one run each. Idempotent."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model

from billing import tiers
from billing.accounts import ensure_account
from billing.models import Tier
from digests.models import Subscription
from digests.runs import runner
from digests.subscriptions import service as subscriptions
from inbox.accounts import sign_up
from ingest.demo_feeds import write_demo_feeds
from ingest.library.sources import add_to_library, ensure_file_source
from topics.demo import publish_demo_topic

DEMO_EMAIL = "demo@tidings.local"
DEMO_PASSWORD = "read-the-tidings-demo"  # noqa: S105 - printed on purpose: local demo only
DEMO_TEMPLATES = ("ai-daily", "security-daily", "engineering-deep-dives")
CUSTOM_SUBSCRIPTION = {
    "name": "Climate & energy",
    "topic": "Climate and clean energy",
    "interests": ["solar", "grid", "heat pump", "battery", "climate", "emissions"],
    "cron": "0 18 * * 1-5",
    "timezone": "UTC",
    "length": "brief",
}


@dataclass
class DemoResult:
    user_email: str
    password: str
    items_inserted: int
    runs_made: int
    delivered: int
    topic_url: str = ""


def set_up_demo(*, now: datetime) -> DemoResult:
    User = get_user_model()
    user = User.objects.filter(username=DEMO_EMAIL).first()
    if user is None:
        user = sign_up(email=DEMO_EMAIL, password=DEMO_PASSWORD, now=now)
        user.is_staff = True
        user.is_superuser = True  # the demo admin can explore /admin/ too
        user.save(update_fields=["is_staff", "is_superuser"])
        # Four subscriptions are more than the free plan allows: the demo user is on Pro.
        tiers.change_tier(ensure_account(user, now=now).pk, Tier.PRO, now=now)

    inserted = 0
    source_ids = []
    for feed, path in write_demo_feeds(settings.DATA_DIR / "demo-feeds", now=now):
        source, outcome = ensure_file_source(path, now=now)
        inserted += outcome.counts.inserted
        add_to_library(user, source, feed["title"])
        source_ids.append(source.pk)

    existing = set(Subscription.objects.alive().filter(owner=user).values_list("name", flat=True))
    for key in DEMO_TEMPLATES:
        if str(subscriptions.TEMPLATES[key].name) not in existing:
            subscriptions.create_from_template(
                user, key, now=now, timezone="UTC", source_ids=source_ids
            )
    if CUSTOM_SUBSCRIPTION["name"] not in existing:
        subscriptions.create_subscription(user, CUSTOM_SUBSCRIPTION, now=now)

    runs_made = delivered = 0
    for subscription in Subscription.objects.alive().filter(owner=user, runs__isnull=True):
        run = subscriptions.request_manual_run(subscription, now=now)
        run = runner.execute_run(run.pk, now=now)
        runs_made += 1
        delivered += run.delivered_count
    topic = publish_demo_topic(user, now=now)
    return DemoResult(
        DEMO_EMAIL,
        DEMO_PASSWORD,
        inserted,
        runs_made,
        delivered,
        topic.get_absolute_url() if topic else "",
    )
