"""Every id a form control names in aria-describedby exists on the page (its help text, its
error), on the subscription form as a reader meets it — fresh, and after a refusal."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db


def dangling_references(html: str) -> set[str]:
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    named = {
        name for value in re.findall(r'aria-describedby="([^"]+)"', html) for name in value.split()
    }
    return named - ids


def test_aria_describedby_names_only_ids_on_the_page(client, alice):
    client.force_login(alice)
    fresh = client.get("/subscriptions/new/").content.decode()
    assert "aria-describedby" in fresh
    assert dangling_references(fresh) == set()
    refused = client.post(
        "/subscriptions/new/",
        {"name": "", "schedule_preset": "advanced", "cron": "not a schedule", "timezone": "UTC"},
    )
    assert refused.status_code == 200
    html = refused.content.decode()
    assert 'class="error"' in html
    assert dangling_references(html) == set()


def test_the_sources_field_says_why_it_is_empty(client, alice):
    client.force_login(alice)
    html = client.get("/subscriptions/new/").content.decode()
    field = html[html.index('id="field-source_ids"') :]
    field = field[: field.index('class="field', 1)]
    assert 'name="source_ids"' not in field  # nothing to tick
    assert "Your library has no sources yet." in field
