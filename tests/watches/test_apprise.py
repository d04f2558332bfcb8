"""Apprise targets: real Apprise plugins sending to loopback servers through the safe client."""

from __future__ import annotations

import json
import logging
from datetime import timedelta

import pytest

from digests.models import RunItem
from digests.textwatch import apprise, service
from digests.textwatch.models import AppriseSend, AppriseTarget

HOUR = timedelta(hours=1)


def page(price):
    return f"<html><body><p id='price'>Price {price}</p><p>Other</p></body></html>"


@pytest.fixture
def watch(fixture_server, alice, now):
    fixture_server.add("/shop", page("10"), Content_Type="text/html")
    return service.add_watch(
        alice, {"url": fixture_server.url("/shop"), "name": "Shop", "selector_kind": "css",
                "selector": "#price"}, now=now,
    )  # fmt: skip


def test_a_change_goes_to_a_json_and_an_ntfy_target(fixture_server, alice, now, watch, caplog):
    port = fixture_server.port
    fixture_server.add("/hook", "{}", Content_Type="application/json")
    fixture_server.add("/", "{}", Content_Type="application/json")  # ntfy posts to its root
    caplog.set_level(logging.DEBUG)
    hook = apprise.add_target(
        alice, url=f"json://hookuser:s3cret-pass@localhost:{port}/hook", label="Hook", now=now
    )
    ntfy = apprise.add_target(alice, url=f"ntfy://localhost:{port}/prices", now=now)
    assert hook.hint == f"json://localhost:{port}/…" and "s3cret" not in hook.url_encrypted
    apprise.set_routes(alice, watch.notifier, [hook.pk, ntfy.pk])

    fixture_server.add("/shop", page("8"), Content_Type="text/html")
    assert service.check_watch(watch, now=now + HOUR).notified
    sent = apprise.send_due(now=now + HOUR)
    assert [row.status for row in sent] == ["sent", "sent"]

    posts = {path: body for path, _headers, body in fixture_server.posts}
    to_hook = json.loads(posts["/hook"])
    assert to_hook["title"] == "Changed: Shop"
    assert "− Price 10\n+ Price 8" in to_hook["message"]
    to_ntfy = json.loads(posts["/"])
    assert to_ntfy["topic"] == "prices" and "+ Price 8" in to_ntfy["message"]
    # The secret never reached a log line.
    assert "s3cret" not in caplog.text
    # Sent once: the next tick sends nothing.
    assert apprise.send_due(now=now + 2 * HOUR) == []
    assert len(fixture_server.posts) == 2


def test_a_failing_target_is_retried_until_it_answers(fixture_server, alice, now, watch):
    fixture_server.add("/hook", "busy", status=503)
    target = apprise.add_target(alice, url=f"json://localhost:{fixture_server.port}/hook", now=now)
    apprise.set_routes(alice, watch.notifier, [target.pk])
    fixture_server.add("/shop", page("9"), Content_Type="text/html")
    service.check_watch(watch, now=now + HOUR)
    [row] = apprise.send_due(now=now + HOUR)
    assert row.status == "pending" and row.attempts == 1 and "503" in row.last_error
    assert apprise.send_due(now=now + HOUR) == []  # backed off
    fixture_server.add("/hook", "{}")
    [row] = apprise.send_due(now=now + 2 * HOUR)
    assert row.status == "sent" and row.attempts == 2


def test_a_target_that_keeps_failing_is_given_up_after_the_last_attempt(
    fixture_server, alice, now, watch
):
    fixture_server.add("/hook", "gone", status=410)
    target = apprise.add_target(alice, url=f"json://localhost:{fixture_server.port}/hook", now=now)
    apprise.set_routes(alice, watch.notifier, [target.pk])
    fixture_server.add("/shop", page("7"), Content_Type="text/html")
    service.check_watch(watch, now=now + HOUR)
    at = now + HOUR
    for _attempt in range(apprise.MAX_ATTEMPTS):
        apprise.send_due(now=at)
        at += timedelta(days=1)
    row = AppriseSend.objects.get()
    assert (row.status, row.attempts) == ("failed", apprise.MAX_ATTEMPTS)
    assert "410" in row.last_error
    assert apprise.send_due(now=at + timedelta(days=30)) == []
    assert len(fixture_server.posts) == apprise.MAX_ATTEMPTS


