"""Most Apprise tests drive sending by hand, with the injected clock (`apprise.send_due`), as the
tick does. The task that sends a run's notifications at once would run inline here (the test
queue is synchronous) on the wall clock, so it is 'lost' — exactly the case the tick covers —
unless a test asks for `apprise_right_away`."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _apprise_sends_left_to_the_tick(request, monkeypatch):
    if "apprise_right_away" not in request.fixturenames:
        monkeypatch.setattr("digests.tasks.enqueue_apprise", lambda run_id: False)


@pytest.fixture
def apprise_right_away():
    """The run's Apprise task runs as it would in production (inline in tests)."""
