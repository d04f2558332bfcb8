"""The safe-fetch policy of ingest/fetching/fetch.py (SPEC §4.1), tested against real sockets.

Refusals are proved to happen before any connection: a listening socket on 127.0.0.1 whose port
is allowed must never see a connection, and every `socket.connect` is recorded. Server
behaviour (redirects, bombs, trickling) comes from real HTTP servers on 127.0.0.1, reachable
as http://localhost:<port>/ only through the test-only loopback allowance.
"""

from __future__ import annotations

import email.utils
import gzip
import ipaddress
import socket
import time
import tracemalloc
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler

import httpx
import pytest
from django.conf import settings
from django.test import override_settings

from ingest.fetching import fetch as fetch_module
from ingest.fetching.addresses import refused_address_reason
from ingest.fetching.fetch import (
    FEED_ACCEPT,
    ConnectionFailed,
    FetchError,
    FetchRefused,
    FetchTimeout,
    HTTPStatusError,
    ResponseTooLarge,
    fetch,
    parse_target,
    post,
)
from tests.loopback import LoopbackServer

# --- Helpers -------------------------------------------------------------------------------


@dataclass
class Trap:
    """A listening socket on 127.0.0.1 whose port the policy allows: nothing may connect."""

    port: int
    listener: socket.socket
    connects: list[tuple]
    lookups: list[str]

    def assert_untouched(self) -> None:
        self.listener.settimeout(0.05)
        with pytest.raises(TimeoutError):
            conn, _ = self.listener.accept()
            conn.close()
        assert self.connects == [], f"fetch connected to {self.connects}"


@pytest.fixture
def connects(monkeypatch) -> list[tuple]:
    """Every address any socket tries to connect to (on top of the suite's network guard)."""
    attempts: list[tuple] = []
    guarded_connect = socket.socket.connect

    def recording_connect(self, address):
        attempts.append(address)
        return guarded_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", recording_connect)
    return attempts


@pytest.fixture
def lookups(monkeypatch) -> list[str]:
    """Every host name passed to getaddrinfo; names other than localhost do not resolve."""
    names: list[str] = []
    real_getaddrinfo = socket.getaddrinfo

    def recording_getaddrinfo(host, *args, **kwargs):
        names.append(host)
        if host in ("localhost", "127.0.0.1", "::1"):
            return real_getaddrinfo(host, *args, **kwargs)
        raise socket.gaierror(socket.EAI_NONAME, "not resolved in tests")

    monkeypatch.setattr(socket, "getaddrinfo", recording_getaddrinfo)
    return names


@pytest.fixture
def trap(connects, lookups) -> Iterator[Trap]:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    # The trap's port is allowed, so only the address check can stop the fetch.
    with override_settings(FETCH_EXTRA_ALLOWED_PORTS=[port]):
        yield Trap(port, listener, connects, lookups)
    listener.close()


def resolving_to(monkeypatch, *addresses: str) -> list[str]:
    """Make every name resolve to `addresses` (in that order); returns the names looked up."""
    names: list[str] = []

    def fake_getaddrinfo(host, port, *args, **kwargs):
        names.append(host)
        answers = []
        for address in addresses:
            if ":" in address:
                answers.append((socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port, 0, 0)))
            else:
                answers.append((socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port)))
        return answers

    monkeypatch.setattr(socket, "getaddrinfo", fake_getaddrinfo)
    return names


Handle = Callable[[BaseHTTPRequestHandler], None]


