"""Every answer to a signed-in user says `Cache-Control: private, no-store`
(config/private_cache.py): this walks every URL pattern of the project, as a signed-in browser
and, under /api/, as an API token, whatever the answer (a page, a redirect, a 404, a 405)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from config.private_cache import READING_APP_PREFIXES
from inbox.tokens import issue_token

# The public topics API is the same for everyone (its views take no authentication, so the
# answer is anonymous whoever asks) and says so with `public, max-age`; /api/ itself is no view.
PUBLIC = ("/api/v1/public/",)
NOT_VIEWS = ("/api/",)

# Argument values by converter: the walk checks headers, not what each page shows.
SAMPLE = {"int": "1", "str": "sample", "slug": "sample", "path": "sample/path", "uuid": ""}
SAMPLE_UUID = "00000000-0000-0000-0000-000000000001"


def _fill(route: str) -> str:
    def value(match: re.Match) -> str:
        converter = match.group(1) or "str"
        return SAMPLE_UUID if converter == "uuid" else SAMPLE.get(converter, "sample")

    return re.sub(r"<(?:(\w+):)?\w+>", value, route)


def every_path() -> list[str]:
    paths: list[str] = []

    def walk(patterns, prefix: str) -> None:
        for pattern in patterns:
            route = str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + route)
            elif isinstance(pattern, URLPattern) and not route.startswith("^"):
                paths.append("/" + _fill(prefix + route).lstrip("/"))

    walk(get_resolver().url_patterns, "")
    return sorted({p for p in paths if "(?P" not in p and "^" not in p and "$" not in p})


def test_the_walk_covers_the_private_pages_and_the_api():
    paths = every_path()
    for expected in ["/inbox/", "/credits/", "/inbox/tokens/", "/api/v1/subscriptions"]:
        assert any(p.rstrip("/") == expected.rstrip("/") for p in paths), expected
    assert len(paths) > 80


@pytest.fixture
def browser(alice):
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    return client


def test_every_page_to_a_signed_in_browser_is_private_no_store(browser):
    missing = {}
    for path in every_path():
        if path.startswith(("/static/", *PUBLIC)) or path in NOT_VIEWS:
            continue
        response = browser.get(path)
        revalidated = path.startswith("/api/") and not path.startswith(READING_APP_PREFIXES)
        wanted = "private, no-cache" if revalidated else "private, no-store"
        if response.get("Cache-Control") != wanted:
            missing[path] = (response.status_code, response.get("Cache-Control"))
    assert not missing


def test_every_api_answer_to_a_token_is_private_and_revalidated(alice):
    _row, clear = issue_token(alice, "walk")
    api = APIClient(raise_request_exception=False)
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {clear}")
    missing = {}
    for path in every_path():
        if not path.startswith("/api/") or path.startswith(PUBLIC) or path in NOT_VIEWS:
            continue
        response = api.get(path)
        if path.startswith(READING_APP_PREFIXES):
            # Their own app passwords refuse this token; every answer there is private anyway.
            if response.get("Cache-Control") != "private, no-store":
                missing[path] = (response.status_code, response.get("Cache-Control"))
            continue
        # Kept by the client only, and asked again each time (its ETag makes that a 304).
        if response.status_code == 401 or response.get("Cache-Control") != "private, no-cache":
            missing[path] = (response.status_code, response.get("Cache-Control"))
        elif response.status_code == 200 and not response.streaming and not response.get("ETag"):
            missing[path] = (response.status_code, "no ETag")
    assert not missing


def test_an_anonymous_public_page_stays_shareable(db):
    response = Client().get("/topics")
    assert "public" in response.get("Cache-Control", "")
