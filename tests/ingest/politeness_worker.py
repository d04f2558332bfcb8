"""The body of a separate worker process for tests/ingest/test_refresh.py: a fresh interpreter
(multiprocessing "spawn") that sets Django up itself, so nothing is shared with the test
process except the Redis cache. Kept apart from the test module, which imports Django models
before Django is set up in a child."""

from __future__ import annotations

import os
import threading


def fetch_in_threads(url: str, caches: dict, fetches: int, barrier, results) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()
    from django.test import override_settings

    from ingest.fetching.fetch import FetchError, fetch

    outcomes: list[str] = []

    def one() -> None:
        try:
            outcomes.append(str(fetch(url).status))
        except FetchError as exc:
            outcomes.append(exc.message)

    with override_settings(CACHES=caches, FETCH_TEST_ONLY_LOOPBACK_HOSTS=("localhost",)):
        barrier.wait(timeout=30)
        threads = [threading.Thread(target=one) for _ in range(fetches)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    results.put(outcomes)