@dataclass
class RawServer:
    """A loopback HTTP/1.1 server whose GET handling is a plain function, for odd behaviour."""

    handle: Handle
    requests: list[tuple[str, dict[str, str]]] = field(default_factory=list)

    def __post_init__(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                server.requests.append((self.path, dict(self.headers)))
                self.connection.settimeout(5)
                try:
                    server.handle(self)
                except (BrokenPipeError, ConnectionResetError, TimeoutError):
                    self.close_connection = True

            do_POST = do_GET

            def log_message(self, *args):
                pass

        self.loopback = LoopbackServer(Handler).start()
        self.port = self.loopback.port

    def url(self, path: str = "/") -> str:
        return self.loopback.url(path)

    def stop(self) -> None:
        self.loopback.stop()


@pytest.fixture
def serve() -> Iterator[Callable[[Handle], RawServer]]:
    """serve(handle) starts a RawServer reachable through the test-only loopback allowance."""
    servers: list[RawServer] = []

    def start(handle: Handle) -> RawServer:
        servers.append(RawServer(handle))
        return servers[-1]

    with override_settings(FETCH_TEST_ONLY_LOOPBACK_HOSTS=("localhost",)):
        yield start
    for server in servers:
        server.stop()


def send_head(handler: BaseHTTPRequestHandler, status: int = 200, **headers: str) -> None:
    handler.send_response(status)
    for name, value in headers.items():
        handler.send_header(name.replace("_", "-"), value)
    handler.end_headers()
    handler.wfile.flush()


def wait_for_close(handler: BaseHTTPRequestHandler) -> None:
    """Block until the client hangs up (or the 5 s socket timeout), sending nothing."""
    handler.close_connection = True
    handler.rfile.read(1)


# --- 1. Refused before any connection ------------------------------------------------------

REFUSED_ADDRESSES = [
    # Loopback in every notation browsers and resolvers accept.
    pytest.param("http://127.0.0.1:{port}/", "loopback", id="loopback-dotted"),
    pytest.param("http://127.1:{port}/", "loopback", id="loopback-short"),
    pytest.param("http://127.0.1:{port}/", "loopback", id="loopback-three-part"),
    pytest.param("http://2130706433:{port}/", "loopback", id="loopback-decimal"),
    pytest.param("http://0x7f000001:{port}/", "loopback", id="loopback-hex"),
    pytest.param("http://0X7F000001:{port}/", "loopback", id="loopback-hex-uppercase"),
    pytest.param("http://0177.0.0.1:{port}/", "loopback", id="loopback-octal"),
    pytest.param("http://0x7f.0.0.1:{port}/", "loopback", id="loopback-hex-dotted"),
    pytest.param("http://0x7f.1:{port}/", "loopback", id="loopback-hex-short"),
    pytest.param("http://127.0.0.1.:{port}/", "loopback", id="loopback-trailing-dot"),
    pytest.param("http://127.255.255.254:{port}/", "loopback", id="loopback-whole-8"),
    pytest.param("http://%31%32%37.0.0.1:{port}/", "loopback", id="loopback-percent-encoded"),
    pytest.param("http://%30x7f000001:{port}/", "loopback", id="loopback-percent-hex"),
    pytest.param("http://１２７.０.０.１:{port}/", "loopback", id="loopback-fullwidth-digits"),
    pytest.param("http://127。0。0。1:{port}/", "loopback", id="loopback-ideographic-dots"),
    pytest.param("HTTP://127.0.0.1:{port}/", "loopback", id="loopback-uppercase-scheme"),
    pytest.param("http://[::1]:{port}/", "loopback", id="loopback-ipv6"),
    pytest.param("http://[0:0:0:0:0:0:0:1]:{port}/", "loopback", id="loopback-ipv6-long"),
    # Private, link-local and cloud metadata, CGNAT, unspecified, multicast, reserved.
    pytest.param("http://10.0.0.1:{port}/", "private", id="private-10"),
    pytest.param("http://10.255.255.255:{port}/", "private", id="private-10-top"),
    pytest.param("http://172.16.0.1:{port}/", "private", id="private-172.16"),
    pytest.param("http://172.31.255.254:{port}/", "private", id="private-172.31"),
    pytest.param("http://192.168.1.1:{port}/", "private", id="private-192.168"),
    pytest.param("http://3232235777:{port}/", "private", id="private-192.168-decimal"),
    pytest.param("http://169.254.169.254:{port}/latest/", "link-local", id="cloud-metadata"),
    pytest.param("http://0xa9fea9fe:{port}/", "link-local", id="cloud-metadata-hex"),
    pytest.param("http://169.254.1.1:{port}/", "link-local", id="link-local"),
    pytest.param("http://100.64.0.1:{port}/", "carrier-grade NAT", id="cgnat"),
    pytest.param("http://100.127.255.254:{port}/", "carrier-grade NAT", id="cgnat-top"),
    pytest.param("http://0.0.0.0:{port}/", "unspecified", id="unspecified"),
    pytest.param("http://0:{port}/", "unspecified", id="unspecified-short"),
    pytest.param("http://[::]:{port}/", "unspecified", id="unspecified-ipv6"),
    pytest.param("http://224.0.0.1:{port}/", "multicast", id="multicast"),
    pytest.param("http://239.255.255.250:{port}/", "multicast", id="multicast-ssdp"),
    pytest.param("http://[ff02::1]:{port}/", "multicast", id="multicast-ipv6"),
    pytest.param("http://240.0.0.1:{port}/", "reserved", id="reserved-240"),
    pytest.param("http://255.255.255.255:{port}/", "reserved", id="broadcast"),
    pytest.param("http://198.18.0.1:{port}/", "benchmarking", id="benchmarking"),
    pytest.param("http://192.0.2.1:{port}/", "documentation", id="documentation"),
    # IPv6 forms that embed an IPv4 address.
    pytest.param("http://[::ffff:127.0.0.1]:{port}/", "loopback (embedded", id="v4-mapped"),
    pytest.param("http://[::ffff:7f00:1]:{port}/", "loopback (embedded", id="v4-mapped-hex"),
    pytest.param("http://[::ffff:10.0.0.1]:{port}/", "private (embedded", id="v4-mapped-private"),
    pytest.param(
        "http://[::ffff:169.254.169.254]:{port}/", "link-local (embedded", id="v4-mapped-metadata"
    ),
    pytest.param("http://[::127.0.0.1]:{port}/", "loopback (embedded", id="v4-compatible"),
    pytest.param("http://[::a00:1]:{port}/", "private (embedded", id="v4-compatible-private"),
    pytest.param("http://[2002:7f00:1::]:{port}/", "loopback (embedded", id="6to4"),
    pytest.param("http://[2002:a9fe:a9fe::1]:{port}/", "link-local (embedded", id="6to4-metadata"),
    pytest.param("http://[64:ff9b::7f00:1]:{port}/", "loopback (embedded", id="nat64"),
    pytest.param("http://[64:ff9b::10.0.0.1]:{port}/", "private (embedded", id="nat64-dotted"),
    pytest.param("http://[64:ff9b:1::1]:{port}/", "local NAT64", id="nat64-local-use"),
    # Teredo: server 65.54.227.120, client 127.0.0.1 stored bit-inverted (80ff:fffe).
    pytest.param(
        "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:{port}/",
        "loopback (embedded",
        id="teredo",
    ),
    # Teredo with client 10.0.0.1 (f5ff:fffe).
    pytest.param(
        "http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]:{port}/",
        "private (embedded",
        id="teredo-private",
    ),
    pytest.param("http://[fc00::1]:{port}/", "private", id="ula-fc"),
    pytest.param("http://[fd12:3456:789a::1]:{port}/", "private", id="ula-fd"),
    pytest.param("http://[fe80::1]:{port}/", "link-local", id="link-local-ipv6"),
    pytest.param("http://[febf::1]:{port}/", "link-local", id="link-local-ipv6-top"),
    pytest.param("http://[fec0::1]:{port}/", "site-local", id="site-local-ipv6"),
]


@pytest.mark.parametrize(("url", "reason"), REFUSED_ADDRESSES)
def test_it_refuses_non_public_addresses_in_every_notation_without_connecting(trap, url, reason):
    url = url.format(port=trap.port)
    with pytest.raises(FetchRefused) as refused:
        fetch(url)
    assert reason in refused.value.message
    assert "which Tidings never fetches from" in refused.value.message
    assert refused.value.permanent
    assert refused.value.url == url
    # An IP literal is never handed to the resolver, and nothing is connected to.
    assert trap.lookups == []
    trap.assert_untouched()


REFUSED_SYNTAX = [
    # Schemes other than http and https.
    pytest.param("file:///etc/passwd", "Only http and https", id="file"),
    pytest.param("file://localhost/etc/passwd", "Only http and https", id="file-with-host"),
    pytest.param("ftp://example.com/feed.xml", "Only http and https", id="ftp"),
    pytest.param("gopher://127.0.0.1:6379/_INFO", "Only http and https", id="gopher"),
    pytest.param("javascript:alert(1)", "Only http and https", id="javascript"),
    pytest.param("data:text/html,<script>alert(1)</script>", "Only http and https", id="data"),
    pytest.param("dict://127.0.0.1:11211/stat", "Only http and https", id="dict"),
    pytest.param("//example.com/feed", "not 'none'", id="scheme-relative"),
    pytest.param("example.com/feed", "not 'none'", id="no-scheme"),
    pytest.param("", "empty", id="empty"),
    # Ports outside 80, 443 and 8000-8999.
    pytest.param("http://example.com:22/", "Port 22 is not allowed", id="ssh"),
    pytest.param("http://example.com:25/", "Port 25 is not allowed", id="smtp"),
    pytest.param("http://example.com:6379/", "Port 6379 is not allowed", id="redis"),
    pytest.param("https://example.com:11211/", "Port 11211 is not allowed", id="memcached"),
    pytest.param("http://example.com:9000/", "Port 9000 is not allowed", id="just-above-range"),
    pytest.param("http://example.com:0/", "Port 0 is not allowed", id="port-zero"),
    pytest.param("http://example.com:65536/", "not a valid URL", id="port-out-of-range"),
    pytest.param("http://example.com:8o/", "not a valid URL", id="port-not-a-number"),
    # Where URL parsers disagree about the host.
    pytest.param("http://evil.com\\@127.0.0.1/", "backslashes", id="backslash-userinfo"),
    pytest.param("http://127.0.0.1\\.evil.com/", "backslashes", id="backslash-host"),
    pytest.param("http://user@127.0.0.1/", "user name or password", id="userinfo"),
    pytest.param("http://example.com@127.0.0.1/", "user name or password", id="host-as-user"),
    pytest.param("http://user:pw@example.com/", "user name or password", id="password"),
    pytest.param("http://example.com%2F@127.0.0.1/", "user name or password", id="encoded-slash"),
    pytest.param("http://127.0.0.1%2F.example.com/", "invalid host name", id="encoded-slash-host"),
    pytest.param("http://%2531%2532%2537.0.0.1/", "invalid host name", id="double-encoded"),
    pytest.param("http://127.0.0.1%00.example.com/", "invalid host name", id="encoded-nul"),
    pytest.param("http://[fe80::1%25eth0]/", "invalid host name", id="ipv6-zone-id"),
    pytest.param("http://[127.0.0.1]/", "not a valid URL", id="ipv4-in-brackets"),
    pytest.param("http://[::1/", "not a valid URL", id="unclosed-bracket"),
    pytest.param("http:///127.0.0.1/", "has no host", id="empty-authority"),
    pytest.param("http://exa mple.com/", "spaces, control characters", id="space-in-host"),
    pytest.param("http://example.com/a b", "spaces, control characters", id="space-in-path"),
    pytest.param(" http://example.com/", "spaces, control characters", id="leading-space"),
    pytest.param("http://example.com/\t", "spaces, control characters", id="tab"),
    pytest.param("http://example.com/\r\nHost: 127.0.0.1", "spaces, control characters", id="crlf"),
    pytest.param("http://example.com/\x00", "spaces, control characters", id="nul"),
    pytest.param("http://exa\x7fmple.com/", "control characters", id="del-in-host"),
    pytest.param("http://example.com/\x7f", "control characters", id="del-in-path"),
    pytest.param("http://example.com/\x85", "control characters", id="c1-next-line"),
    pytest.param("http://exa\u00a0mple.com/", "invalid host name", id="nbsp-in-host"),
]


@pytest.mark.parametrize(("url", "fragment"), REFUSED_SYNTAX)
def test_it_refuses_bad_schemes_ports_and_ambiguous_urls_before_resolving(
    connects, lookups, url, fragment
):
    with pytest.raises(FetchRefused) as refused:
        fetch(url)
    assert fragment in refused.value.message
    assert refused.value.code == "refused_by_policy"
    assert lookups == []
    assert connects == []


def test_it_refuses_a_host_name_when_any_answer_is_refused(monkeypatch, connects):
    names = resolving_to(monkeypatch, "8.8.8.8", "10.0.0.5")
    with pytest.raises(FetchRefused) as refused:
        fetch("http://mixed.example/feed")
    assert refused.value.message == (
        "The host 'mixed.example' resolves to a private address (10.0.0.5), "
        "which Tidings never fetches from."
    )
    assert names == ["mixed.example"]
    assert connects == []


@pytest.mark.parametrize(
    ("answers", "reason"),
    [
        (("127.0.0.1",), "loopback"),
        (("2606:4700::1111", "::1"), "loopback"),
        (("::ffff:169.254.169.254",), "link-local (embedded in IPv6)"),
        (("8.8.8.8", "fd00::1"), "private"),
        (("1.1.1.1", "100.64.0.7"), "carrier-grade NAT"),
    ],
)
def test_it_refuses_host_names_that_resolve_into_refused_space(
    monkeypatch, connects, answers, reason
):
    resolving_to(monkeypatch, *answers)
    with pytest.raises(FetchRefused) as refused:
        fetch("https://rebind.example/")
    assert f"resolves to a {reason} address" in refused.value.message
    assert connects == []


def test_it_reports_an_unknown_host_as_a_connection_failure(lookups, connects):
    with pytest.raises(ConnectionFailed) as failed:
        fetch("http://no-such-host.example/")
    assert failed.value.message == "The host 'no-such-host.example' could not be found."
    assert not failed.value.permanent
    assert connects == []


def test_it_resolves_once_and_connects_to_the_checked_address(
    fixture_server, monkeypatch, connects
):
    names: list[str] = []
    real_getaddrinfo = socket.getaddrinfo

    def counting_getaddrinfo(host, *args, **kwargs):
        names.append(host)
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", counting_getaddrinfo)
    url = fixture_server.add("/feed", "ok")
    assert fetch(url).content == b"ok"
    # The name is looked up once; the socket connects to the address that was checked, so a
    # second (rebound) answer can never be used.
    assert names.count("localhost") == 1
    assert connects == [("127.0.0.1", fixture_server.port)]
    # The server still sees the name, not the address.
    assert fixture_server.requests[0][1]["Host"] == f"localhost:{fixture_server.port}"


def test_it_sends_a_bracketed_host_header_for_an_ipv6_literal(serve, monkeypatch):
    server = serve(lambda h: send_head(h, 200, Content_Length="0"))
    # Stand-in for a public IPv6 server: the address check passes, the socket goes to loopback.
    monkeypatch.setattr(fetch_module, "resolve_checked", lambda target: "127.0.0.1")
    with override_settings(FETCH_EXTRA_ALLOWED_PORTS=[server.port]):
        fetch(f"http://[2606:4700::1111]:{server.port}/")
    assert server.requests[0][1]["Host"] == f"[2606:4700::1111]:{server.port}"


# --- 2. The address table --------------------------------------------------------------------


@pytest.mark.parametrize(
    "address",
    [
        "8.8.8.8",
        "1.1.1.1",
        "93.184.216.34",
        "100.63.255.255",  # just below 100.64.0.0/10
        "100.128.0.0",  # just above it
        "172.15.255.255",  # just below 172.16.0.0/12
        "172.32.0.0",  # just above it
        "2606:4700::1111",
        "2001:4860:4860::8888",
        "::ffff:8.8.8.8",  # mapped, embeds a public address
        "64:ff9b::808:808",  # NAT64 of a public address
        "2002:808:808::1",  # 6to4 of a public address
    ],
)
def test_refused_address_reason_allows_public_addresses(address):
    assert refused_address_reason(ipaddress.ip_address(address)) is None


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("127.0.0.1", "loopback"),
        ("10.1.2.3", "private"),
        ("172.20.0.1", "private"),
        ("192.168.0.1", "private"),
        ("169.254.169.254", "link-local"),
        ("100.64.0.1", "carrier-grade NAT"),
        ("0.0.0.0", "unspecified"),  # noqa: S104 - an address under test, not a bind
        ("224.0.0.251", "multicast"),
        ("240.0.0.1", "reserved"),
        ("::1", "loopback"),
        ("::", "unspecified"),
        ("fd00::1", "private"),
        ("fe80::1", "link-local"),
        ("fe80::1%eth0", "scoped"),
        ("ff05::2", "multicast"),
        ("::ffff:127.0.0.1", "loopback (embedded in IPv6)"),
        ("::ffff:a9fe:a9fe", "link-local (embedded in IPv6)"),
        ("2002:c0a8:101::", "private (embedded in IPv6)"),
        ("64:ff9b::a00:1", "private (embedded in IPv6)"),
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback (embedded in IPv6)"),
    ],
)
def test_refused_address_reason_names_the_refused_category(address, reason):
    assert refused_address_reason(ipaddress.ip_address(address)) == reason