def test_private_addresses_are_refused_when_added_and_when_sent(fixture_server, alice, now, watch):
    for url in ("json://127.0.0.1:8080/hook", "ntfy://10.0.0.5/topic", "gotify://192.168.1.2/t"):
        with pytest.raises(apprise.AppriseError) as refused:
            apprise.add_target(alice, url=url, now=now)
        assert "url" in refused.value.errors
    # A URL that slipped past (say, a DNS answer that changed): the send is refused too.
    target = AppriseTarget.objects.create(
        owner=alice, label="x", url_encrypted=apprise._fernet().encrypt(
            f"json://127.0.0.1:{fixture_server.port}/hook".encode()).decode(),
        service="json", hint="json://…", created_at=now,
    )  # fmt: skip
    error = apprise.send_test(target)
    assert error and fixture_server.posts == []
    assert not AppriseTarget.objects.filter(owner=alice).exclude(pk=target.pk).exists()


@pytest.mark.parametrize(
    "url", ["mailto://user:pw@example.com", "nonsense://x", "", "tgram://", "json://"]
)
def test_unsupported_or_unreadable_urls_are_refused(alice, now, url):
    with pytest.raises(apprise.AppriseError):
        apprise.add_target(alice, url=url, now=now)
    assert not AppriseTarget.objects.exists()


def test_outside_apprise_requests_is_untouched():
    assert apprise._switch.get() is None
    assert RunItem.objects.model is RunItem  # (import kept: the module is loaded)
    assert AppriseSend.Status.SENT == "sent"


def test_api_add_test_route_and_never_show_the_url(fixture_server, api, alice, watch):
    fixture_server.add("/hook", "{}", Content_Type="application/json")
    url = f"json://me:tok-123456@localhost:{fixture_server.port}/hook"
    created = api.post("/api/v1/apprise-targets", {"url": url, "label": "Hook"}, format="json")
    assert created.status_code == 201, created.content
    assert "tok-123456" not in created.content.decode()
    target_id = created.json()["id"]
    listed = api.get("/api/v1/apprise-targets")
    assert "tok-123456" not in listed.content.decode()
    assert api.post(f"/api/v1/apprise-targets/{target_id}/test").json() == {
        "sent": True,
        "error": "",
    }
    assert json.loads(fixture_server.posts[-1][2])["title"] == "Tidings test"

    routed = api.put(
        f"/api/v1/subscriptions/{watch.notifier_id}/apprise-targets",
        {"targets": [target_id]},
        format="json",
    )
    assert routed.json() == {"targets": [target_id]}
    bad = api.post("/api/v1/apprise-targets", {"url": "json://127.0.0.1/x"}, format="json")
    assert bad.status_code == 422 and "url" in str(bad.json())  # refused_by_policy
    wrong = api.put(
        f"/api/v1/subscriptions/{watch.notifier_id}/apprise-targets",
        {"targets": [999]},
        format="json",
    )
    assert wrong.status_code == 404 and "apprise_targets" in str(wrong.json())


