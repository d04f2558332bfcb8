"""Web Push (digests/delivery/push.py, inbox/push_devices.py) against a push service on loopback.

The fake push service is the shared fixture server: it records every POST and answers with the
status of the route. Each test browser has its own P-256 key pair and auth secret, as a real
browser's PushSubscription does, so the test decrypts what was sent with http_ece — proving the
notification's content, not only that something was posted — and checks the VAPID signature
with the server's public key.
"""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass
from datetime import timedelta

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.test import override_settings
from py_vapid import Vapid02

from digests.delivery import service as deliveries
from digests.models import Delivery, PushSend, Run
from digests.runs import runner
from digests.schedules.scheduler import claim_due_subscriptions
from digests.watches.notifiers import notifier_for, set_watch_notifications
from inbox.models import PushDevice
from ingest.models import Source
from ingest.refresh.pipeline import refresh_source
from tests.digests.test_watch_notifications import HOUR, delivered_urls, run_tick, serve, watch


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _vapid_pair() -> tuple[str, str]:
    key = Vapid02()
    key.generate_keys()
    private = key.private_key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64(private), b64(public)


VAPID_PRIVATE, VAPID_PUBLIC = _vapid_pair()
SUBJECT = "mailto:ops@tidings.test"


@dataclass
class Browser:
    """What a browser keeps for one push subscription: its key pair and auth secret."""

    private_key: ec.EllipticCurvePrivateKey
    auth: bytes

    @classmethod
    def new(cls) -> Browser:
        return cls(ec.generate_private_key(ec.SECP256R1()), os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64(
            self.private_key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    def read(self, body: bytes) -> dict:
        plain = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


@pytest.fixture
def vapid():
    with override_settings(
        TIDINGS_VAPID_PUBLIC_KEY=VAPID_PUBLIC,
        TIDINGS_VAPID_PRIVATE_KEY=VAPID_PRIVATE,
        TIDINGS_VAPID_SUBJECT=SUBJECT,
    ):
        yield


def device_for(user, fixture_server, path, browser: Browser, now, status=201) -> PushDevice:
    from inbox.push_devices import register_device

    endpoint = fixture_server.add(path, b"", status=status)
    device, _created = register_device(
        user, endpoint=endpoint, p256dh=browser.p256dh, auth=b64(browser.auth), now=now
    )
    return device


def pushes(fixture_server, path=None):
    return [post for post in fixture_server.posts if path is None or post[0] == path]


def a_change(fixture_server, source, at):
    serve(fixture_server, "a", "b")
    refresh_source(Source.objects.get(pk=source.pk), now=at)
    return run_tick(at + timedelta(minutes=1))


# --- sending ------------------------------------------------------------------------------------


def test_a_change_is_pushed_encrypted_signed_and_once(fixture_server, alice, now, vapid):
    browser = Browser.new()
    device = device_for(alice, fixture_server, "/push/phone", browser, now)
    source = watch(fixture_server, alice, now, "a", notify=["inbox", "push"]).user_source.source

    result = a_change(fixture_server, source, now + HOUR)
    [run_id] = result.runs
    [(path, headers, body)] = pushes(fixture_server)
    assert path == "/push/phone"
    assert headers["Content-Encoding"] == "aes128gcm"
    assert headers["Content-Type"] == "application/octet-stream"
    assert int(headers["TTL"]) > 0
    token, _sep, key = headers["Authorization"].removeprefix("vapid t=").partition(",k=")
    assert key == VAPID_PUBLIC
    assert Vapid02.verify(headers["Authorization"])  # signed with the matching private key
    claims = json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))
    assert claims["sub"] == SUBJECT and claims["aud"] == f"http://localhost:{fixture_server.port}"

    shown = browser.read(body)
    assert shown["title"] == "Watch: Blog"
    assert shown["body"] == "1 new: Post b about databases"
    assert shown["url"].endswith(f"/inbox/runs/{run_id}/")
    assert body.count(b"Post b") == 0  # the push service sees ciphertext only

    delivery = Delivery.objects.get(run_id=run_id, channel="push")
    assert delivery.status == "sent"
    assert PushSend.objects.get(delivery=delivery).device_id == device.pk
    # The delivery sent again, the run executed again, the tick again: no second push.
    deliveries.send_delivery(delivery.pk, now=now + 2 * HOUR)
    run_tick(now + 2 * HOUR)
    assert len(pushes(fixture_server)) == 1
    assert delivered_urls(alice) == [fixture_server.url("/blog/b")]