def test_parse_target_normalizes_numeric_hosts_to_a_dotted_quad():
    assert parse_target("http://0x7f.1/feed?a=1").host == "127.0.0.1"
    assert parse_target("http://0x7f.1/feed?a=1").path_and_query == "/feed?a=1"
    assert parse_target("HTTPS://Example.COM./").host == "example.com"
    assert parse_target("https://bücher.example/").host == "xn--bcher-kva.example"
    assert parse_target("https://example.com/").port == 443


# --- 3. Against real servers -----------------------------------------------------------------


@pytest.mark.parametrize(
    "location",
    [
        "http://127.0.0.1:{port}/secret",
        "http://2130706433:{port}/secret",
        "http://[::1]:{port}/secret",
        "//127.0.0.1:{port}/secret",
        "http://10.0.0.1/",
        "http://169.254.169.254/latest/meta-data/",
    ],
)
def test_it_refuses_a_redirect_into_refused_space(fixture_server, connects, location):
    fixture_server.add("/secret", "internal data")
    url = fixture_server.add(
        "/start", status=302, Location=location.format(port=fixture_server.port)
    )
    # The server's port is allowed, so only the address check can stop the second hop.
    allowed_port = override_settings(FETCH_EXTRA_ALLOWED_PORTS=[fixture_server.port])
    with allowed_port, pytest.raises(FetchRefused) as refused:
        fetch(url)
    assert "which Tidings never fetches from" in refused.value.message
    # The first hop was fetched, the target never was: the redirect is checked before it.
    assert [path for path, _ in fixture_server.requests] == ["/start"]
    assert connects == [("127.0.0.1", fixture_server.port)]


