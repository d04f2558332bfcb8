"""The throttles' counters (config/api/rate_window.py): bounded whatever the rate, never past the
limit, and DRF's own counting when requests are sparse."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.test import override_settings

from config.api import throttling
from config.api.rate_window import CACHE_FORMAT, SLICES, USER_ENTRY_FORMAT, RateWindow
from config.api.throttling import ApiRateThrottle, LiveUserRateThrottle


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def user_rate(rate: str):
    from django.conf import settings

    return override_settings(
        REST_FRAMEWORK={
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {
                **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                "user": rate,
            },
        }
    )


def ask(user, at: float):
    """One request of `user` at the instant `at`, through the user throttle: (allowed, throttle)."""
    throttle = LiveUserRateThrottle()
    throttle.timer = lambda: at
    request = SimpleNamespace(user=user, auth=None, META={}, _request=SimpleNamespace())
    return throttle.allow_request(request, None), throttle


def stored_counter(user):
    """The user throttle's counter, in the user's entry of counters."""
    entry = cache.get(USER_ENTRY_FORMAT % user.pk)
    _duration, window = entry[CACHE_FORMAT % {"scope": "user", "ident": user.pk}]
    return window


def test_the_counter_stays_small_at_any_rate(alice):
    """DRF stored a timestamp per request: 6,000 a minute was 6,000 floats pickled per request."""
    with user_rate("1000000/min"):
        for n in range(6000):
            assert ask(alice, 1_000.0 + n * 0.01)[0]  # 100 requests a second for a minute
        counter = stored_counter(alice)
        assert len(counter) <= SLICES + 1
        assert RateWindow(counter, now=1_060.0, duration=60).count == 6000


def test_the_limit_is_never_exceeded_in_any_window(alice):
    rng = random.Random(7)
    moments = sorted(1_000.0 + rng.uniform(0, 600) for _ in range(3000))
    allowed = []
    with user_rate("40/min"):
        for moment in moments:
            if ask(alice, moment)[0]:
                allowed.append(moment)
    assert len(allowed) > 300  # the allowance came back, window after window
    for index, moment in enumerate(allowed):
        in_window = [m for m in allowed[: index + 1] if m > moment - 60]
        assert len(in_window) <= 40, moment


def test_sparse_requests_are_counted_exactly_as_drf_counts_them(alice):
    """Below one request per slice (a second of a minute), each slice holds one request: the
    answers, the headers and the wait are DRF's list of timestamps."""
    rng = random.Random(3)
    moment, history, answers, expected = 1_000.0, [], [], []
    with user_rate("5/min"):
        for _ in range(200):
            moment += rng.uniform(1.01, 30)
            while history and history[-1] <= moment - 60:
                history.pop()
            fits = len(history) < 5
            if fits:
                history.insert(0, moment)
            allowed, throttle = ask(alice, moment)
            answers.append((allowed, throttle.window.count))
            expected.append((fits, len(history)))
            if not allowed:
                drf_wait = (60 - (moment - history[-1])) / (5 - len(history) + 1)
                assert throttle.wait() == pytest.approx(drf_wait)
    assert answers == expected
    assert any(not allowed for allowed, _ in answers)


def test_a_spent_allowance_comes_back_at_most_one_slice_late(alice):
    with user_rate("100/min"):
        for n in range(100):
            assert ask(alice, 1_000.0 + n * 0.005)[0]  # all in the first slice
        last = 1_000.0 + 99 * 0.005
        assert not ask(alice, last + 59.9)[0]
        assert ask(alice, last + 60.01)[0]


def test_a_process_on_the_code_before_reads_its_own_counters(alice):
    """DRF's list of timestamps and the window are kept under different keys: a process still
    on the previous code (a rolling deploy, a rollback) never reads a window and fails on it."""
    from rest_framework.throttling import UserRateThrottle

    with user_rate("4/min"):
        assert ask(alice, 1_000.0)[0]
        old = UserRateThrottle()
        old.timer = lambda: 1_001.0
        request = SimpleNamespace(user=alice, auth=None, META={}, _request=SimpleNamespace())
        assert old.allow_request(request, None)
        assert cache.get(old.cache_format % {"scope": "user", "ident": alice.pk}) == [1_001.0]
        assert RateWindow(stored_counter(alice), now=1_001.0, duration=60).count == 1


@pytest.mark.parametrize(
    "junk", ["text", 12, [["a"]], [None, "x"], [1_000.0, 990.0], [["a", "b", "c"]], {"a": 1}]
)
@pytest.mark.parametrize("where", ["counter", "entry"])
def test_a_damaged_counter_counts_nothing_and_is_replaced(alice, junk, where):
    entry = USER_ENTRY_FORMAT % alice.pk
    if where == "entry":
        cache.set(entry, junk, 60)
    else:
        cache.set(entry, {CACHE_FORMAT % {"scope": "user", "ident": alice.pk}: [60, junk]}, 60)
    with user_rate("2/min"):
        assert ask(alice, 1_000.0)[0]
        assert RateWindow(stored_counter(alice), now=1_000.0, duration=60).count == 1


def test_a_users_counters_share_one_entry_and_idle_ones_leave_it(alice, monkeypatch):
    """The user's counter and each token's, in one cache entry (one read and one write per
    request); a token's counter leaves the entry once its requests have left the window."""
    now = [1_000.0]
    monkeypatch.setattr(throttling._LiveRate, "timer", staticmethod(lambda: now[0]))

    def api_call(token_id: int, at: float) -> bool:
        now[0] = at
        request = SimpleNamespace(
            user=alice, auth=SimpleNamespace(pk=token_id), META={}, _request=SimpleNamespace()
        )
        return ApiRateThrottle().allow_request(request, None)

    def counts() -> dict:
        entry = cache.get(USER_ENTRY_FORMAT % alice.pk)
        return {
            key.removeprefix("throttle_window_"): RateWindow(
                window, now=now[0], duration=duration
            ).count
            for key, (duration, window) in entry.items()
        }

    with user_rate("100/min"):
        assert api_call(1, 1_000.0) and api_call(1, 1_001.0) and api_call(2, 1_010.0)
        assert counts() == {f"user_{alice.pk}": 3, "token_1": 2, "token_2": 1}
        assert api_call(2, 1_065.0)  # token 1's requests left the window at 1,061
        assert counts() == {f"user_{alice.pk}": 2, "token_2": 2}
