"""Public topics behind the pages: publishing rules, editions, follow and fork, moderation,
trending."""

from __future__ import annotations

from datetime import timedelta

import pytest

from billing.limits import TierLimitError
from digests.models import CombinationCacheCounter, Subscription
from digests.runs import runner
from digests.subscriptions.service import (
    SubscriptionInputError,
    create_subscription,
    request_manual_run,
)
from ingest.models import Source, UserSource
from tests.factories import add_item, on_plan
from topics import editions, following, publishing, trending
from topics.models import BlockedDomain, Edition, ModerationAction, Topic
from topics.publishing import PublishInput, TopicInputError


def feed_source(name: str, url: str | None = None) -> Source:
    url = url or f"https://{name}.example/feed.xml"
    source, _created = Source.objects.get_or_create(
        type=Source.Type.FEED,
        config_hash=name,
        defaults={"config": {"url": url}, "url": url, "title": name},
    )
    return source


def subscription_of(user, now, sources=(), **data):
    for source in sources:
        UserSource.objects.get_or_create(user=user, source=source)
    base = {
        "name": "Database weekly",
        "interests": ["PostgreSQL"],
        "cron": "0 8 * * *",
        "source_ids": [s.pk for s in sources],
    }
    base.update(data)
    return create_subscription(user, base, now=now)


def published(user, now, title="Databases Daily", sources=None, subscription=None, **kwargs):
    sources = [feed_source("dbnews")] if sources is None else sources
    subscription = subscription or subscription_of(user, now, sources)
    return publishing.publish(user, subscription, PublishInput(title=title, **kwargs), now=now)


def test_publishing_copies_the_configuration_and_is_public_by_default(alice, now):
    topic = published(alice, now, description="The week in PostgreSQL")
    assert topic.slug == "databases-daily"
    assert topic.is_listed
    assert topic.config["interests"] == ["PostgreSQL"]
    assert topic.next_edition_at > now
    subscription = topic.published_from
    subscription.interests = ["Gardening"]
    subscription.save()
    topic.refresh_from_db()
    assert topic.config["interests"] == ["PostgreSQL"], "later edits are not published"


def test_slugs_stay_unique(alice, bob, now):
    first = published(alice, now)
    second = published(bob, now)
    assert (first.slug, second.slug) == ("databases-daily", "databases-daily-2")


@pytest.mark.parametrize(
    ("kwargs", "field", "words"),
    [
        ({"title": "ab"}, "title", "3 to 200"),
        ({"visibility": "unlisted"}, "visibility", "'public' or 'private'"),
        ({"cron": "0 */6 * * *"}, "cron", "at least 24 hours apart"),
        ({"cron": "not a cron"}, "cron", ""),
        ({"slug": "Not A Slug"}, "slug", "lowercase"),
    ],
)
def test_refusals_name_the_field_and_write_nothing(alice, now, kwargs, field, words):
    subscription = subscription_of(alice, now, [feed_source("dbnews")])
    data = {"title": "Databases Daily", **kwargs}
    with pytest.raises(TopicInputError) as refused:
        publishing.publish(alice, subscription, PublishInput(**data), now=now)
    assert field in refused.value.errors
    assert words in refused.value.errors[field]
    assert not Topic.objects.exists()


def test_only_paid_accounts_may_keep_a_topic_private(alice, now):
    subscription = subscription_of(alice, now, [feed_source("dbnews")])
    with pytest.raises(TierLimitError) as refused:
        published(alice, now, subscription=subscription, visibility="private")
    assert refused.value.limit == "private_topics"
    assert "Only paid plans" in refused.value.errors["visibility"]
    assert not Topic.objects.exists()

    on_plan(alice, "basic", now=now)
    topic = published(alice, now, subscription=subscription, visibility="private")
    assert not topic.is_listed
    assert not Topic.objects.listed().exists()