@pytest.mark.parametrize(
    ("location", "fragment"),
    [
        ("file:///etc/passwd", "Only http and https"),
        ("gopher://localhost:{port}/_x", "Only http and https"),
        ("http://example.com:6379/", "Port 6379 is not allowed"),
        ("http://evil.example\\@127.0.0.1/", "backslashes"),
        ("http://user@example.com/", "user name or password"),
    ],
)
def test_it_applies_the_url_rules_to_every_redirect(fixture_server, location, fragment):
    url = fixture_server.add(
        "/start", status=301, Location=location.format(port=fixture_server.port)
    )
    with pytest.raises(FetchRefused) as refused:
        fetch(url)
    assert fragment in refused.value.message


def test_it_refuses_a_redirect_loop(fixture_server):
    url = fixture_server.add("/a", status=302, Location="/b")
    fixture_server.add("/b", status=302, Location=url)
    with pytest.raises(FetchRefused) as refused:
        fetch(url)
    assert refused.value.message == "The redirects go round in a loop."
    assert [path for path, _ in fixture_server.requests] == ["/a", "/b"]


def test_it_refuses_a_redirect_to_itself(fixture_server):
    url = fixture_server.add("/self", status=307, Location="/self")
    with pytest.raises(FetchRefused, match="loop"):
        fetch(url)