def test_a_retry_after_a_partial_failure_pushes_only_to_the_devices_missing(
    fixture_server, alice, now, vapid
):
    phone, laptop = Browser.new(), Browser.new()
    device_for(alice, fixture_server, "/push/phone", phone, now)
    device_for(alice, fixture_server, "/push/laptop", laptop, now, status=503)
    source = watch(fixture_server, alice, now, "a", notify=["inbox", "push"]).user_source.source
    [run_id] = a_change(fixture_server, source, now + HOUR).runs
    delivery = Delivery.objects.get(run_id=run_id, channel="push")
    assert delivery.status == "failed" and delivery.next_attempt_at is not None
    assert delivery.response_code == 503

    fixture_server.add("/push/laptop", b"", status=201)  # the push service is back
    deliveries.send_delivery(delivery.pk, now=delivery.next_attempt_at)
    assert Delivery.objects.get(pk=delivery.pk).status == "sent"
    assert len(pushes(fixture_server, "/push/phone")) == 1  # not pushed twice
    assert len(pushes(fixture_server, "/push/laptop")) == 2
    last_body = pushes(fixture_server, "/push/laptop")[-1][2]
    assert laptop.read(last_body)["body"] == "1 new: Post b about databases"


@pytest.mark.parametrize("gone", [404, 410])
def test_a_push_service_saying_gone_removes_the_device(fixture_server, alice, now, vapid, gone):
    device_for(alice, fixture_server, "/push/old", Browser.new(), now, status=gone)
    kept = device_for(alice, fixture_server, "/push/new", Browser.new(), now)
    source = watch(fixture_server, alice, now, "a", notify=["inbox", "push"]).user_source.source
    [run_id] = a_change(fixture_server, source, now + HOUR).runs

    assert list(PushDevice.objects.filter(user=alice)) == [kept]
    assert Delivery.objects.get(run_id=run_id, channel="push").status == "sent"


def test_when_every_device_is_gone_the_delivery_gives_up(fixture_server, alice, now, vapid):
    device_for(alice, fixture_server, "/push/old", Browser.new(), now, status=410)
    source = watch(fixture_server, alice, now, "a", notify=["inbox", "push"]).user_source.source
    [run_id] = a_change(fixture_server, source, now + HOUR).runs
    delivery = Delivery.objects.get(run_id=run_id, channel="push")
    assert delivery.gave_up and "404 or 410" in delivery.last_error
    assert not PushDevice.objects.exists()
    # The Inbox still has the change.
    assert delivered_urls(alice) == [fixture_server.url("/blog/b")]


def test_no_push_row_without_a_device_or_with_push_turned_off(fixture_server, alice, now, vapid):
    source = watch(fixture_server, alice, now, "a", notify=["inbox", "push"]).user_source.source
    [run_id] = a_change(fixture_server, source, now + HOUR).runs
    assert not Delivery.objects.filter(run_id=run_id).exists()  # no device registered

    device_for(alice, fixture_server, "/push/phone", Browser.new(), now)
    set_watch_notifications(alice, source, now=now, channels=["inbox"])
    serve(fixture_server, "a", "b", "c")
    refresh_source(Source.objects.get(pk=source.pk), now=now + 3 * HOUR)
    run_tick(now + 3 * HOUR + timedelta(minutes=1))
    assert Run.objects.filter(user=alice).count() == 2
    assert not Delivery.objects.filter(channel="push").exists()
    assert pushes(fixture_server) == []


def test_push_turned_off_before_the_send_is_not_sent(fixture_server, alice, now, vapid):
    device_for(alice, fixture_server, "/push/phone", Browser.new(), now)
    source = watch(fixture_server, alice, now, "a", notify=["inbox", "push"]).user_source.source
    serve(fixture_server, "a", "b")
    refresh_source(Source.objects.get(pk=source.pk), now=now + HOUR)
    [claimed] = claim_due_subscriptions(now=now + HOUR)
    run = runner.execute_run(claimed.pk, now=now + HOUR)  # planned, not sent yet
    set_watch_notifications(alice, source, now=now + HOUR, channels=["inbox"])
    delivery = Delivery.objects.get(run=run, channel="push")
    delivery = deliveries.send_delivery(delivery.pk, now=now + HOUR)
    assert delivery.gave_up and "turned off" in delivery.last_error
    assert pushes(fixture_server) == []
    assert notifier_for(alice, source).push_enabled is False