def test_free_accounts_have_three_public_topics_and_three_publishes_a_day(alice, now):
    subscription = subscription_of(alice, now, [feed_source("dbnews")])
    for number in range(3):
        published(alice, now, subscription=subscription, title=f"Topic number {number}")
    with pytest.raises(TierLimitError) as refused:
        published(alice, now, subscription=subscription, title="One too many")
    assert "at most 3 public topics" in refused.value.errors["public_topics"]
    Topic.objects.filter(title="Topic number 0").update(status=Topic.Status.DELETED)
    with pytest.raises(TierLimitError) as refused:
        published(alice, now, subscription=subscription, title="Still too many today")
    assert "3 times a day" in refused.value.errors["public_publishes_per_day"]
    tomorrow = now + timedelta(days=1, minutes=1)
    assert published(alice, tomorrow, subscription=subscription, title="Tomorrow").is_listed
    assert Topic.objects.listed().count() == 3


def test_public_topics_have_at_most_five_sources_and_no_blocked_domains(alice, now):
    many = [feed_source(f"site{n}") for n in range(6)]
    with pytest.raises(TopicInputError) as refused:
        published(alice, now, sources=many)
    assert "at most 5 sources" in refused.value.errors["sources"]
    BlockedDomain.objects.create(domain="spam.example")
    with pytest.raises(TopicInputError) as refused:
        published(alice, now, sources=[feed_source("x", "https://cdn.spam.example/rss")])
    assert "cdn.spam.example" in refused.value.errors["sources"]


def make_edition(topic, now):
    source = topic.sources.first()
    add_item("PostgreSQL 18 released", now=now, source=source)
    add_item("PostgreSQL vacuum tuning", now=now, source=source, age_hours=5)
    add_item("Gardening in November", now=now, source=source)
    return editions.produce_edition(topic.pk, now=now)


def test_an_edition_snapshots_the_best_items_without_anyones_state(alice, now):
    topic = published(alice, now)
    edition = make_edition(topic, now)
    assert edition.status == Edition.Status.SUCCEEDED
    assert edition.published_at == now
    titles = list(edition.items.order_by("rank").values_list("title", flat=True))
    assert titles == ["PostgreSQL 18 released", "PostgreSQL vacuum tuning"]
    assert "Sources:" in edition.narrative_md
    topic.refresh_from_db()
    assert topic.last_edition_at == now
    assert topic.next_edition_at >= now + timedelta(hours=23)


def test_editions_are_at_least_a_day_apart_and_produced_once(alice, now):
    topic = published(alice, now)
    first = make_edition(topic, now)
    assert editions.produce_edition(topic.pk, now=now) is None
    assert editions.produce_edition(topic.pk, now=now + timedelta(hours=6)) is None
    assert Edition.objects.filter(topic=topic).count() == 1
    later = editions.produce_edition(topic.pk, now=now + timedelta(days=1))
    assert later is not None and later.pk != first.pk


def test_the_global_concurrency_limit_defers_editions(alice, now, settings):
    settings.TOPIC_EDITION_CONCURRENCY = 1
    busy = published(alice, now, title="Busy topic")
    Edition.objects.create(
        topic=busy,
        edition_date=now.date(),
        scheduled_at=now,
        status=Edition.Status.RUNNING,
        started_at=now,
        lease_expires_at=now + timedelta(seconds=30),  # its worker is alive
    )
    waiting = published(alice, now, title="Waiting topic")
    assert editions.produce_edition(waiting.pk, now=now) is None
    waiting.refresh_from_db()
    assert waiting.next_edition_at == now + editions.CONCURRENCY_RETRY


def test_the_tick_claims_due_topics_once(alice, now):
    topic = published(alice, now)
    due = topic.next_edition_at
    assert editions.claim_due_topics(now=due) == [topic.pk]
    assert editions.claim_due_topics(now=due) == []


def test_followers_get_the_topics_editions_with_their_own_tweaks(alice, bob, now):
    topic = published(alice, now)
    make_edition(topic, now)
    subscription = following.follow(bob, topic, {"negative_keywords": ["vacuum"]}, now=now)
    assert subscription.followed_topic == topic
    assert not subscription.sources.exists()
    run = runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)
    assert list(run.items.values_list("title", flat=True)) == ["PostgreSQL 18 released"]
    assert following.follow(bob, topic, now=now) == subscription, "following twice is one follow"