def add_chain(server, prefix: str, statuses: list[int]) -> str:
    """/prefix0 -> /prefix1 -> ... with the given redirect statuses, ending in a 200."""
    for hop, status in enumerate(statuses):
        server.add(f"/{prefix}{hop}", status=status, Location=f"/{prefix}{hop + 1}")
    server.add(f"/{prefix}{len(statuses)}", "arrived")
    return server.url(f"/{prefix}0")


def test_it_follows_exactly_five_redirects(fixture_server):
    url = add_chain(fixture_server, "hop", [302] * 5)
    result = fetch(url)
    assert result.content == b"arrived"
    assert result.url == fixture_server.url("/hop5")
    assert result.redirects == [fixture_server.url(f"/hop{n}") for n in range(5)]


def test_it_refuses_a_sixth_redirect(fixture_server):
    url = add_chain(fixture_server, "hop", [302] * 6)
    with pytest.raises(FetchRefused) as refused:
        fetch(url)
    assert refused.value.message == "More than 5 redirects; gave up."
    assert refused.value.url == url
    assert "/hop6" not in [path for path, _ in fixture_server.requests]


def test_it_refuses_a_redirect_without_a_location(fixture_server):
    url = fixture_server.add("/nowhere", status=302)
    with pytest.raises(HTTPStatusError) as error:
        fetch(url)
    assert error.value.message == "The server sent a redirect without a Location."
    assert error.value.status == 302


@pytest.mark.parametrize(
    ("statuses", "permanent"),
    [
        ([301], True),
        ([308], True),
        ([301, 308, 301], True),
        ([302], False),
        ([303], False),
        ([307], False),
        ([301, 302], False),
        ([302, 301], False),
        ([308, 307, 301], False),
        ([], False),
    ],
)
def test_only_an_all_permanent_chain_is_reported_as_a_permanent_redirect(
    fixture_server, statuses, permanent
):
    url = add_chain(fixture_server, "p", statuses)
    result = fetch(url)
    final = fixture_server.url(f"/p{len(statuses)}")
    assert result.url == final
    assert result.permanent_redirect == (final if permanent else None)


def test_a_permanent_redirect_to_a_failing_target_raises_instead_of_moving(fixture_server):
    url = fixture_server.add("/moved", status=301, Location="/gone")
    fixture_server.add("/gone", status=410)
    with pytest.raises(HTTPStatusError) as error:
        fetch(url)
    assert error.value.status == 410
    assert error.value.permanent


def stub_transport(monkeypatch, script: dict[str, tuple[int, str]]) -> list[str]:
    """Replace the network step of fetch() with canned responses keyed by URL.

    There is no TLS fixture server, so the https→http rule is tested on fetch()'s hop loop:
    parsing, resolving and checking each hop are real, only `_send_once` is canned.
    """
    resolving_to(monkeypatch, "93.184.216.34")
    sent: list[str] = []

    def fake_send_once(client, target, address, headers, max_bytes, deadline):
        assert address == "93.184.216.34"
        sent.append(target.url)
        status, location = script[target.url]
        response = httpx.Response(status, headers={"Location": location} if location else {})
        return response, b"" if location else b"body"

    monkeypatch.setattr(fetch_module, "_send_once", fake_send_once)
    return sent


