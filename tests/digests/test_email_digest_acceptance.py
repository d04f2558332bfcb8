"""Seed 001 §10, the email digest's definition of done, by email through a real SMTP server on
loopback — one test per point:

1. a subscription with a cron expression and a time zone is received by email on schedule;
2. the email has title, source, summary and link — and with AI on, an overview and per-item
   summaries;
3. one user's subscriptions never email the same content twice;
4. run history shows dedup-skipped counts and what degraded (fetch / summary fallbacks);
5. failures can be retried and never send twice.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.core.management import call_command

from digests.delivery import service as deliveries
from digests.models import Run
from digests.narrative.markdown import plain
from ingest.models import ContentItem
from tests.digests.delivery_helpers import run_and_send, subscribe
from tests.digests.fake_anthropic import FakeAnthropic, status
from tests.factories import add_item


def texts(smtp_server) -> list[str]:
    return [m.get_body(("plain",)).get_content() for m in smtp_server.messages]


def tick_at(when: datetime) -> None:
    call_command("tick", "--now", when.isoformat(), stdout=open("/dev/null", "w"))  # noqa: SIM115


def test_1_a_cron_and_time_zone_schedule_arrives_by_email_on_time(alice, now, smtp_server):
    # "Every day at 09:00 in Asia/Shanghai" is 01:00 UTC.
    subscription = subscribe(alice, now, cron="0 9 * * *", timezone="Asia/Shanghai")
    first = datetime(2026, 11, 21, 1, 0, tzinfo=UTC)
    assert subscription.next_run_at == first
    add_item("PostgreSQL 18 released", now=first - timedelta(hours=3))
    tick_at(first - timedelta(minutes=1))
    assert smtp_server.count == 0  # not before its time
    tick_at(first)
    assert smtp_server.count == 1
    assert "PostgreSQL 18 released" in texts(smtp_server)[0]
    tick_at(first + timedelta(minutes=1))
    assert smtp_server.count == 1  # once per slot
    second = first + timedelta(days=1)
    add_item("PostgreSQL 18.1 fixes", now=second - timedelta(hours=3))
    tick_at(second)
    assert smtp_server.count == 2
    assert "PostgreSQL 18.1 fixes" in texts(smtp_server)[1]
    runs = Run.objects.filter(subscription=subscription, trigger="scheduled")
    assert sorted(runs.values_list("scheduled_at", flat=True)) == [first, second]


def test_2_the_email_has_title_source_summary_and_link_and_the_ai_overview(alice, now, smtp_server):
    item = add_item("PostgreSQL 18 released", now=now, description="Async I/O lands in core.")
    ContentItem.objects.filter(pk=item.pk).update(site_name="PostgreSQL News")
    with FakeAnthropic.running(LLM_MAX_RETRIES=0):
        run = run_and_send(subscribe(alice, now), now)
    assert run.narrative_generator not in ("", "template")
    run_item = run.items.get()
    assert run_item.summary_generator not in ("", "extractive")
    message = smtp_server.messages[0]
    text = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    for part in (text, html):
        assert "PostgreSQL 18 released" in part  # title
        assert "PostgreSQL News" in part  # source
        assert run_item.summary in part  # the model's summary of the item
        assert run_item.url in part  # link
        assert "Overview" in part
        assert "Narrative: template" not in part  # written by the model
        assert "Summary written without AI" not in part
    # The overview's own text, as plain text in the text part (no markdown syntax).
    assert plain(run.narrative_md).splitlines()[0] in text


def test_3_one_users_subscriptions_never_email_the_same_item_twice(alice, now, smtp_server):
    shared = add_item("PostgreSQL vacuum gets faster", now=now)
    add_item("Vacuum deep dive", now=now)
    databases = subscribe(alice, now)
    vacuum = subscribe(alice, now, name="Vacuum", interests=["vacuum"])
    first = run_and_send(databases, now)
    second = run_and_send(vacuum, now + timedelta(minutes=5))
    assert smtp_server.count == 2
    in_first, in_second = (m.count(shared.canonical_url) for m in texts(smtp_server))
    assert in_first > 0 and in_second == 0
    assert first.items.filter(item=shared).exists()
    assert not second.items.filter(item=shared).exists()
    assert second.dedup_skipped_count == 1
    # The same subscription run again sends nothing it already sent (and no empty email).
    third = run_and_send(databases, now + timedelta(minutes=10))
    assert third.delivered_count == 0 and not third.deliveries.exists()
    assert smtp_server.count == 2


def test_4_run_history_shows_dedup_counts_fallbacks_and_the_email(api, alice, now, smtp_server):
    add_item("PostgreSQL 18 released", now=now)
    subscription = subscribe(alice, now)
    run_and_send(subscription, now)
    add_item("PostgreSQL 18.1 fixes", now=now, description="Two crash fixes. And more.")
    with FakeAnthropic.running(LLM_MAX_RETRIES=0) as fake:
        for _ in range(10):
            fake.queue(status(500))  # the model is down: summaries and narrative fall back
        run = run_and_send(subscription, now + timedelta(hours=1))
    body = api.get(f"/api/v1/runs/{run.pk}").json()
    assert body["dedup_skipped_count"] == 1  # the first item, already sent
    assert body["delivered_count"] == 1
    assert body["narrative_generator"] == "template"
    assert [item["summary_generator"] for item in body["items"]] == ["extractive"]
    assert [(d["channel"], d["status"]) for d in body["deliveries"]] == [("email", "sent")]
    # ...and the email itself says which parts were written without AI.
    text = texts(smtp_server)[1]
    assert "(Narrative: template)" in text and "(Summary written without AI)" in text
    # The console's run history shows the same.
    from django.test import Client

    client = Client()
    client.force_login(alice)
    page = client.get(f"/subscriptions/{subscription.pk}/").content.decode()
    assert "Skipped (already seen)" in page
    assert "Email: <span" in page


def test_5_a_failed_send_is_retried_and_never_sent_twice(alice, now, smtp_server):
    add_item("PostgreSQL 18 released", now=now)
    smtp_server.refuse_next("451 4.3.0 Try again later")
    run = run_and_send(subscribe(alice, now), now)
    delivery = run.deliveries.get()
    assert delivery.status == "failed" and smtp_server.count == 0
    # The tick retries it when due — twice over, as two ticks or a redelivered task would.
    retry_at = delivery.next_attempt_at
    tick_at(retry_at)
    tick_at(retry_at)
    deliveries.send_delivery(delivery.pk, now=retry_at)
    delivery.refresh_from_db()
    assert delivery.status == "sent" and delivery.attempts == 2
    assert smtp_server.count == 1
    # A retry by hand of a sent email is refused; a retried run is refused too (it succeeded).
    import pytest

    from digests.subscriptions.service import RunStateError, retry_run

    with pytest.raises(deliveries.DeliveryStateError):
        deliveries.retry_delivery(delivery, now=retry_at)
    with pytest.raises(RunStateError):
        retry_run(run, now=retry_at)
    assert smtp_server.count == 1