# --- devices: console, API, service worker ------------------------------------------------------


def test_without_vapid_keys_push_is_off_and_says_so(client, api, alice, now):
    client.force_login(alice)
    page = client.get("/inbox/preferences/").content.decode()
    assert "Push notifications are off on this server" in page
    assert "push-subscribe" not in page
    assert api.get("/api/v1/push/config").json() == {
        "enabled": False,
        "public_key": "",
        "service_worker": "/push-sw.js",
    }
    browser = Browser.new()
    answer = api.post(
        "/api/v1/push/devices",
        {
            "endpoint": "https://push.example.com/x",
            "keys": {"p256dh": browser.p256dh, "auth": b64(browser.auth)},
        },
        format="json",
    )
    assert answer.status_code == 422 and "endpoint" in answer.json()["error"]["fields"]
    assert not PushDevice.objects.exists()


def test_the_preferences_page_registers_lists_and_removes_devices(client, alice, bob, now, vapid):
    client.force_login(alice)
    page = client.get("/inbox/preferences/").content.decode()
    assert f'data-key="{VAPID_PUBLIC}"' in page and "push-subscribe" in page
    assert "No device receives push notifications yet." in page

    browser = Browser.new()
    subscription = {
        "endpoint": "https://push.example.com/send/abc",
        "expirationTime": None,
        "keys": {"p256dh": browser.p256dh, "auth": b64(browser.auth)},
        "label": "Firefox on a laptop",
    }
    answer = client.post(
        "/inbox/preferences/push/devices/", json.dumps(subscription), "application/json"
    )
    assert answer.status_code == 201, answer.content
    again = client.post(
        "/inbox/preferences/push/devices/", json.dumps(subscription), "application/json"
    )
    assert again.status_code == 200 and PushDevice.objects.count() == 1
    assert "Firefox on a laptop" in client.get("/inbox/preferences/").content.decode()

    device = PushDevice.objects.get()
    client.force_login(bob)  # another user cannot remove it
    client.post(f"/inbox/preferences/push/devices/{device.pk}/remove/")
    assert PushDevice.objects.filter(pk=device.pk).exists()
    client.force_login(alice)
    client.post(f"/inbox/preferences/push/devices/{device.pk}/remove/")
    assert not PushDevice.objects.exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"endpoint": "http://push.example.com/x"}, "endpoint"),
        ({"endpoint": "https://127.0.0.1/x"}, "endpoint"),
        ({"endpoint": "ftp://push.example.com/x"}, "endpoint"),
        ({"keys": {"p256dh": "not-a-key", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "keys.p256dh"),
        ({"keys": {"p256dh": None, "auth": "x"}}, "keys.p256dh"),
        ({"keys": {"auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "keys.p256dh"),
        ({"surprise": 1}, "surprise"),
        ({"label": "x" * 101}, "label"),
    ],
)
def test_the_api_refuses_a_bad_device_naming_the_field(api, alice, now, vapid, change, field):
    browser = Browser.new()
    body = {
        "endpoint": "https://push.example.com/send/abc",
        "keys": {"p256dh": browser.p256dh, "auth": b64(browser.auth)},
        **change,
    }
    answer = api.post("/api/v1/push/devices", body, format="json")
    assert answer.status_code == 400, answer.json()
    assert field in answer.json()["error"]["fields"]
    assert not PushDevice.objects.exists()


def test_the_api_lists_and_deletes_only_your_devices(api, alice, bob, now, vapid):
    browser = Browser.new()
    body = {
        "endpoint": "https://push.example.com/send/abc",
        "keys": {"p256dh": browser.p256dh, "auth": b64(browser.auth)},
    }
    created = api.post("/api/v1/push/devices", body, format="json")
    assert created.status_code == 201
    device_id = created.json()["id"]
    assert [d["id"] for d in api.get("/api/v1/push/devices").json()["results"]] == [device_id]
    assert api.get("/api/v1/push/config").json()["public_key"] == VAPID_PUBLIC

    from tests.conftest import api_client_for

    other = api_client_for(bob)
    assert other.get("/api/v1/push/devices").json()["results"] == []
    assert other.delete(f"/api/v1/push/devices/{device_id}").status_code == 404
    assert api.delete(f"/api/v1/push/devices/{device_id}").status_code == 204
    assert api.delete(f"/api/v1/push/devices/{device_id}").status_code == 404


def test_the_service_worker_is_served_at_the_root(client):
    answer = client.get("/push-sw.js")
    assert answer.status_code == 200
    assert "javascript" in answer["Content-Type"]
    script = b"".join(answer.streaming_content if answer.streaming else [answer.content])
    assert b'addEventListener("push"' in script and b"showNotification" in script


def test_vapid_keys_prints_a_pair_the_push_channel_signs_with(fixture_server, settings):
    from io import StringIO

    from django.core.management import call_command

    from digests.delivery.push import vapid_headers

    out = StringIO()
    call_command("vapid_keys", stdout=out)
    pair = dict(line.split("=", 1) for line in out.getvalue().split())
    settings.TIDINGS_VAPID_PRIVATE_KEY = pair["TIDINGS_VAPID_PRIVATE_KEY"]
    settings.TIDINGS_VAPID_PUBLIC_KEY = pair["TIDINGS_VAPID_PUBLIC_KEY"]
    header = vapid_headers("https://push.example.com/send/x")["Authorization"]
    assert header.endswith(",k=" + pair["TIDINGS_VAPID_PUBLIC_KEY"])
    assert Vapid02.verify(header)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_workers_push_each_change_once_per_device(fixture_server, alice, now, vapid):
    from django.db import connection

    from tests.threads import at_once

    if connection.vendor != "postgresql":
        pytest.skip("concurrent claims are tested on PostgreSQL")
    phone, laptop = Browser.new(), Browser.new()
    device_for(alice, fixture_server, "/push/phone", phone, now)
    device_for(alice, fixture_server, "/push/laptop", laptop, now)
    source = watch(fixture_server, alice, now, "a", notify=["inbox", "push"]).user_source.source
    serve(fixture_server, "a", "b")
    refresh_source(Source.objects.get(pk=source.pk), now=now + HOUR)
    [claimed] = claim_due_subscriptions(now=now + HOUR)
    run = runner.execute_run(claimed.pk, now=now + HOUR)
    delivery = Delivery.objects.get(run=run, channel="push")

    at_once(lambda _n: deliveries.send_delivery(delivery.pk, now=now + HOUR), range(6))
    assert Delivery.objects.get(pk=delivery.pk).status == "sent"
    assert len(pushes(fixture_server, "/push/phone")) == 1
    assert len(pushes(fixture_server, "/push/laptop")) == 1


def test_at_most_twenty_devices_and_a_known_one_can_always_refresh(alice, now, vapid):
    from inbox.push_devices import MAX_DEVICES, PushDeviceError, register_device

    browser = Browser.new()
    keys = {"p256dh": browser.p256dh, "auth": b64(browser.auth)}
    for n in range(MAX_DEVICES):
        register_device(alice, endpoint=f"https://push.example.com/d/{n}", now=now, **keys)
    with pytest.raises(PushDeviceError) as refused:
        register_device(alice, endpoint="https://push.example.com/d/extra", now=now, **keys)
    assert list(refused.value.errors) == ["endpoint"]
    # The same browser subscribing again (new keys) is not one more device.
    _device, created = register_device(
        alice, endpoint="https://push.example.com/d/0", now=now, **keys
    )
    assert created is False and PushDevice.objects.filter(user=alice).count() == MAX_DEVICES


def test_an_endpoint_registered_by_another_account_moves_to_the_new_one(alice, bob, now, vapid):
    from inbox.push_devices import register_device

    browser = Browser.new()
    keys = {"p256dh": browser.p256dh, "auth": b64(browser.auth)}
    register_device(alice, endpoint="https://push.example.com/shared", now=now, **keys)
    register_device(bob, endpoint="https://push.example.com/shared", now=now, **keys)
    assert list(PushDevice.objects.values_list("user__email", flat=True)) == ["bob@example.com"]
