"""Newsletters by email: real SMTP over loopback against the mailin listener, the Mailgun
webhook, the API, and an issue reaching the next brief of a subscription that uses it."""

from __future__ import annotations

import hashlib
import hmac
import smtplib
import socket
from datetime import timedelta

import pytest
import time_machine
from django.core.cache import cache
from django.test import override_settings
from django.urls import reverse

from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from ingest.models import ContentItem, InboundMessage, NewsletterAddress
from ingest.newsletters.addresses import create_address, revoke
from ingest.newsletters.receiving import allow_sender, dkim_note, read_message
from ingest.newsletters.smtp import controller
from tests.conftest import api_client_for
from tests.ingest import newsletter_mail as mail

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]
SIGNING_KEY = "mailgun-test-signing-key"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Mailin:
    """`manage.py mailin`'s listener on an ephemeral loopback port; queued messages are read
    when the test says so (the worker's task, called directly)."""

    def __init__(self, now):
        self.now = now
        self.queued: list[int] = []
        self.port = free_port()
        self.listener = controller(
            host="127.0.0.1", port=self.port, enqueue=self.queued.append, clock=lambda: self.now
        )

    def send(self, to: str, raw: bytes, *, sender="bounce@news.example") -> None:
        with smtplib.SMTP("127.0.0.1", self.port, timeout=10) as client:
            client.sendmail(sender, [to], raw)

    def work(self):
        rows = [read_message(pk, now=self.now) for pk in self.queued]
        self.queued.clear()
        return rows


@pytest.fixture
def mailin(now):
    server = Mailin(now)
    server.listener.start()
    yield server
    server.listener.stop()


def items_of(address):
    return ContentItem.objects.filter(sources=address.source)


def test_ten_real_world_messages_become_the_right_items_once_each(alice, now, mailin):
    address = create_address(alice, now=now, label="Reading")
    to, date = address.address, now - timedelta(hours=2)
    messages = [
        mail.alternative(to, date),
        mail.html_only(to, date),
        mail.text_only(to, date),
        mail.latin1_quoted_printable(to, date),
        mail.shift_jis_base64(to, date),
        mail.confirmation(to, date),
        mail.roundup(to, date),
        mail.malformed(to, date),
        mail.with_attachment_and_inline_image(to, date),
        mail.without_message_id(to, date),
    ]
    for raw in messages + messages:  # every message delivered twice
        mailin.send(to, raw)
    assert len(mailin.queued) == 10
    mailin.work()

    items = {item.title: item for item in items_of(address)}
    assert set(items) == {
        "The Weekly Query: PostgreSQL 18 in production",
        "Rust Digest #12",
        "Plain text letter",
        "Crème brûlée et café",
        "週刊ニュース 第3号",
        "Five links for the weekend",
        "Broken but readable",
        "Report attached",
        "An issue with no Message-ID",
    }
    weekly = items["The Weekly Query: PostgreSQL 18 in production"]
    assert weekly.author == "Query Weekly"
    assert weekly.published_at == date.replace(microsecond=0)
    assert 'href="https://blog.example/pg18"' in weekly.content_html  # redirect unwrapped
    assert "open.queryweekly.example" not in weekly.content_html  # pixel gone
    assert weekly.license_tier == "restricted"
    assert "今週の記事" in items["週刊ニュース 第3号"].content_html
    assert "café du jour" in items["Crème brûlée et café"].content_html
    assert 'href="https://plain.example/essay"' in items["Plain text letter"].content_html
    report = items["Report attached"]
    assert "cid:" not in report.content_html and "PDF" not in report.content_html
    assert "Still here" in items["Broken but readable"].content_html
    assert items["Broken but readable"].published_at is None
    statuses = sorted(InboundMessage.objects.values_list("status", flat=True))
    assert statuses == ["accepted"] * 9 + ["confirmation"]
    assert not InboundMessage.objects.filter(status="accepted").exclude(raw=b"").exists()