def test_it_refuses_a_redirect_from_https_to_http(monkeypatch):
    sent = stub_transport(
        monkeypatch, {"https://secure.example/feed": (301, "http://secure.example/feed")}
    )
    with pytest.raises(FetchRefused) as refused:
        fetch("https://secure.example/feed")
    assert refused.value.message == "A redirect from https to http was refused."
    assert refused.value.url == "http://secure.example/feed"
    assert sent == ["https://secure.example/feed"]


def test_it_refuses_https_to_http_later_in_the_chain(monkeypatch):
    sent = stub_transport(
        monkeypatch,
        {
            "http://a.example/": (301, "https://b.example/"),
            "https://b.example/": (302, "https://c.example/"),
            "https://c.example/": (302, "http://d.example/"),
        },
    )
    with pytest.raises(FetchRefused, match="https to http"):
        fetch("http://a.example/")
    assert sent == ["http://a.example/", "https://b.example/", "https://c.example/"]


def test_it_follows_http_to_https_and_https_to_https(monkeypatch):
    stub_transport(
        monkeypatch,
        {
            "http://a.example/": (301, "https://a.example/"),
            "https://a.example/": (308, "https://www.a.example/"),
            "https://www.a.example/": (200, ""),
        },
    )
    result = fetch("http://a.example/")
    assert result.content == b"body"
    assert result.permanent_redirect == "https://www.a.example/"


def test_it_caps_a_gzip_bomb_on_inflated_bytes(fixture_server):
    bomb = gzip.compress(b"\0" * 5_000_000)
    assert len(bomb) < 100_000
    url = fixture_server.add("/bomb", bomb, Content_Encoding="gzip")
    with pytest.raises(ResponseTooLarge) as too_large:
        fetch(url, max_bytes=1_000_000)
    assert too_large.value.message == "The response is larger than the 1,000,000-byte limit."
    assert too_large.value.permanent


