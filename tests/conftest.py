"""Shared fixtures: named users, a loopback HTTP fixture server, and network isolation."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
import time_machine
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings
from django.utils import timezone, translation

from inbox.accounts import sign_up
from ingest.fetching import browser
from tests.loopback import LoopbackServer

# Every test has a hard bound that also ends its child processes (tests/hardbound.py); a
# transactional test's database is emptied quickly, to the same state (tests/flush.py).
pytest_plugins = ["tests.hardbound", "tests.flush"]

TESTDATA = Path(__file__).parent

# bin/test-future sets this to run the whole suite with the wall clock days ahead: a test whose
# outcome depends on the real date fails there today, not in a year. Tests that pin `now` with
# time_machine still pin it (travels nest); only the real clock underneath moves, and it keeps
# ticking. Started at configure time, before collection, so module-level dates move too.
CLOCK_AHEAD_DAYS = "TIDINGS_TEST_CLOCK_AHEAD_DAYS"


def pytest_configure(config):
    days = os.environ.get(CLOCK_AHEAD_DAYS)
    if days:
        ahead = datetime.now(UTC) + timedelta(days=int(days))
        config._tidings_clock = time_machine.travel(ahead, tick=True)
        config._tidings_clock.start()


def pytest_unconfigure(config):
    if clock := getattr(config, "_tidings_clock", None):
        clock.stop()


def pytest_report_header(config):
    if getattr(config, "_tidings_clock", None):
        return f"the clock is {os.environ[CLOCK_AHEAD_DAYS]} days ahead: {timezone.now():%Y-%m-%d}"
    return None


def chromium_missing() -> str | None:
    """Why browser tests cannot run here, or None when they can: the system Chromium the
    product drives (Debian's `chromium` package; CI installs it, nothing downloads one)."""
    if browser.available():
        return None
    return f"needs Chromium at {browser.CHROMIUM_PATH} (Debian's chromium package); not there"


# For a module or test that launches Chromium: skipped, saying why, when it is not installed.
requires_chromium = pytest.mark.skipif(
    chromium_missing() is not None, reason=chromium_missing() or ""
)


@pytest.fixture(autouse=True)
def _no_network(monkeypatch):
    """Only loopback connections are allowed anywhere in the suite."""
    real_connect = socket.socket.connect

    def guarded_connect(self, address):
        host = address[0] if isinstance(address, tuple) else address
        if (
            isinstance(host, str)
            and host not in ("127.0.0.1", "::1", "localhost")
            and not (host.startswith("/"))
        ):
            raise RuntimeError(f"test tried to reach the network: {address!r}")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _default_language():
    """A request leaves its language active in the thread (Django never deactivates it), so a
    Chinese page in one test would turn the next test's messages Chinese."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def now() -> datetime:
    return datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


def make_user(email: str, password: str = "correct horse battery staple", **kwargs):
    return sign_up(email=email, password=password, now=kwargs.pop("now", timezone.now()), **kwargs)


def api_client_for(user):
    """An API client that sends a fresh personal token of `user`."""
    from rest_framework.test import APIClient

    from inbox.tokens import issue_token

    client = APIClient()
    _row, clear = issue_token(user, "tests")
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {clear}")
    return client


@pytest.fixture
def api(alice):
    """Alice's API client, authenticated with her personal token."""
    return api_client_for(alice)


@pytest.fixture
def compiles(monkeypatch):
    """The models of the queries the ORM compiles to SQL from here on (config/compiled_query.py
    keeps hot ones compiled)."""
    from django.db.models.sql.compiler import SQLCompiler

    counted = []
    original = SQLCompiler.as_sql

    def counting(self, *args, **kwargs):
        counted.append(self.query.model)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SQLCompiler, "as_sql", counting)
    return counted


@pytest.fixture
def alice(db):
    return make_user("alice@example.com", timezone="Europe/Berlin")


@pytest.fixture
def bob(db):
    return make_user("bob@example.com")


@dataclass
class Route:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


class FixtureServer:
    """A real HTTP server on 127.0.0.1 serving canned routes; records every request."""

    def __init__(self):
        self.routes: dict[str, Route] = {}
        self.requests: list[tuple[str, dict[str, str]]] = []
        self.posts: list[tuple[str, dict[str, str], bytes]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                server.requests.append((self.path, dict(self.headers)))
                route = server.routes.get(self.path)
                if route is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(route.status)
                for name, value in route.headers.items():
                    self.send_header(name, value)
                if "Content-Length" not in route.headers:
                    self.send_header("Content-Length", str(len(route.body)))
                self.end_headers()
                self.wfile.write(route.body)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                server.posts.append((self.path, dict(self.headers), body))
                self.do_GET()

            def log_message(self, *args):
                pass

        self.loopback = LoopbackServer(Handler)
        self.port = self.loopback.port

    def url(self, path: str) -> str:
        return self.loopback.url(path)

    def add(self, path: str, body: bytes | str = b"", status: int = 200, **headers) -> str:
        if isinstance(body, str):
            body = body.encode()
        self.routes[path] = Route(
            status, body, {k.replace("_", "-"): v for k, v in headers.items()}
        )
        return self.url(path)


@pytest.fixture
def fixture_server() -> Iterator[FixtureServer]:
    """Serves on http://localhost:<port>/; the fetcher may reach it only because this fixture
    switches on the test-only loopback allowance for the name 'localhost'."""
    server = FixtureServer()
    with server.loopback, override_settings(FETCH_TEST_ONLY_LOOPBACK_HOSTS=("localhost",)):
        yield server


@pytest.fixture
def smtp_server():
    """A real SMTP server on 127.0.0.1 that Django's email backend sends through."""
    from tests.smtp_server import LoopbackSMTPServer

    server = LoopbackSMTPServer().start()
    with override_settings(**server.settings()):
        yield server
    server.stop()


def redis_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5) as probe:
            probe.sendall(b"PING\r\n")
            return probe.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@pytest.fixture
def redis_cache_settings() -> Iterator[dict]:
    """CACHES for a Redis cache of this test alone: a key prefix no other test run shares
    (several suites may run on one machine), and only its own keys are deleted afterwards —
    never FLUSHDB, which would empty other runs' keys too."""
    import uuid

    import redis

    if not redis_reachable():
        pytest.skip("Redis is not reachable on 127.0.0.1:6379")
    prefix = f"tidings-tests-{uuid.uuid4().hex[:12]}"
    caches = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:6379/15",
            "KEY_PREFIX": prefix,
        }
    }
    with override_settings(CACHES=caches):
        yield caches
    client = redis.Redis.from_url("redis://127.0.0.1:6379/15")
    for key in client.scan_iter(match=f"{prefix}:*", count=500):
        client.delete(key)
    client.close()