def test_a_confirmation_is_shown_with_its_link_and_never_becomes_an_item(alice, now, mailin):
    address = create_address(alice, now=now)
    mailin.send(address.address, mail.confirmation(address.address, now))
    (row,) = mailin.work()
    assert row.status == "confirmation"
    assert row.confirm_url == "https://queryweekly.example/subscribe/confirm?t=abc123"
    assert not items_of(address).exists()


def test_a_roundup_address_makes_each_linked_article_an_item(alice, now, mailin):
    address = create_address(alice, now=now, split_roundups=True)
    mailin.send(address.address, mail.roundup(address.address, now))
    mailin.work()
    urls = set(items_of(address).values_list("canonical_url", flat=True))
    assert {url for url, _label in mail.ROUNDUP_LINKS} <= urls
    assert "https://roundup.example/unsubscribe" not in urls
    assert len(urls) == len(mail.ROUNDUP_LINKS) + 1  # and the issue itself


def test_unknown_and_revoked_recipients_are_refused_at_rcpt(alice, now, mailin):
    address = create_address(alice, now=now)
    with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
        mailin.send("n-nosuchaddress@inbound.localhost", mail.html_only("x", now))
    assert refused.value.recipients["n-nosuchaddress@inbound.localhost"][0] == 550
    revoke(address, now=now)
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        mailin.send(address.address, mail.html_only(address.address, now))
    assert not InboundMessage.objects.exists()


def test_a_message_over_the_size_cap_is_refused(alice, now):
    with override_settings(MAILIN_MAX_BYTES=50_000):
        server = Mailin(now)
        server.listener.start()
        try:
            address = create_address(alice, now=now)
            with pytest.raises(smtplib.SMTPException):
                server.send(address.address, mail.huge(address.address, now))
        finally:
            server.listener.stop()
    assert not InboundMessage.objects.exists()


def test_an_address_over_its_daily_limit_refuses_more(alice, now, mailin):
    address = create_address(alice, now=now)
    with override_settings(NEWSLETTER_DAILY_LIMIT=2):
        mailin.send(address.address, mail.html_only(address.address, now))
        mailin.send(address.address, mail.text_only(address.address, now))
        with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
            mailin.send(address.address, mail.roundup(address.address, now))
    assert refused.value.recipients[address.address][0] == 452


def test_mail_from_other_senders_is_held_until_the_reader_allows_them(alice, now, mailin):
    address = create_address(alice, now=now)
    address.allowed_senders = ["@queryweekly.example"]
    address.save()
    mailin.send(address.address, mail.alternative(address.address, now))
    mailin.send(address.address, mail.html_only(address.address, now))
    rows = {row.subject: row.status for row in mailin.work()}
    assert rows == {
        "The Weekly Query: PostgreSQL 18 in production": "accepted",
        "Rust Digest #12": "held",
    }
    assert items_of(address).count() == 1

    assert allow_sender(address, "digest@rust.example", now=now) == 1
    assert items_of(address).filter(title="Rust Digest #12").exists()


def test_nothing_reaches_another_readers_source(alice, bob, now, mailin):
    mine = create_address(alice, now=now)
    theirs = create_address(bob, now=now)
    raw = mail.alternative(mine.address, now)
    mailin.send(mine.address, raw)
    mailin.send(theirs.address, raw.replace(mine.address.encode(), theirs.address.encode()))
    mailin.work()
    assert items_of(mine).count() == items_of(theirs).count() == 1
    assert items_of(mine).get().pk != items_of(theirs).get().pk