def test_changing_sources_needs_a_fork(alice, bob, now):
    topic = published(alice, now)
    with pytest.raises(SubscriptionInputError) as refused:
        following.follow(bob, topic, {"source_ids": [1]}, now=now)
    assert "fork" in refused.value.errors["source_ids"]
    fork = following.fork(bob, topic, now=now)
    assert fork.followed_topic is None
    assert list(fork.sources.all()) == list(topic.sources.all())
    assert UserSource.objects.filter(user=bob, source__in=topic.sources.all()).exists()


def test_deleted_taken_down_or_private_topics_feed_nobody(alice, bob, now):
    topic = published(alice, now)
    make_edition(topic, now)
    subscription = following.follow(bob, topic, now=now)
    publishing.delete(alice, topic, now=now)
    run = runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)
    assert run.delivered_count == 0
    assert not Topic.objects.listed().exists()
    with pytest.raises(SubscriptionInputError):
        following.follow(bob, Topic.objects.get(pk=topic.pk), now=now)


def test_takedown_and_restore_leave_an_audit_trail(alice, admin_user, now):
    topic = published(alice, now)
    with pytest.raises(TopicInputError):
        publishing.take_down(topic, actor=admin_user, reason=" ", now=now)
    publishing.take_down(topic, actor=admin_user, reason="Spam links", now=now)
    assert not Topic.objects.listed().exists()
    publishing.restore(topic, actor=admin_user, reason="Owner cleaned it up", now=now)
    assert Topic.objects.listed().get() == topic
    actions = list(ModerationAction.objects.values_list("action", "reason"))
    assert actions == [("restore", "Owner cleaned it up"), ("take_down", "Spam links")]


@pytest.mark.parametrize(
    ("net_new", "hours_since_edition", "saved", "dismissed", "reports", "weak", "expected"),
    [
        (0, None, 0, 0, 0, 0.0, 0.15),  # nothing yet: only the smoothed engagement
        (1000, 0, 0, 0, 0, 0.0, 0.85),
        (0, 48, 0, 0, 0, 0.0, 0.3),
        (0, None, 8, 0, 0, 0.0, 0.27),
        (0, None, 0, 0, 2, 0.5, -0.2),
    ],
)
def test_trending_formula(
    now, net_new, hours_since_edition, saved, dismissed, reports, weak, expected
):
    last = None if hours_since_edition is None else now - timedelta(hours=hours_since_edition)
    score = trending.trending_score(
        net_new=net_new,
        last_edition_at=last,
        saved=saved,
        dismissed=dismissed,
        reports=reports,
        weak_share=weak,
        now=now,
    )
    assert score == pytest.approx(expected, abs=0.01)


def test_trending_job_counts_followers(alice, bob, now):
    topic = published(alice, now)
    make_edition(topic, now)
    following.follow(bob, topic, now=now)
    assert trending.recompute(now=now) == 1
    topic.refresh_from_db()
    assert topic.follower_count == 1
    assert topic.trending_score > trending.trending_score(
        net_new=0, last_edition_at=None, saved=0, dismissed=0, reports=0, weak_share=0, now=now
    )
    assert Subscription.objects.filter(followed_topic=topic).count() == 1


def test_editions_are_written_by_the_model_when_one_is_configured(alice, bob, now):
    from tests.digests.fake_anthropic import FakeAnthropic

    with FakeAnthropic.running(LLM_MAX_RETRIES=0):
        topic = published(alice, now)
        edition = make_edition(topic, now)
        twin = published(bob, now, title="Same sources, other owner")
        twin_edition = editions.produce_edition(twin.pk, now=now)
    assert edition.narrative_generator not in ("", "template")
    assert "Sources:" in edition.narrative_md
    assert edition.items.first().summary
    # Same items, same window, same options: the twin's narrative came from the cache.
    assert twin_edition.narrative_md == edition.narrative_md
    assert CombinationCacheCounter.objects.get(kind="narrative").hits == 1


def test_editions_leave_out_items_from_blocked_domains(alice, now):
    topic = published(alice, now)
    BlockedDomain.objects.create(domain="news.example")  # where tests.factories puts items
    edition = make_edition(topic, now)
    assert edition.item_count == 0 and edition.published_at is None