@pytest.mark.parametrize("encoding", ["gzip", "gzip, gzip", "deflate, gzip"])
def test_it_inflates_a_bomb_a_bounded_slice_at_a_time(fixture_server, encoding):
    # 100 MB of zeros in ~100 KB (gzip) or a few hundred bytes (nested): inflating a whole
    # network read at once would allocate tens of MB, or all of it, before the cap is checked.
    body = b"\0" * 100_000_000
    for coding in [part.strip() for part in encoding.split(",")]:
        body = gzip.compress(body, 9) if coding == "gzip" else zlib.compress(body, 9)
    url = fixture_server.add("/bomb", body, Content_Encoding=encoding)
    tracemalloc.start()
    try:
        with pytest.raises(ResponseTooLarge):
            fetch(url, max_bytes=1_000_000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16_000_000, f"peak allocation {peak:,} bytes for a 1 MB cap"


@pytest.mark.parametrize(
    ("encoding", "encode"),
    [
        ("gzip", gzip.compress),
        ("deflate", zlib.compress),
        ("deflate", lambda data: zlib.compress(data)[2:-4]),  # raw deflate, as some servers send
        ("gzip, gzip", lambda data: gzip.compress(gzip.compress(data))),
        ("identity", lambda data: data),
    ],
)
def test_it_decodes_compressed_bodies_within_the_cap(fixture_server, encoding, encode):
    content = b"<rss>" + b"<item>tidings</item>" * 20_000 + b"</rss>"
    url = fixture_server.add("/feed", encode(content), Content_Encoding=encoding)
    assert fetch(url, max_bytes=len(content)).content == content


def test_it_refuses_an_unsupported_content_encoding(fixture_server):
    url = fixture_server.add("/feed", b"\x8b\x00", Content_Encoding="br")
    with pytest.raises(FetchError) as error:
        fetch(url)
    assert error.value.message == (
        "The response from localhost could not be decoded: unsupported Content-Encoding 'br'"
    )


def test_it_reports_a_corrupt_gzip_body_as_a_fetch_error(fixture_server):
    url = fixture_server.add("/feed", b"definitely not gzip", Content_Encoding="gzip")
    with pytest.raises(FetchError) as error:
        fetch(url)
    assert error.value.message.startswith("The response from localhost could not be decoded")


def test_it_asks_only_for_encodings_it_can_inflate_safely(fixture_server):
    fetch(fixture_server.add("/feed", "<rss/>"))
    _, headers = fixture_server.requests[0]
    assert headers["Accept-Encoding"] == "gzip, deflate"


def endless_chunked(handler: BaseHTTPRequestHandler) -> None:
    send_head(handler, 200, Transfer_Encoding="chunked", Content_Type="application/rss+xml")
    chunk = b"x" * 16_384
    for _ in range(1_000):
        handler.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
    handler.close_connection = True


def endless_until_close(handler: BaseHTTPRequestHandler) -> None:
    send_head(handler, 200, Connection="close")
    for _ in range(1_000):
        handler.wfile.write(b"y" * 16_384)
    handler.close_connection = True


@pytest.mark.parametrize("handle", [endless_chunked, endless_until_close])
def test_it_stops_reading_an_endless_body_at_the_cap(serve, handle):
    server = serve(handle)
    with pytest.raises(ResponseTooLarge) as too_large:
        fetch(server.url(), max_bytes=200_000)
    assert too_large.value.message == "The response is larger than the 200,000-byte limit."


def test_it_refuses_a_huge_declared_length_without_reading_the_body(serve):
    def huge(handler):
        send_head(handler, 200, Content_Length=str(10**12))
        wait_for_close(handler)  # sends no body: reading it would hang for the read timeout

    server = serve(huge)
    started = time.monotonic()
    with pytest.raises(ResponseTooLarge) as too_large:
        fetch(server.url(), max_bytes=fetch_module.FEED_MAX_BYTES)
    assert time.monotonic() - started < 1.0
    assert too_large.value.message == (
        "The response is 1,000,000,000,000 bytes; the limit is 5,242,880."
    )


def trickle(handler: BaseHTTPRequestHandler, data: bytes) -> None:
    for byte in data:
        handler.wfile.write(bytes([byte]))
        time.sleep(0.2)


def test_it_gives_up_on_a_server_trickling_the_body(serve, monkeypatch):
    monkeypatch.setattr(fetch_module, "TOTAL_DEADLINE_SECONDS", 1.0)

    def slow_body(handler):
        send_head(handler, 200, Content_Length="40")
        trickle(handler, b"x" * 40)

    server = serve(slow_body)
    started = time.monotonic()
    with pytest.raises(FetchTimeout) as timeout:
        fetch(server.url())
    assert 0.9 < time.monotonic() - started < 2.0
    # Whichever notices first: the read capped at the deadline, or the check between chunks.
    assert timeout.value.message in (
        "The server at localhost did not answer in time.",
        "The server took longer than 1 s to answer.",
    )
    assert not timeout.value.permanent


def test_it_gives_up_on_a_server_trickling_the_headers(serve, monkeypatch):
    monkeypatch.setattr(fetch_module, "TOTAL_DEADLINE_SECONDS", 1.0)

    def slow_headers(handler):
        handler.wfile.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
        trickle(handler, b"z" * 20)  # 4 s of header, each byte well inside the read timeout
        handler.wfile.write(b"\r\nContent-Length: 0\r\n\r\n")

    server = serve(slow_headers)
    started = time.monotonic()
    with pytest.raises(FetchTimeout) as timeout:
        fetch(server.url())
    assert 0.9 < time.monotonic() - started < 2.0
    assert timeout.value.message == "The server at localhost did not answer in time."


def test_the_deadline_covers_the_whole_redirect_chain(serve, monkeypatch):
    monkeypatch.setattr(fetch_module, "TOTAL_DEADLINE_SECONDS", 1.0)

    def slow_redirects(handler):
        hop = int(handler.path.strip("/") or 0)
        time.sleep(0.4)
        send_head(handler, 302, Location=f"/{hop + 1}", Content_Length="0")

    server = serve(slow_redirects)
    started = time.monotonic()
    with pytest.raises(FetchTimeout):
        fetch(server.url("/0"))
    assert time.monotonic() - started < 2.0
    assert len(server.requests) <= 3


def test_it_reports_429_with_its_retry_after(fixture_server):
    url = fixture_server.add("/busy", "slow down", status=429, Retry_After="120")
    with pytest.raises(HTTPStatusError) as error:
        fetch(url)
    assert error.value.status == 429
    assert error.value.retry_after == 120
    assert not error.value.permanent
    assert error.value.message == "The server answered HTTP 429."


def test_it_reads_retry_after_as_an_http_date(fixture_server):
    when = datetime.now(UTC) + timedelta(seconds=120)
    url = fixture_server.add(
        "/busy", status=503, Retry_After=email.utils.format_datetime(when, usegmt=True)
    )
    with pytest.raises(HTTPStatusError) as error:
        fetch(url)
    assert error.value.status == 503
    assert 110 <= error.value.retry_after <= 120


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("Wed, 21 Oct 2015 07:28:00 GMT", 0),  # in the past
        ("Wed, 21 Oct 2015 07:28:00 -0000", 0),  # "-0000" parses to a naive datetime
        ("soon", None),
        ("-5", None),
    ],
)
def test_it_tolerates_odd_retry_after_values(fixture_server, header, expected):
    url = fixture_server.add("/busy", status=429, Retry_After=header)
    with pytest.raises(HTTPStatusError) as error:
        fetch(url)
    assert error.value.retry_after == expected


@pytest.mark.parametrize(
    ("status", "permanent"), [(404, True), (410, True), (403, True), (500, False), (503, False)]
)
def test_http_errors_say_whether_they_are_permanent(fixture_server, status, permanent):
    url = fixture_server.add("/page", status=status)
    with pytest.raises(HTTPStatusError) as error:
        fetch(url)
    assert error.value.status == status
    assert error.value.permanent is permanent
    assert error.value.message == f"The server answered HTTP {status}."


def test_a_missing_page_is_a_permanent_404(fixture_server):
    with pytest.raises(HTTPStatusError) as error:
        fetch(fixture_server.url("/never-added"))
    assert error.value.status == 404
    assert error.value.permanent
    assert error.value.code == "http_error"


def test_it_sends_conditional_get_headers_and_reports_304(fixture_server):
    url = fixture_server.add("/feed", status=304, ETag='"v1"')
    result = fetch(url, etag='"v1"', last_modified="Wed, 21 Oct 2015 07:28:00 GMT")
    assert result.status == 304
    assert result.not_modified
    assert result.content == b""
    _, headers = fixture_server.requests[0]
    assert headers["If-None-Match"] == '"v1"'
    assert headers["If-Modified-Since"] == "Wed, 21 Oct 2015 07:28:00 GMT"


def test_it_sends_no_conditional_headers_when_it_has_no_validators(fixture_server):
    fetch(fixture_server.add("/feed", "fresh"))
    _, headers = fixture_server.requests[0]
    assert "If-None-Match" not in headers
    assert "If-Modified-Since" not in headers