def test_a_dkim_signature_is_noted_when_it_verifies():
    import base64

    import dkim
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    )
    public = key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    record = b"v=DKIM1; k=rsa; p=" + base64.b64encode(public)
    raw = b"From: a@signed.example\r\nSubject: hi\r\n\r\nbody\r\n"
    signed = dkim.sign(raw, b"s1", b"signed.example", private) + raw

    def dns(name, timeout=5):
        return record if name == b"s1._domainkey.signed.example." else None

    assert dkim_note(signed, dnsfunc=dns) == "DKIM: pass (signed.example)"
    assert dkim_note(signed.replace(b"body", b"b0dy"), dnsfunc=dns).startswith("DKIM: fail")
    assert dkim_note(raw) == ""


# --- the API and the webhook ----------------------------------------------------------------


def test_the_api_creates_lists_and_revokes_addresses(alice, bob):
    api = api_client_for(alice)
    response = api.post("/api/v1/newsletters/addresses", {"label": "Tech"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["address"].startswith("n-") and body["address"].endswith("@inbound.localhost")
    address = NewsletterAddress.objects.get(pk=body["id"])
    assert body["source_id"] == address.source_id
    assert alice.library.filter(source_id=address.source_id).exists()

    assert (
        api_client_for(bob).delete(f"/api/v1/newsletters/addresses/{body['id']}").status_code == 404
    )
    assert api.delete(f"/api/v1/newsletters/addresses/{body['id']}").status_code == 204
    assert api.get("/api/v1/newsletters/addresses").json()[0]["active"] is False


def test_the_api_refuses_bad_input_naming_the_field(alice):
    api = api_client_for(alice)
    response = api.post("/api/v1/newsletters/addresses", {"label": "x" * 201}, format="json")
    assert response.status_code == 400
    assert "label" in response.json()["error"]["fields"]
    response = api.post("/api/v1/newsletters/addresses", {"subscription_id": 999999}, format="json")
    assert response.status_code == 404
    assert "subscription_id" in response.json()["error"]["fields"]
    assert not NewsletterAddress.objects.exists()


def _mailgun_post(client, address, raw, *, now, key=SIGNING_KEY, token="tok-1"):
    timestamp = str(int(now.timestamp()))
    signature = hmac.new(key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    return client.post(
        "/api/v1/public/newsletters/inbound/mailgun",
        {
            "recipient": address,
            "timestamp": timestamp,
            "token": token,
            "signature": signature,
            "body-mime": raw.decode("utf-8", "surrogateescape"),
        },
    )


@override_settings(MAILGUN_SIGNING_KEY=SIGNING_KEY)
def test_the_mailgun_webhook_takes_signed_mail_and_refuses_bad_signatures(client, alice, now):
    cache.clear()
    address = create_address(alice, now=now)
    raw = mail.html_only(address.address, now)
    with time_machine.travel(now, tick=False):
        forged = _mailgun_post(client, address.address, raw, now=now, key="wrong-key")
        assert forged.status_code == 403
        assert "signature" in forged.json()["error"]["message"]
        assert not InboundMessage.objects.exists()

        taken = _mailgun_post(client, address.address, raw, now=now)
        assert taken.status_code == 200
        replayed = _mailgun_post(client, address.address, raw, now=now)
        assert replayed.status_code == 403
        unknown = _mailgun_post(client, "n-unknown@inbound.localhost", raw, now=now, token="t2")
        assert unknown.status_code == 406
    assert items_of(address).get().title == "Rust Digest #12"  # the worker ran inline


def test_an_issue_reaches_the_next_brief_of_a_subscription_using_its_address(alice, now, mailin):
    subscription = create_subscription(
        alice,
        {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *", "source_ids": []},
        now=now,
    )
    address = create_address(alice, now=now, subscription=subscription)
    mailin.send(address.address, mail.alternative(address.address, now - timedelta(hours=1)))
    mailin.work()
    run = runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)
    assert list(run.items.values_list("title", flat=True)) == [
        "The Weekly Query: PostgreSQL 18 in production"
    ]


def test_a_topic_only_brief_of_another_reader_never_picks_an_issue(alice, bob, now, mailin):
    """Bob's subscription reads the whole pool (no sources): Alice's newsletter issue about the
    same topic is in that pool, and must not reach him. Her own brief still gets it."""
    address = create_address(alice, now=now)
    mailin.send(address.address, mail.alternative(address.address, now - timedelta(hours=1)))
    mailin.work()
    assert items_of(address).count() == 1
    for reader, source_ids in ((bob, []), (alice, [address.source_id])):
        subscription = create_subscription(
            reader,
            {
                "name": "Databases",
                "interests": ["PostgreSQL"],
                "cron": "0 8 * * *",
                "source_ids": source_ids,
            },
            now=now,
        )
        run = runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)
        titles = list(run.items.values_list("title", flat=True))
        issue = "The Weekly Query: PostgreSQL 18 in production"
        assert (issue in titles) == (reader == alice), reader


# --- the console ------------------------------------------------------------------------------


def test_the_console_gives_out_copies_and_revokes_addresses(client, alice, bob, now):
    subscription = create_subscription(
        alice, {"name": "Databases", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    client.force_login(alice)
    assert reverse("ingest:newsletters").encode() in client.get(reverse("ingest:list")).content
    client.post(
        reverse("ingest:newsletter-add"),
        {"label": "Tech letters", "subscription": str(subscription.pk)},
    )
    address = NewsletterAddress.objects.get(user=alice)
    assert subscription.subscriptionsource_set.filter(source=address.source).exists()
    page = client.get(reverse("ingest:newsletters")).content.decode()
    assert address.address in page and "data-copy=" in page

    client.force_login(bob)
    assert client.post(reverse("ingest:newsletter-revoke", args=[address.pk])).status_code == 404
    client.force_login(alice)
    client.post(reverse("ingest:newsletter-revoke", args=[address.pk]))
    address.refresh_from_db()
    assert address.revoked_at is not None


def test_the_console_shows_held_mail_and_confirmations_in_constant_queries(
    client, alice, now, mailin, django_assert_max_num_queries
):
    address = create_address(alice, now=now)
    address.allowed_senders = ["nobody@else.example"]
    address.save()
    mailin.send(address.address, mail.confirmation(address.address, now))
    mailin.send(address.address, mail.html_only(address.address, now))
    mailin.send(address.address, mail.text_only(address.address, now))
    mailin.work()
    client.force_login(alice)
    with django_assert_max_num_queries(8):
        page = client.get(reverse("ingest:newsletters")).content.decode()
    assert "https://queryweekly.example/subscribe/confirm?t=abc123" in page
    assert "Rust Digest #12" in page and "Plain text letter" in page

    held = InboundMessage.objects.get(subject="Rust Digest #12")
    client.post(reverse("ingest:newsletter-allow", args=[held.pk]))
    item = items_of(address).get()
    assert item.title == "Rust Digest #12"
    issue = client.get(item.canonical_url.removeprefix("http://127.0.0.1:8000"))
    assert issue.status_code == 200 and "Borrow checker news" in issue.content.decode()


def test_deleting_an_account_deletes_its_newsletter_mail_but_not_shared_articles(
    alice, bob, now, mailin
):
    from inbox.portability.deletion import delete_account
    from ingest.canonical import url_hash
    from ingest.models import ContentItemSource, Source

    address = create_address(alice, now=now, split_roundups=True)
    feed = Source.objects.create(type="feed", url="https://lwn.example/feed", config_hash="f" * 64)
    url = mail.ROUNDUP_LINKS[0][0]
    public = ContentItem.objects.create(
        canonical_url=url,
        canonical_url_hash=url_hash(url),
        title="Memory folios land in the kernel",
        first_seen_at=now,
        last_seen_at=now,
    )
    ContentItemSource.objects.create(item=public, source=feed, first_seen_at=now)
    mailin.send(address.address, mail.roundup(address.address, now))
    mailin.work()
    issue = items_of(address).get(title="Five links for the weekend")

    delete_account(alice, password="correct horse battery staple", now=now)

    assert not ContentItem.objects.filter(pk=issue.pk).exists()
    assert ContentItem.objects.filter(pk=public.pk).exists()
    assert not NewsletterAddress.objects.exists()


# --- the command ------------------------------------------------------------------------------


@pytest.mark.slow
def test_manage_py_mailin_listens_where_told_refuses_strangers_and_stops_on_sigterm(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    port = free_port()
    root = Path(__file__).resolve().parents[2]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        # A database of its own: the only recipient asked about needs none.
        "DATABASE_URL": f"sqlite:///{tmp_path / 'mailin.sqlite3'}",
        "INBOUND_DOMAIN": "in.tidings.test",
    }
    child = subprocess.Popen(
        [sys.executable, "manage.py", "mailin", "--host", "127.0.0.1", "--port", str(port)],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        banner = child.stdout.readline().decode()
        assert f"*@in.tidings.test on 127.0.0.1:{port}" in banner
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
            client.ehlo()
            assert client.has_extn("size")
            client.mail("bounce@news.example")
            code, _reply = client.rcpt("someone@elsewhere.example")
            assert code == 550
        child.send_signal(signal.SIGTERM)
        started = time.monotonic()
        assert child.wait(timeout=10) == 0
        assert time.monotonic() - started < 10
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()


# --- parsing, on its own ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("href", "real"),
    [
        (
            "https://t.example/c?url=https%3A%2F%2Fa.example%2Fx%3Futm_source%3Dn",
            "https://a.example/x",
        ),
        ("https://t.example/c?u=https://a.example/y&sig=1", "https://a.example/y"),
        ("https://a.example/z?utm_medium=email&id=3", "https://a.example/z?id=3"),
        ("https://t.example/opaque/abc123", "https://t.example/opaque/abc123"),
    ],
)
def test_tracking_redirects_give_back_the_real_link_when_they_carry_it(href, real):
    from ingest.newsletters.parsing import unwrap_link

    assert unwrap_link(href) == real


def test_pixels_hidden_by_style_and_inline_images_are_dropped_but_real_images_stay():
    from ingest.newsletters.parsing import parse_message

    raw = (
        b"From: a@b.example\r\nSubject: s\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
        b'<p>x<img src="https://p.example/o.gif" style="width:1px;height:1px">'
        b'<img src="https://p.example/h.gif" style="display:none">'
        b'<img src="cid:logo">'
        b'<img src="https://cdn.example/chart.png" alt="chart" width="600"></p>'
    )
    cleaned = parse_message(raw).html
    assert "p.example" not in cleaned and "cid:" not in cleaned
    assert "https://cdn.example/chart.png" in cleaned


def test_a_failure_on_our_side_answers_4xx_so_the_sender_retries(alice, now, mailin, monkeypatch):
    from ingest.newsletters import smtp

    address = create_address(alice, now=now)

    def broken(*args, **kwargs):
        raise RuntimeError("the database is away")

    monkeypatch.setattr(smtp, "accept_message", broken)
    with pytest.raises(smtplib.SMTPDataError) as failed:
        mailin.send(address.address, mail.html_only(address.address, now))
    assert failed.value.smtp_code == 451


def test_big_mail_from_strangers_is_held_without_its_text(alice, now, mailin, monkeypatch):
    from ingest.newsletters import receiving

    monkeypatch.setattr(receiving, "HELD_KEEP_BYTES", 500)
    address = create_address(alice, now=now)
    address.allowed_senders = ["@queryweekly.example"]
    address.save()
    mailin.send(address.address, mail.roundup(address.address, now))
    (row,) = mailin.work()
    row.refresh_from_db()
    assert row.status == "held" and row.raw == b"" and "Too large" in row.error
    assert allow_sender(address, "links@roundup.example", now=now) == 0
