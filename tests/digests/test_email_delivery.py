"""Email briefs through a real SMTP server on loopback: the message, its two parts and headers,
its language, SMTP failures (transient and permanent) and retries that never send twice."""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test import override_settings

from config import leases
from digests.delivery import service as deliveries
from digests.models import Delivery, Subscription
from digests.schedules.scheduler import tick
from digests.subscriptions.service import update_subscription
from inbox.models import UserPreference
from tests.digests.delivery_helpers import add_items, run_and_send, run_only, subscribe


def parts(message) -> tuple[str, str]:
    return (
        message.get_body(("plain",)).get_content(),
        message.get_body(("html",)).get_content(),
    )


def test_a_run_emails_its_brief_with_a_text_and_an_html_part(alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released", "PostgreSQL tuning guide")
    run = run_and_send(subscribe(alice, now), now)
    assert smtp_server.count == 1
    message = smtp_server.messages[0]
    assert message["To"] == "alice@example.com"
    assert smtp_server.recipients == [["alice@example.com"]]
    assert message.get_content_type() == "multipart/alternative"
    text, html = parts(message)
    for part in (text, html):
        assert "PostgreSQL 18 released" in part
        assert "PostgreSQL tuning guide" in part
        assert f"http://127.0.0.1:8000/inbox/runs/{run.pk}/" in part  # the brief in the Inbox
        assert "Why selected:" in part
    delivery = run.deliveries.get()
    assert delivery.status == Delivery.Status.SENT
    assert delivery.response_code == 250
    assert delivery.attempts == 1


def test_the_message_carries_the_brief_as_the_inbox_shows_it(alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released", description="Faster vacuum and async I/O.")
    run = run_and_send(subscribe(alice, now), now)
    item = run.items.get()
    text, html = parts(smtp_server.messages[0])
    # Overview first (the template narrative, labelled), then items, then Sources.
    lines = text.splitlines()
    assert lines.index("Overview (Narrative: template)") < lines.index("Items")
    assert lines.index("Items") < lines.index("Sources")
    assert item.url in text and f'href="{item.url}"' in html
    assert item.summary == "Faster vacuum and async I/O."
    assert f"{item.summary} (Summary written without AI)" in text
    assert item.reason.startswith("matches PostgreSQL in the title")
    assert f"Why selected: {item.reason}" in text


def test_the_html_part_has_inline_styles_and_loads_nothing_remote(alice, now, smtp_server):
    add_items(now, 'PostgreSQL <img src="https://tracker.example/p.gif"> & friends')
    run_and_send(subscribe(alice, now), now)
    _text, html = parts(smtp_server.messages[0])
    assert "<style" not in html and "<link" not in html
    assert "<img" not in html.replace("&lt;img", "")  # the title's markup is escaped, not shown
    assert "&lt;img src=" in html
    assert 'style="' in html
    assert "<script" not in html


def test_it_sends_one_click_unsubscribe_headers_and_a_stable_message_id(alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released")
    run = run_and_send(subscribe(alice, now), now)
    message = smtp_server.messages[0]
    unsubscribe = str(message["List-Unsubscribe"]).strip()
    assert re.fullmatch(r"<http://127\.0\.0\.1:8000/email/unsubscribe/[^>]+/>", unsubscribe)
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message["Auto-Submitted"] == "auto-generated"
    delivery = run.deliveries.get()
    assert message["Message-ID"] == f"<{delivery.message_id}@127.0.0.1>"
    text, html = parts(message)
    url = unsubscribe.strip("<>")
    assert url in text and url in html  # the footer link too


def test_the_subject_follows_the_template_and_the_default_says_what_and_when(
    alice, now, smtp_server
):
    add_items(now, "PostgreSQL 18 released", "PostgreSQL tuning guide")
    subscription = subscribe(alice, now)
    run_and_send(subscription, now)
    assert smtp_server.messages[0]["Subject"] == "Databases — your brief for 20 Nov 2026"
    update_subscription(subscription, {"email_subject": "[{count}] {name}: {topic}"}, now=now)
    add_items(now, "PostgreSQL 19 planned")
    run_and_send(subscription, now)
    assert smtp_server.messages[1]["Subject"] == "[1] Databases:"


def test_a_chinese_brief_is_written_in_chinese(db, now, smtp_server):
    from tests.conftest import make_user

    li = make_user("li@example.com", locale="zh-hans")
    add_items(now, "PostgreSQL 18 发布")
    run = run_and_send(subscribe(li, now, name="数据库"), now)
    assert run.output_locale == "zh-hans"
    message = smtp_server.messages[0]
    assert str(message["Subject"]).strip() == "数据库 — 2026年11月20日 的简报"
    text, html = parts(message)
    for part in (text, html):
        assert "概览" in part and "条目" in part and "来源" in part
        assert "PostgreSQL 18 发布" in part
    assert 'lang="zh-hans"' in html


def test_email_is_off_by_default_and_the_inbox_brief_is_unchanged(alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released")
    run = run_and_send(subscribe(alice, now, email_enabled=False), now)
    assert run.delivered_count == 1
    assert not run.deliveries.exists()
    assert smtp_server.count == 0


def test_an_empty_brief_is_not_emailed(alice, now, smtp_server):
    run = run_and_send(subscribe(alice, now), now)
    assert run.status == "succeeded" and run.delivered_count == 0
    assert not run.deliveries.exists()
    assert smtp_server.count == 0


def test_it_sends_to_email_to_when_given(alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released")
    run_and_send(subscribe(alice, now, email_to="Alice.Reading@Example.com"), now)
    assert smtp_server.recipients == [["alice.reading@example.com"]]


def test_a_failed_email_never_fails_or_hides_the_inbox_brief(alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released")
    smtp_server.refuse_next("451 4.3.0 Mailbox temporarily unavailable")
    run = run_and_send(subscribe(alice, now), now)
    run.refresh_from_db()
    assert run.status == "succeeded"
    assert list(run.items.values_list("title", flat=True)) == ["PostgreSQL 18 released"]
    assert run.deliveries.get().status == Delivery.Status.FAILED


def test_no_smtp_server_at_all_is_a_transient_failure(alice, now, settings):
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", port, 2
    add_items(now, "PostgreSQL 18 released")
    run = run_and_send(subscribe(alice, now), now)
    delivery = run.deliveries.get()
    assert delivery.status == Delivery.Status.FAILED
    assert delivery.next_attempt_at == now + timedelta(minutes=1)
    assert "Could not reach the mail server" in delivery.last_error


def test_a_4xx_is_retried_with_backoff_by_the_tick_and_sent_once(alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released")
    smtp_server.refuse_next("451 4.3.0 Try again later", times=2)
    run = run_and_send(subscribe(alice, now), now)
    delivery = run.deliveries.get()
    assert (delivery.status, delivery.response_code) == ("failed", 451)
    assert "451 4.3.0 Try again later" in delivery.last_error
    assert delivery.next_attempt_at == now + timedelta(minutes=1)

    def send(pk, at):
        return deliveries.send_delivery(pk, now=at)

    # Not due yet: the tick leaves it alone.
    later = now + timedelta(seconds=30)
    result = tick(
        now=later, run_source=print, run_run=print, run_delivery=lambda pk: send(pk, later)
    )
    assert result.deliveries == []
    # Due: sent again, refused again, the wait grows.
    later = now + timedelta(minutes=1)
    tick(now=later, run_source=print, run_run=print, run_delivery=lambda pk: send(pk, later))
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("failed", 2)
    assert delivery.next_attempt_at == later + timedelta(minutes=5)
    later += timedelta(minutes=5)
    tick(now=later, run_source=print, run_run=print, run_delivery=lambda pk: send(pk, later))
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("sent", 3)
    assert smtp_server.count == 1
    # Nothing left to do, ever.
    later += timedelta(days=1)
    result = tick(
        now=later, run_source=print, run_run=print, run_delivery=lambda pk: send(pk, later)
    )
    assert result.deliveries == []
    assert smtp_server.count == 1


def test_it_gives_up_after_the_last_attempt(alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released")
    smtp_server.refuse_next("421 4.7.0 Too busy", times=deliveries.MAX_ATTEMPTS)
    delivery = run_and_send(subscribe(alice, now), now).deliveries.get()
    at = now
    while delivery.next_attempt_at is not None:
        at = delivery.next_attempt_at
        delivery = deliveries.send_delivery(delivery.pk, now=at)
    assert delivery.attempts == deliveries.MAX_ATTEMPTS
    assert delivery.gave_up
    assert smtp_server.count == 0
    # Transient refusals do not mark the subscription: only a permanent one does.
    assert Subscription.objects.get(pk=delivery.subscription_id).email_error == ""


@pytest.mark.parametrize(
    "refuse",
    [
        lambda server: server.refuse_next_recipient("550 5.1.1 No such user here"),
        lambda server: server.refuse_next("554 5.7.1 Message rejected as spam"),
    ],
    ids=["recipient", "message"],
)
def test_a_5xx_is_permanent_and_shown_on_the_subscription(alice, now, smtp_server, refuse, client):
    add_items(now, "PostgreSQL 18 released")
    refuse(smtp_server)
    subscription = subscribe(alice, now)
    delivery = run_and_send(subscription, now).deliveries.get()
    assert delivery.gave_up and delivery.attempts == 1
    assert delivery.response_code in (550, 554)
    subscription.refresh_from_db()
    assert subscription.email_error.startswith("The mail server refused the")
    assert subscription.email_error_at == now
    # The tick never tries it again.
    later = now + timedelta(days=2)
    assert deliveries.due_ids(now=later) == []
    client.force_login(alice)
    page = client.get(f"/subscriptions/{subscription.pk}/").content.decode()
    assert ("it is not retried" in page and "5.1.1 No such user here" in page) or "spam" in page
    # A message that goes through clears it.
    add_items(now, "PostgreSQL 19 planned")
    run_and_send(subscription, now + timedelta(hours=1))
    subscription.refresh_from_db()
    assert subscription.email_error == "" and smtp_server.count == 1


def test_a_retry_by_hand_resends_a_failed_delivery_under_the_same_message_id(
    alice, now, smtp_server
):
    add_items(now, "PostgreSQL 18 released")
    smtp_server.refuse_next("554 5.7.1 Rejected")
    delivery = run_and_send(subscribe(alice, now), now).deliveries.get()
    assert delivery.gave_up
    deliveries.retry_delivery(delivery, now=now)
    delivery = deliveries.send_delivery(delivery.pk, now=now + timedelta(minutes=1))
    assert delivery.status == "sent"
    assert smtp_server.message_ids() == [f"<{delivery.message_id}@127.0.0.1>"]
    with pytest.raises(deliveries.DeliveryStateError, match="would send it twice"):
        deliveries.retry_delivery(delivery, now=now)
    assert deliveries.send_delivery(delivery.pk, now=now + timedelta(hours=1)).status == "sent"
    assert smtp_server.count == 1


def test_sending_a_sent_delivery_again_does_nothing(alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released")
    delivery = run_and_send(subscribe(alice, now), now).deliveries.get()
    for _ in range(3):
        deliveries.send_delivery(delivery.pk, now=now)
    deliveries.hand_out_run(delivery.run_id, lambda pk: deliveries.send_delivery(pk, now=now))
    assert smtp_server.count == 1


def test_turning_email_off_stops_a_planned_or_retrying_delivery(alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released")
    subscription = subscribe(alice, now)
    delivery = run_only(subscription, now).deliveries.get()
    update_subscription(subscription, {"email_enabled": False}, now=now)
    delivery = deliveries.send_delivery(delivery.pk, now=now)
    assert delivery.gave_up
    assert "turned off" in delivery.last_error
    assert smtp_server.count == 0


def test_a_worker_that_died_mid_send_is_taken_over_after_its_lease(alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released")
    delivery = run_only(subscribe(alice, now), now).deliveries.get()
    assert deliveries.claim(delivery.pk, now=now)  # ...and the worker is killed here
    assert deliveries.due_ids(now=now + timedelta(seconds=30)) == []  # lease still running
    later = now + leases.lease_duration() + timedelta(seconds=1)
    assert deliveries.due_ids(now=later) == [delivery.pk]
    delivery = deliveries.send_delivery(delivery.pk, now=later)
    assert (delivery.status, delivery.attempts) == ("sent", 2)
    assert smtp_server.count == 1


def test_a_late_worker_cannot_overwrite_the_attempt_that_took_over(alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released")
    delivery = run_only(subscribe(alice, now), now).deliveries.get()
    assert deliveries.claim(delivery.pk, now=now)
    stale = Delivery.objects.get(pk=delivery.pk)  # attempt 1, whose lease runs out
    later = now + leases.lease_duration() + timedelta(seconds=1)
    deliveries.due_ids(now=later)
    assert deliveries.send_delivery(delivery.pk, now=later).status == "sent"
    from digests.delivery.base import TransportError

    deliveries._record(stale, now=later, error=TransportError("late failure"))
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_error) == ("sent", 2, "")


def test_the_tick_hands_out_a_pending_delivery_whose_task_was_lost(alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released")
    delivery = run_only(subscribe(alice, now), now).deliveries.get()
    assert deliveries.due_ids(now=now + timedelta(seconds=30)) == []  # its task may be queued
    later = now + leases.lease_duration() + timedelta(seconds=1)
    assert deliveries.due_ids(now=later) == [delivery.pk]
    assert deliveries.due_ids(now=later) == []  # handed out once per lease period
    again = later + leases.lease_duration() + timedelta(seconds=1)
    assert deliveries.due_ids(now=again) == [delivery.pk]
    assert deliveries.send_delivery(delivery.pk, now=later).status == "sent"
    assert deliveries.send_delivery(delivery.pk, now=later).status == "sent"  # the repeat task
    assert smtp_server.count == 1


def _race(target, count: int) -> list[BaseException]:
    errors: list[BaseException] = []
    barrier = threading.Barrier(count)

    def body():
        try:
            barrier.wait()
            target()
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=body) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return errors


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_racing_for_one_delivery_send_one_message(now, smtp_server):
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is tested on PostgreSQL")
    from tests.conftest import make_user

    alice = make_user("alice@example.com")
    add_items(now, "PostgreSQL 18 released")
    smtp_server.delay_seconds = 0.2  # a send long enough for the others to arrive mid-send
    delivery = run_only(subscribe(alice, now), now).deliveries.get()
    errors = _race(lambda: deliveries.send_delivery(delivery.pk, now=now), 4)
    assert errors == []
    assert smtp_server.count == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("sent", 1)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_ticks_racing_hand_out_a_due_retry_once(now, smtp_server):
    if connection.vendor != "postgresql":
        pytest.skip("concurrency is tested on PostgreSQL")
    from tests.conftest import make_user

    alice = make_user("alice@example.com")
    add_items(now, "PostgreSQL 18 released")
    smtp_server.refuse_next("451 4.3.0 Try again later")
    delivery = run_and_send(subscribe(alice, now), now).deliveries.get()
    assert delivery.status == "failed"
    later = delivery.next_attempt_at
    handed_out: list[int] = []

    def one_tick():
        tick(now=later, run_source=print, run_run=print, run_delivery=handed_out.append)

    # No shared cache between the ticks: the conditional update of the lease decides.
    dummy = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    with override_settings(CACHES=dummy):
        errors = _race(one_tick, 2)
    assert errors == []
    assert handed_out == [delivery.pk]
    # A repeat of that task (at-least-once delivery) finds the row sent.
    assert deliveries.send_delivery(delivery.pk, now=later).status == "sent"
    assert deliveries.send_delivery(delivery.pk, now=later).status == "sent"
    assert smtp_server.count == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("sent", 2)


def test_planning_twice_for_one_run_keeps_one_delivery_per_channel(alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released")
    subscription = subscribe(alice, now)
    run = run_only(subscription, now)
    deliveries.plan_for_run(run, subscription, now=now)
    assert run.deliveries.count() == 1
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Delivery.objects.create(
            run=run,
            subscription=subscription,
            channel="email",
            recipient="alice@example.com",
            message_id="msg_other",
            created_at=now,
        )


def test_an_email_sent_after_a_language_switch_reads_in_the_new_language(alice, now, smtp_server):
    """What a program wrote (the headings, the reasons, the template overview) is written out
    when the email is sent: a reader who switched to Chinese after the run gets it in Chinese
    (digests.narrative.language)."""
    add_items(now, "PostgreSQL 18 released")
    run = run_only(subscribe(alice, now), now)
    UserPreference.objects.filter(user=alice).update(ui_locale="zh-hans")
    deliveries.hand_out_run(run.pk, lambda pk: deliveries.send_delivery(pk, now=now))
    text = parts(smtp_server.messages[0])[0]
    assert "概览" in text and "Overview" not in text
    assert "本期《" in text  # the template overview's phrases
    assert "为什么入选：" in text and "发布于" in text  # the reasons
    assert "published" not in text and "matches" not in text


def test_the_run_task_hands_its_deliveries_to_the_workers(alice, now, smtp_server, time_machine):
    """The worker's chain: digests.tasks.execute_run runs the brief, then enqueues one
    send_delivery task per planned delivery (django-q2 runs them inline in tests)."""
    from digests import tasks
    from digests.subscriptions.service import request_manual_run

    time_machine.move_to(now, tick=False)
    add_items(now, "PostgreSQL 18 released")
    run = request_manual_run(subscribe(alice, now), now=now)
    assert tasks.execute_run(run.pk) == "succeeded"
    assert smtp_server.count == 1
    assert tasks.send_delivery(run.deliveries.get().pk) == "sent"  # a redelivered task: no-op
    assert smtp_server.count == 1


def test_the_minutely_tick_task_hands_out_due_deliveries(alice, now, smtp_server, time_machine):
    from digests.tasks import dispatch_tick

    add_items(now, "PostgreSQL 18 released")
    smtp_server.refuse_next("451 4.3.0 Try again later")
    delivery = run_and_send(subscribe(alice, now), now).deliveries.get()
    time_machine.move_to(delivery.next_attempt_at, tick=False)
    assert dispatch_tick()["deliveries"] == 1
    delivery.refresh_from_db()
    assert delivery.status == "sent" and smtp_server.count == 1


def test_offline_the_brief_is_written_to_a_folder(alice, now, settings, tmp_path):
    """`make start` without SMTP: the file backend (EMAIL_FILE_PATH) keeps each message."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    add_items(now, "PostgreSQL 18 released")
    delivery = run_and_send(subscribe(alice, now), now).deliveries.get()
    assert delivery.status == "sent"
    [written] = list(tmp_path.iterdir())
    import email
    import email.policy

    message = email.message_from_string(written.read_text(), policy=email.policy.default)
    assert message["Subject"] == "Databases — your brief for 20 Nov 2026"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_an_smtp_timeout_is_transient_and_the_repeat_carries_the_same_message_id(
    alice, now, smtp_server, settings
):
    """A server that does not answer the end of DATA in time: the send is retried later. It
    may have kept the message after all — the repeat has the same Message-ID, so the
    receiving side can recognise it."""
    settings.EMAIL_TIMEOUT = 1
    smtp_server.delay_seconds = 2
    add_items(now, "PostgreSQL 18 released")
    delivery = run_and_send(subscribe(alice, now), now).deliveries.get()
    assert delivery.status == "failed" and not delivery.gave_up
    assert delivery.last_error == "The mail server did not answer in time."
    smtp_server.delay_seconds = 0
    delivery = deliveries.send_delivery(delivery.pk, now=delivery.next_attempt_at)
    assert delivery.status == "sent"
    import time

    deadline = time.monotonic() + 5
    while smtp_server.count < 2 and time.monotonic() < deadline:
        time.sleep(0.05)  # the slow first copy lands late
    assert set(smtp_server.message_ids()) == {f"<{delivery.message_id}@127.0.0.1>"}


def test_the_text_part_carries_no_markdown_syntax(alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released", "PostgreSQL tuning guide")
    run = run_and_send(subscribe(alice, now), now)
    text, _html = parts(smtp_server.messages[0])
    assert run.narrative_md.strip() and "**" in run.narrative_md  # the Inbox keeps Markdown
    assert "**" not in text and "](" not in text


def test_plain_text_of_a_narrative_keeps_words_links_and_escapes():
    from digests.narrative.markdown import plain

    written = "## Today\n\n- **Postgres** is *fast*: [notes](https://pg.example/a)\n2 \\* 3"
    assert plain(written) == "Today\n\n• Postgres is fast: notes (https://pg.example/a)\n2 * 3"
