"""The console's side of delivery: email and webhook settings on the subscription form, the
secret shown once, deliveries in run history with retry, the email preview, test events."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse
from django.utils.html import escape

from digests.models import Delivery, Subscription, WebhookEndpoint
from tests.digests.delivery_helpers import add_items, run_and_send, subscribe


@pytest.fixture
def console(client, alice):
    client.force_login(alice)
    return client


def edit_form(subscription, **changes) -> dict:
    form = {
        "name": subscription.name,
        "interests": ", ".join(subscription.interests),
        "schedule_preset": "daily",
        "schedule_time": "08:00",
        "timezone": subscription.timezone,
        "length": "standard",
    }
    form.update(changes)
    return form


def test_email_settings_are_saved_from_the_form(console, alice, now):
    subscription = subscribe(alice, now, email_enabled=False)
    url = reverse("digests:edit", args=[subscription.pk])
    page = console.get(url).content.decode()
    assert 'name="email_enabled"' in page and 'name="email_subject"' in page
    response = console.post(
        url,
        edit_form(
            subscription,
            email_enabled="on",
            email_to="alice.home@example.com",
            email_subject="{name}: {count} new",
        ),
    )
    assert response.status_code == 302
    subscription.refresh_from_db()
    assert subscription.email_enabled
    assert subscription.email_to == "alice.home@example.com"
    assert subscription.email_subject == "{name}: {count} new"
    detail = console.get(reverse("digests:detail", args=[subscription.pk])).content.decode()
    assert "on, to alice.home@example.com" in detail


def test_an_unknown_placeholder_is_refused_on_its_field_and_nothing_is_saved(console, alice, now):
    subscription = subscribe(alice, now, email_enabled=False)
    response = console.post(
        reverse("digests:edit", args=[subscription.pk]),
        edit_form(subscription, name="Renamed", email_enabled="on", email_subject="{nme}"),
    )
    assert response.status_code == 200
    assert "Unknown placeholder {nme}" in response.content.decode()
    assert response.context["form"].errors["email_subject"]
    subscription.refresh_from_db()
    assert (subscription.name, subscription.email_enabled) == ("Databases", False)


def test_a_new_webhook_shows_its_secret_once(console, alice, now):
    subscription = subscribe(alice, now)
    response = console.post(
        reverse("digests:edit", args=[subscription.pk]),
        edit_form(subscription, webhook_url="https://hooks.example/in"),
        follow=True,
    )
    endpoint = WebhookEndpoint.objects.get(subscription=subscription)
    page = response.content.decode()
    assert "It will not be shown again" in page
    assert f'value="{endpoint.secret}"' in page
    again = console.get(reverse("digests:detail", args=[subscription.pk])).content.decode()
    assert endpoint.secret not in again
    assert html.escape(endpoint.secret_hint) in again or endpoint.secret_hint in again
    # The edit form shows the URL, and keeps it when saved unchanged.
    form = console.get(reverse("digests:edit", args=[subscription.pk])).content.decode()
    assert 'value="https://hooks.example/in"' in form


def test_rotating_shows_the_new_secret_once(console, alice, now):
    subscription = subscribe(alice, now, webhook_url="https://hooks.example/in")
    old = WebhookEndpoint.objects.get().secret
    page = console.post(
        reverse("digests:webhook_action", args=[subscription.pk, "rotate"]), follow=True
    ).content.decode()
    new = WebhookEndpoint.objects.get().secret
    assert new != old and f'value="{new}"' in page
    assert "keeps signing for 24 hours" in page


def test_the_send_test_event_button_reports_the_answer(console, alice, now, fixture_server):
    fixture_server.add("/hook", "ok")
    subscription = subscribe(alice, now, webhook_url=fixture_server.url("/hook"))
    page = console.post(
        reverse("digests:webhook_action", args=[subscription.pk, "test"]), follow=True
    ).content.decode()
    assert "Test event delivered: the endpoint answered 200." in page
    assert len(fixture_server.posts) == 1
    fixture_server.add("/hook", status=500)
    page = console.post(
        reverse("digests:webhook_action", args=[subscription.pk, "test"]), follow=True
    ).content.decode()
    assert "The test event failed: The server answered HTTP 500." in page


def test_run_history_shows_each_delivery_and_retries_a_failed_one(console, alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released")
    smtp_server.refuse_next("554 5.7.1 Rejected")
    subscription = subscribe(alice, now)
    run = run_and_send(subscription, now)
    delivery = run.deliveries.get()
    detail = console.get(reverse("digests:detail", args=[subscription.pk])).content.decode()
    assert "Email: <span" in detail and "status-failed" in detail
    assert "554 5.7.1 Rejected" in detail
    retry = reverse("digests:delivery_retry", args=[subscription.pk, delivery.pk])
    assert retry in detail
    page = console.post(retry, follow=True).content.decode()
    assert "Sending it again." in page
    delivery.refresh_from_db()
    assert delivery.status == "sent" and smtp_server.count == 1
    refused = console.post(retry, follow=True).content.decode()
    assert "would send it twice" in refused
    assert smtp_server.count == 1


def test_nobody_else_can_retry_or_act_on_a_webhook(client, bob, alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released")
    smtp_server.refuse_next("554 5.7.1 Rejected")
    subscription = subscribe(alice, now, webhook_url="https://hooks.example/in")
    delivery = run_and_send(subscription, now).deliveries.get(channel="email")
    client.force_login(bob)
    retry = reverse("digests:delivery_retry", args=[subscription.pk, delivery.pk])
    assert client.post(retry).status_code == 404
    rotate = reverse("digests:webhook_action", args=[subscription.pk, "rotate"])
    assert client.post(rotate).status_code == 404
    preview = reverse("digests:email_preview", args=[subscription.pk])
    assert client.get(preview).status_code == 404
    assert Delivery.objects.get(pk=delivery.pk).status == "failed"


def test_the_email_preview_shows_the_message_as_sent(console, alice, now, smtp_server):
    add_items(now, "PostgreSQL 18 released")
    subscription = subscribe(alice, now)
    run_and_send(subscription, now)
    sent = smtp_server.messages[0]
    response = console.get(reverse("digests:email_preview", args=[subscription.pk]))
    page = response.content.decode()
    assert f"<dd data-email-subject>{html.escape(str(sent['Subject']))}</dd>" in page
    assert '<iframe class="email-preview"' in page and 'sandbox=""' in page
    srcdoc = response.context["email"].html
    assert srcdoc == sent.get_body(("html",)).get_content().replace("\r\n", "\n")
    assert escape(srcdoc) in page  # inside srcdoc, escaped: the page runs none of it


def test_the_email_preview_without_a_brief_says_what_to_do(console, alice, now):
    subscription = subscribe(alice, now)
    page = console.get(reverse("digests:email_preview", args=[subscription.pk])).content.decode()
    assert "No brief with items yet" in page


def test_the_detail_page_costs_a_fixed_number_of_queries(
    console, alice, now, smtp_server, django_assert_max_num_queries
):
    subscription = subscribe(alice, now, webhook_url="https://hooks.example/in")
    for hour in range(5):
        add_items(now, f"PostgreSQL news {hour}")
        run_and_send(subscription, now)
    assert Delivery.objects.count() == 10
    url = reverse("digests:detail", args=[subscription.pk])
    console.get(url)
    with django_assert_max_num_queries(16):
        response = console.get(url)
    assert response.status_code == 200
    assert Subscription.objects.count() == 1


def test_the_email_preview_runs_no_markup_from_item_titles(console, alice, now, smtp_server):
    add_items(now, "PostgreSQL <script>alert(1)</script>")
    subscription = subscribe(alice, now)
    run_and_send(subscription, now)
    page = console.get(reverse("digests:email_preview", args=[subscription.pk])).content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # the plain-text part, escaped
