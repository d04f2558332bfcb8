"""The client address: REMOTE_ADDR unless a trusted proxy speaks for the client."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory, override_settings
from rest_framework.test import APIClient

from config.client_address import client_address, parse_trusted_proxies, throttle_bucket
from tests.digests.test_api_engine import SCHEDULE_PREVIEW, rates


def address(remote: str, forwarded: str | None = None, trusted: str = "") -> str:
    meta = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    with override_settings(TIDINGS_TRUSTED_PROXIES=trusted):
        return client_address(RequestFactory().get("/", **meta))


@pytest.mark.parametrize(
    ("remote", "forwarded", "trusted", "expected"),
    [
        # Nobody trusted: the header is ignored whatever it says.
        ("203.0.113.9", "1.2.3.4", "", "203.0.113.9"),
        ("203.0.113.9", None, "", "203.0.113.9"),
        # One proxy: the last hop it appended; what the client wrote further left is not read.
        ("10.0.0.2", "1.2.3.4, 198.51.100.4", "1", "198.51.100.4"),
        ("10.0.0.2", "198.51.100.4", "1", "198.51.100.4"),
        ("10.0.0.2", None, "1", "10.0.0.2"),
        # Two proxies (CDN, then nginx).
        ("10.0.0.2", "1.2.3.4, 198.51.100.4, 172.16.0.5", "2", "198.51.100.4"),
        # Networks: walk from the right while the hop is one of ours.
        ("10.0.0.2", "1.2.3.4, 198.51.100.4, 10.0.0.7", "10.0.0.0/8", "198.51.100.4"),
        ("10.0.0.2", "10.0.0.3, 10.0.0.4", "10.0.0.0/8", "10.0.0.3"),
        # A request that did not come through the proxy cannot claim an address.
        ("203.0.113.9", "198.51.100.4", "10.0.0.0/8", "203.0.113.9"),
        # Garbage ends the walk at the last good hop; ports and IPv4-mapped forms are read.
        ("10.0.0.2", "1.2.3.4, <script>", "10.0.0.0/8", "10.0.0.2"),
        ("10.0.0.2", "198.51.100.4:5123", "1", "198.51.100.4"),
        ("::ffff:10.0.0.2", "[2001:db8::1]:443", "10.0.0.0/8", "2001:db8::1"),
    ],
)
def test_client_address(remote, forwarded, trusted, expected):
    assert address(remote, forwarded, trusted) == expected


def test_ipv6_clients_are_throttled_per_64():
    assert throttle_bucket("2001:db8:1:2:aaaa::1") == throttle_bucket("2001:db8:1:2:bbbb::9")
    assert throttle_bucket("2001:db8:1:3::1") != throttle_bucket("2001:db8:1:2::1")
    assert throttle_bucket("203.0.113.9") == "203.0.113.9"


def test_a_malformed_setting_stops_the_process():
    with pytest.raises(ImproperlyConfigured, match="TIDINGS_TRUSTED_PROXIES"):
        parse_trusted_proxies("10.0.0.0/8, proxy.example")


def test_forging_the_forwarded_header_per_request_does_not_escape_the_api_throttle(db):
    """DRF's own reading believes any X-Forwarded-For: a new value per request was a new
    client for every per-address limit."""
    with rates(schedule_preview="2/min"):
        client = APIClient(REMOTE_ADDR="203.0.113.7")
        answers = [
            client.get(
                SCHEDULE_PREVIEW, {"cron": "@daily"}, HTTP_X_FORWARDED_FOR=f"192.0.2.{n}"
            ).status_code
            for n in range(4)
        ]
    assert answers == [200, 200, 429, 429]


@override_settings(TIDINGS_TRUSTED_PROXIES="1")
def test_behind_a_trusted_proxy_the_api_throttle_counts_each_client(db):
    with rates(schedule_preview="1/min"):
        first = APIClient(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.1")
        second = APIClient(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.2")
        assert first.get(SCHEDULE_PREVIEW, {"cron": "@daily"}).status_code == 200
        assert first.get(SCHEDULE_PREVIEW, {"cron": "@daily"}).status_code == 429
        assert second.get(SCHEDULE_PREVIEW, {"cron": "@daily"}).status_code == 200