def test_it_identifies_itself_as_tidings(fixture_server):
    fetch(fixture_server.add("/feed", "<rss/>"), accept=FEED_ACCEPT)
    _, headers = fixture_server.requests[0]
    assert headers["User-Agent"] == settings.FETCH_USER_AGENT
    assert headers["User-Agent"].startswith("Tidings/")
    assert headers["Accept"] == FEED_ACCEPT


# --- 4. The test-only loopback allowance -----------------------------------------------------


def test_the_loopback_allowance_is_off_by_default():
    import config.settings

    assert settings.FETCH_TEST_ONLY_LOOPBACK_HOSTS == ()
    assert config.settings.FETCH_TEST_ONLY_LOOPBACK_HOSTS == ()


def test_localhost_is_refused_with_default_settings():
    server = RawServer(lambda h: send_head(h, 200, Content_Length="0"))
    try:
        # The port is allowed, so only the address check can refuse.
        allowed_port = override_settings(FETCH_EXTRA_ALLOWED_PORTS=[server.port])
        with allowed_port, pytest.raises(FetchRefused) as refused:
            fetch(f"http://localhost:{server.port}/")
    finally:
        server.stop()
    assert refused.value.message.startswith("The host 'localhost' resolves to a loopback address")
    assert server.requests == []


def test_the_allowance_excuses_only_loopback_answers(fixture_server, monkeypatch):
    resolving_to(monkeypatch, "127.0.0.1", "10.0.0.5")
    with pytest.raises(FetchRefused, match=r"private address \(10\.0\.0\.5\)"):
        fetch(fixture_server.url("/"))
    assert fixture_server.requests == []


# --- POST (webhooks): the same policy, no redirects, a short deadline ----------------------


def post_json(url: str, **kwargs):
    return post(url, body=b'{"type":"test"}', content_type="application/json", **kwargs)


def test_post_sends_the_body_and_its_headers_and_reports_the_status(fixture_server):
    url = fixture_server.add("/hook", "thanks", status=202)
    result = post_json(url, headers={"webhook-id": "msg_1", "Host": "evil.example"})
    assert result.status == 202
    assert result.content == b"thanks"
    [(path, headers, body)] = fixture_server.posts
    assert (path, body) == ("/hook", b'{"type":"test"}')
    assert headers["Content-Type"] == "application/json"
    assert headers["webhook-id"] == "msg_1"
    assert headers["User-Agent"] == settings.FETCH_USER_AGENT
    assert headers["Host"] == f"localhost:{fixture_server.port}"  # a caller cannot pick it


@pytest.mark.parametrize(("url", "reason"), REFUSED_ADDRESSES[:30])
def test_post_refuses_non_public_addresses_without_connecting(trap, url, reason):
    with pytest.raises(FetchRefused) as refused:
        post_json(url.format(port=trap.port))
    assert reason in refused.value.message
    trap.assert_untouched()


def test_post_checks_the_address_on_every_send(monkeypatch, connects):
    """A host name that was public when the webhook was saved and resolves to a private
    address now (DNS rebinding, or a changed record) is refused at the send."""
    resolving_to(monkeypatch, "192.168.0.10")
    with pytest.raises(FetchRefused, match="private address"):
        post_json("http://hooks.example/receive")
    assert connects == []


def test_post_never_follows_a_redirect(fixture_server):
    url = fixture_server.add("/hook", status=307, Location=fixture_server.url("/elsewhere"))
    fixture_server.add("/elsewhere", "ok")
    with pytest.raises(HTTPStatusError) as answered:
        post_json(url)
    assert answered.value.status == 307
    assert "never follows a redirect with a POST" in answered.value.message
    assert [path for path, _headers, _body in fixture_server.posts] == ["/hook"]
    assert [path for path, _headers in fixture_server.requests] == ["/hook"]


@pytest.mark.parametrize(("status", "permanent"), [(410, True), (500, False), (429, False)])
def test_post_reports_http_errors_with_their_status(fixture_server, status, permanent):
    url = fixture_server.add("/hook", status=status)
    with pytest.raises(HTTPStatusError) as answered:
        post_json(url)
    assert (answered.value.status, answered.value.permanent) == (status, permanent)


def test_post_keeps_at_most_the_cap_of_a_large_answer_and_succeeds(serve):
    def endless(handler):
        send_head(handler, 200)  # no length: read until the connection closes
        handler.close_connection = True
        handler.wfile.write(b"x" * 200_000)

    result = post_json(serve(endless).url("/hook"), max_bytes=1024)
    assert result.status == 200
    assert result.content == b"x" * 1024


def test_post_reads_no_body_a_length_over_the_cap_declares(serve):
    def huge(handler):
        send_head(handler, 200, Content_Length=str(10 * 1024 * 1024 * 1024))
        handler.close_connection = True

    result = post_json(serve(huge).url("/hook"), max_bytes=1024)
    assert (result.status, result.content) == (200, b"")


def test_post_gives_up_at_its_deadline(serve):
    def silent(handler):
        handler.rfile.read(int(handler.headers["Content-Length"]))
        time.sleep(2)  # never answers within the deadline

    started = time.monotonic()
    with pytest.raises(FetchTimeout):
        post_json(serve(silent).url("/hook"), deadline_seconds=0.5)
    assert time.monotonic() - started < 1.5


def test_post_without_the_loopback_allowance_refuses_localhost(connects):
    with pytest.raises(FetchRefused, match="loopback"):
        post_json("http://localhost:8080/hook")
    assert connects == []
