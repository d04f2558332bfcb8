"""Times on console pages use the one formatter (config/moments.py): an absolute time with its
zone, never a bare relative "3 hours ago"."""

from __future__ import annotations

from datetime import datetime

import pytest

from inbox.models import ApiToken
from inbox.tokens import issue_token

pytestmark = pytest.mark.django_db


def test_a_tokens_last_use_is_shown_with_its_zone(client, alice):
    row, _clear = issue_token(alice, "laptop")
    ApiToken.objects.filter(pk=row.pk).update(
        last_used_at=datetime.fromisoformat("2026-11-28T14:10:00+00:00")
    )
    client.force_login(alice)
    body = client.get("/inbox/tokens/").content.decode()
    assert "28 Nov 2026, 15:10 CET</time>" in body  # Alice's zone is Europe/Berlin
    assert " ago" not in body