def test_the_subscription_edit_form_routes_briefs_to_chosen_targets(
    fixture_server, client, alice, bob, now
):
    from django.urls import reverse

    from digests.textwatch.models import AppriseRoute
    from tests.digests.test_subscription_pages import edit, subscribe

    client.force_login(alice)
    subscription = subscribe(alice, now)
    page = client.get(reverse("digests:edit", args=[subscription.pk])).content.decode()
    assert "apprise_targets" not in page  # no targets: nothing to choose from

    port = fixture_server.port
    hook = apprise.add_target(alice, url=f"json://localhost:{port}/hook", label="Hook", now=now)
    ntfy = apprise.add_target(alice, url=f"ntfy://localhost:{port}/news", label="Phone", now=now)
    theirs = apprise.add_target(bob, url=f"json://localhost:{port}/bob", label="Bob", now=now)
    page = client.get(reverse("digests:edit", args=[subscription.pk])).content.decode()
    assert "Hook" in page and "Phone" in page and "Bob" not in page

    saved = edit(client, subscription, apprise_targets=[str(hook.pk), str(ntfy.pk)])
    assert saved.status_code == 302
    routed = set(
        AppriseRoute.objects.filter(subscription=subscription).values_list("target_id", flat=True)
    )
    assert routed == {hook.pk, ntfy.pk}
    detail = client.get(reverse("digests:detail", args=[subscription.pk])).content.decode()
    assert "Hook" in detail and "Phone" in detail
    form = client.get(reverse("digests:edit", args=[subscription.pk])).context["form"]
    assert sorted(form.initial["apprise_targets"]) == sorted([str(hook.pk), str(ntfy.pk)])

    # Someone else's target is refused next to the field, and nothing changes.
    refused = edit(client, subscription, name="Renamed", apprise_targets=[str(theirs.pk)])
    assert refused.status_code == 200
    assert 'id="field-apprise_targets"' in refused.content.decode()
    assert refused.context["form"].errors["apprise_targets"]
    subscription.refresh_from_db()
    assert subscription.name == "Databases"

    # Unticking all stops the routing; a refused settings change keeps the routes as they were.
    edit(client, subscription, apprise_targets=[str(hook.pk)])
    failed = edit(client, subscription, schedule_preset="advanced", cron="61 * * * *",
                  apprise_targets=[])  # fmt: skip
    assert failed.status_code == 200
    assert set(AppriseRoute.objects.values_list("target_id", flat=True)) == {hook.pk}
    edit(client, subscription)
    assert not AppriseRoute.objects.exists()


def test_a_change_is_sent_right_away_and_the_tick_only_retries(
    fixture_server, alice, now, watch, apprise_right_away
):
    fixture_server.add("/hook", "{}", Content_Type="application/json")
    fixture_server.add("/flaky", "busy", status=503)
    port = fixture_server.port
    hook = apprise.add_target(alice, url=f"json://localhost:{port}/hook", label="Hook", now=now)
    flaky = apprise.add_target(alice, url=f"json://localhost:{port}/flaky", label="Flaky", now=now)
    apprise.set_routes(alice, watch.notifier, [hook.pk, flaky.pk])

    fixture_server.add("/shop", page("8"), Content_Type="text/html")
    assert service.check_watch(watch, now=now + HOUR).notified
    # Sent by the run's own task, before any tick: the hook has it, the flaky one was tried.
    assert [path for path, _h, _b in fixture_server.posts] == ["/hook", "/flaky"]
    rows = {row.target_id: row for row in AppriseSend.objects.all()}
    assert rows[hook.pk].status == "sent" and rows[hook.pk].attempts == 1
    assert rows[flaky.pk].status == "pending" and rows[flaky.pk].attempts == 1
    # The task again (delivered twice) sends nothing: what failed is the tick's to retry.
    assert apprise.send_run(rows[hook.pk].run_id, now=now + HOUR) == []
    fixture_server.add("/flaky", "{}")
    [retried] = apprise.send_due(now=rows[flaky.pk].next_attempt_at)
    assert retried.target_id == flaky.pk and retried.status == "sent"
    assert len(fixture_server.posts) == 3


def test_a_brief_goes_to_its_targets_as_soon_as_its_run_commits(
    fixture_server, alice, apprise_right_away
):
    from django.utils import timezone

    from digests import tasks
    from digests.subscriptions.service import request_manual_run
    from tests.digests.delivery_helpers import add_items, subscribe

    at = timezone.now()  # the task runs the brief on the worker's clock
    fixture_server.add("/hook", "{}", Content_Type="application/json")
    target = apprise.add_target(
        alice, url=f"json://localhost:{fixture_server.port}/hook", label="Hook", now=at
    )
    subscription = subscribe(alice, at, email_enabled=False)
    apprise.set_routes(alice, subscription, [target.pk])
    add_items(at - timedelta(hours=1), "PostgreSQL 18 released")
    run = request_manual_run(subscription, now=at)
    assert tasks.execute_run(run.pk) == "succeeded"
    # No tick has run: the run's task sent it.
    [(path, _headers, body)] = fixture_server.posts
    assert path == "/hook" and json.loads(body)["title"] == "PostgreSQL 18 released"
    assert AppriseSend.objects.get().status == "sent"
