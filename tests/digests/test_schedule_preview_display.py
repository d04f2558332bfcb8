"""The schedule preview's runs come worded by the product's one time format (config/moments.py):
the reader's language, local time with its zone — the form shows these, not the browser's own
format ("Sun, Nov 29, 2026, 08:00 GMT+1")."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

PREVIEW = "/api/v1/schedule/preview"
QUERY = {
    "cron": "0 8 * * *",
    "timezone": "Europe/Berlin",
    "count": 1,
    "after": "2026-11-28T12:00:00+00:00",
}


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "29 Nov 2026, 08:00 CET"), ("zh-hans", "2026年11月29日 08:00 CET")],
)
def test_the_next_runs_are_worded_in_the_readers_language_with_the_zone(language, expected):
    body = APIClient().get(PREVIEW, QUERY, HTTP_ACCEPT_LANGUAGE=language).json()
    assert body["next_runs"] == ["2026-11-29T07:00:00Z"]
    assert body["next_runs_display"] == [expected]
