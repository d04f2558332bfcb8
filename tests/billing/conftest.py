"""Billing tests open accounts at the suite's `now`, so periods and resets are predictable."""

from __future__ import annotations

import pytest

from tests.conftest import make_user


@pytest.fixture
def alice(db, now):
    return make_user("alice@example.com", timezone="Europe/Berlin", now=now)


@pytest.fixture
def bob(db, now):
    return make_user("bob@example.com", now=now)
