"""The combination cache (seed 002): identical inputs make one LLM call, whoever asks."""

from __future__ import annotations

import threading
import time
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.urls import reverse
from rest_framework.test import APIClient

from digests.ai import combination_cache
from digests.ai.combination_cache import combination_key, get_or_compute
from digests.models import CombinationCacheCounter, CombinationCacheEntry
from inbox.tokens import issue_token

pytestmark = pytest.mark.django_db

WINDOW = (datetime(2026, 11, 20, tzinfo=UTC), datetime(2026, 11, 21, tzinfo=UTC))
OPTIONS = {"locale": "en", "length": "standard", "tone": "neutral", "prompt_version": "n1"}
ITEMS = ["hash-a", "hash-b", "hash-c"]


def key(kind: str = "narrative", **changes) -> str:
    arguments = {"inputs": ITEMS, "options": OPTIONS, "window": WINDOW} | changes
    return combination_key(kind, **arguments)


class FakeWriter:
    """Stands in for the LLM: counts its calls, returns deterministic token usage."""

    def __init__(self, text: str = "Today in databases…", *, delay: float = 0.0, fail=0):
        self.text = text
        self.delay = delay
        self.failures_left = fail
        self.calls = 0
        self.lock = threading.Lock()

    def __call__(self):
        with self.lock:
            self.calls += 1
            fail = self.failures_left > 0
            self.failures_left -= 1
        time.sleep(self.delay)
        if fail:
            raise TimeoutError("the model did not answer in time")
        return {"markdown": self.text}, 1200, 300


def counter(kind: str = "narrative") -> CombinationCacheCounter:
    return CombinationCacheCounter.objects.get(kind=kind)


# --- Keys -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "same"),
    [
        ("inputs in another order", lambda: key(inputs=list(reversed(ITEMS)))),
        ("inputs repeated", lambda: key(inputs=[*ITEMS, "hash-a"])),
        ("inputs as a set", lambda: key(inputs=set(ITEMS))),
        ("options in another order", lambda: key(options=dict(reversed(OPTIONS.items())))),
        (
            "the same window written in Berlin time",
            lambda: key(window=tuple(m.astimezone(ZoneInfo("Europe/Berlin")) for m in WINDOW)),
        ),
    ],
)
def test_the_key_does_not_depend_on_how_the_same_inputs_are_written(label, same):
    assert same() == key()


@pytest.mark.parametrize(
    "changes",
    [
        {"kind": "summary"},
        {"inputs": [*ITEMS, "hash-d"]},
        {"inputs": ITEMS[:2]},
        {"inputs": [1, 2]},
        {"inputs": ["1", "2"]},
        {"options": OPTIONS | {"locale": "zh-hans"}},
        {"options": OPTIONS | {"length": "brief"}},
        {"options": OPTIONS | {"tone": "playful"}},
        {"options": OPTIONS | {"prompt_version": "n2"}},
        {"options": OPTIONS | {"model": "claude-haiku"}},
        {"options": {k: v for k, v in OPTIONS.items() if k != "tone"}},
        {"window": (WINDOW[0] + timedelta(days=1), WINDOW[1] + timedelta(days=1))},
        {"window": (WINDOW[0], WINDOW[1] + timedelta(hours=4))},
        {"window": None},
    ],
    ids=lambda changes: ",".join(f"{k}={v!r}"[:40] for k, v in changes.items()),
)
def test_any_change_of_kind_inputs_options_or_window_makes_a_new_key(changes):
    assert key(**changes) != key()


def test_every_variation_gets_its_own_key_and_keys_are_sha256_hex():
    variants = [
        key(options=OPTIONS | {"locale": locale}, window=window)
        for locale in ("en", "zh-hans", "de")
        for window in (WINDOW, (WINDOW[0], WINDOW[1] + timedelta(days=6)))
    ]
    assert len(set(variants)) == 6
    assert all(len(k) == 64 and int(k, 16) >= 0 for k in variants)


def test_the_canonical_form_is_pinned_so_stored_keys_keep_matching():
    # Changing the canonical form silently would turn every stored entry into a miss; bump
    # KEY_FORMAT instead, and update this value.
    assert key() == combination_key(
        "narrative",
        inputs=["hash-c", "hash-a", "hash-b"],
        options={"tone": "neutral", "prompt_version": "n1", "locale": "en", "length": "standard"},
        window=WINDOW,
    )
    assert key() == "73b5bd5da27f0caa4378e428c3b1d50f76e4fdb02d1a267a45087dca932ba6b0"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"kind": "poem"}, "kind"),
        ({"window": (datetime(2026, 11, 20), datetime(2026, 11, 21))}, "timezone-aware"),
        ({"window": (WINDOW[1], WINDOW[0])}, "end is before the start"),
        ({"options": {"since": WINDOW[0]}}, "options"),
        ({"inputs": "hash-a"}, "inputs"),
    ],
)
def test_malformed_key_parts_are_refused_with_the_part_named(arguments, message):
    with pytest.raises(ValueError, match=message):
        key(**arguments)


# --- Get or compute ---------------------------------------------------------------------


def test_identical_requests_make_one_call_and_count_hits_misses_and_tokens_saved(now):
    writer = FakeWriter()
    first = get_or_compute("narrative", key(), writer, now=now, inputs_desc={"items": ITEMS})
    second = get_or_compute("narrative", key(), writer, now=now + timedelta(minutes=5))
    third = get_or_compute("narrative", key(), writer, now=now + timedelta(minutes=9))
    assert writer.calls == 1
    assert (first.hit, second.hit, third.hit) == (False, True, True)
    assert first.value == second.value == third.value == {"markdown": "Today in databases…"}
    assert (second.input_tokens, second.output_tokens) == (1200, 300)
    entry = CombinationCacheEntry.objects.get()
    assert (entry.state, entry.hits, entry.inputs) == ("ready", 2, {"items": ITEMS})
    assert entry.last_hit_at == now + timedelta(minutes=9)
    assert entry.expires_at == now + timedelta(days=14)
    figures = counter()
    assert (figures.hits, figures.misses, figures.tokens_saved) == (2, 1, 3000)


def test_different_options_do_not_share_a_result(now):
    writer = FakeWriter()
    english = get_or_compute("narrative", key(), writer, now=now)
    chinese = get_or_compute(
        "narrative", key(options=OPTIONS | {"locale": "zh-hans"}), writer, now=now
    )
    assert writer.calls == 2
    assert not english.hit and not chinese.hit


def test_a_hit_takes_three_queries(now, django_assert_num_queries):
    get_or_compute("narrative", key(), FakeWriter(), now=now)
    with django_assert_num_queries(3):  # read, bump the entry, bump the counter
        assert get_or_compute("narrative", key(), FakeWriter(), now=now).hit


def test_an_expired_entry_is_a_miss_and_is_computed_again(now, settings):
    settings.COMBINATION_CACHE_TTL_HOURS = {**settings.COMBINATION_CACHE_TTL_HOURS, "summary": 2}
    writer = FakeWriter()
    get_or_compute("summary", key(kind="summary"), writer, now=now)
    assert get_or_compute("summary", key(kind="summary"), writer, now=now + timedelta(hours=1)).hit
    later = now + timedelta(hours=2)
    again = get_or_compute("summary", key(kind="summary"), writer, now=later)
    assert not again.hit
    assert writer.calls == 2
    entry = CombinationCacheEntry.objects.get()
    assert (entry.state, entry.hits, entry.expires_at) == ("ready", 0, later + timedelta(hours=2))
    assert (counter("summary").hits, counter("summary").misses) == (1, 2)


def test_an_explicit_ttl_wins_over_the_kind_setting(now):
    get_or_compute("narrative", key(), FakeWriter(), now=now, ttl=timedelta(hours=4))
    assert CombinationCacheEntry.objects.get().expires_at == now + timedelta(hours=4)


def test_a_failed_call_is_not_cached_and_the_next_request_retries(now):
    writer = FakeWriter(fail=1)
    with pytest.raises(TimeoutError):
        get_or_compute("narrative", key(), writer, now=now)
    failed = CombinationCacheEntry.objects.get()
    assert failed.state == "failed"
    assert "TimeoutError" in failed.value["error"]
    retried = get_or_compute("narrative", key(), writer, now=now + timedelta(minutes=1))
    assert (retried.hit, retried.value, writer.calls) == (False, {"markdown": writer.text}, 2)
    assert CombinationCacheEntry.objects.get().state == "ready"
    assert get_or_compute("narrative", key(), writer, now=now + timedelta(minutes=2)).hit


@pytest.mark.parametrize(
    "bad_result",
    [("not a dict", 1, 1), ({"markdown": "x"}, -1, 0), ({"at": WINDOW[0]}, 1, 1)],
    ids=["value not a dict", "negative tokens", "value not JSON"],
)
def test_a_malformed_compute_result_is_refused_and_not_cached(now, bad_result):
    with pytest.raises((TypeError, ValueError)):
        get_or_compute("narrative", key(), lambda: bad_result, now=now)
    assert CombinationCacheEntry.objects.get().state == "failed"


def test_a_failure_inside_an_outer_transaction_leaves_that_transaction_usable(now, alice):
    with transaction.atomic():
        with pytest.raises(TimeoutError):
            get_or_compute("narrative", key(), FakeWriter(fail=1), now=now)
        alice.first_name = "Alice"
        alice.save()  # would raise if the failure had broken the transaction
        assert get_or_compute("narrative", key(), FakeWriter(), now=now).hit is False
    assert CombinationCacheEntry.objects.get().state == "ready"


def pending_claim(now, *, age: timedelta, token: str = "crashed-worker", lease_expires_at=None):
    return CombinationCacheEntry.objects.create(
        key=key(),
        kind="narrative",
        state="pending",
        value={"claim": token},
        created_at=now - age,
        expires_at=now + timedelta(days=14),
        lease_expires_at=lease_expires_at,
    )


def test_a_claim_whose_heartbeat_stopped_is_taken_over_without_waiting_out_the_lease(now):
    # Claimed a moment ago, but its worker died: the heartbeat stopped renewing its lease.
    pending_claim(now, age=timedelta(seconds=1), lease_expires_at=now - timedelta(seconds=1))
    writer = FakeWriter()
    started = time.monotonic()
    result = get_or_compute("narrative", key(), writer, now=now)
    assert time.monotonic() - started < 1
    assert (result.hit, writer.calls) == (False, 1)
    entry = CombinationCacheEntry.objects.get()
    assert (entry.state, entry.attempts, entry.lease_expires_at) == ("ready", 1, None)


def test_a_claim_whose_heartbeat_renews_it_is_waited_for(now, settings):
    pending_claim(now, age=timedelta(0), lease_expires_at=now + timedelta(seconds=30))
    settings.COMBINATION_CACHE_LEASE_SECONDS = 0.3  # the backstop for a claim that never ends
    writer = FakeWriter()
    started = time.monotonic()
    result = get_or_compute("narrative", key(), writer, now=now)
    assert time.monotonic() - started >= 0.3
    assert (result.waited, writer.calls) == (True, 1)


def test_a_stale_pending_claim_of_a_crashed_worker_is_taken_over_at_once(now, settings):
    pending_claim(now, age=timedelta(seconds=settings.COMBINATION_CACHE_LEASE_SECONDS + 1))
    writer = FakeWriter()
    started = time.monotonic()
    result = get_or_compute("narrative", key(), writer, now=now)
    assert time.monotonic() - started < 1
    assert (result.hit, result.waited, writer.calls) == (False, False, 1)
    entry = CombinationCacheEntry.objects.get()
    assert (entry.state, entry.value, entry.created_at) == ("ready", {"markdown": writer.text}, now)


def test_a_waiter_takes_over_a_claim_that_outlives_the_lease(now, settings):
    settings.COMBINATION_CACHE_LEASE_SECONDS = 0.2
    pending_claim(now, age=timedelta(0))  # fresh, but its worker never finishes
    writer = FakeWriter()
    result = get_or_compute("narrative", key(), writer, now=now)
    assert (result.hit, result.waited, writer.calls) == (False, True, 1)
    assert CombinationCacheEntry.objects.get().state == "ready"


def test_a_worker_whose_claim_was_taken_over_does_not_overwrite_the_new_result(now, settings):
    lease = timedelta(seconds=settings.COMBINATION_CACHE_LEASE_SECONDS)
    newer = FakeWriter("the newer narrative")

    def slow_writer():
        # While this worker is "stuck", its claim ages past the lease and another takes over.
        CombinationCacheEntry.objects.update(
            created_at=now - lease - timedelta(seconds=1), lease_expires_at=now
        )
        assert not get_or_compute("narrative", key(), newer, now=now).hit
        return {"markdown": "the late narrative"}, 10, 10

    late = get_or_compute("narrative", key(), slow_writer, now=now)
    assert late.value == {"markdown": "the late narrative"}  # the caller still gets its result
    assert CombinationCacheEntry.objects.get().value == {"markdown": "the newer narrative"}
    assert get_or_compute("narrative", key(), FakeWriter(), now=now).value == {
        "markdown": "the newer narrative"
    }


# --- Concurrency (PostgreSQL) -----------------------------------------------------------


def run_concurrently(count: int, request) -> tuple[list, list]:
    barrier = threading.Barrier(count)
    results, errors = [], []

    def work(index):
        try:
            barrier.wait()
            results.append(request(index))
        except Exception as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results, errors


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_identical_requests_make_exactly_one_call(now):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent claims are tested on PostgreSQL")
    writer = FakeWriter(delay=0.3)
    results, errors = run_concurrently(
        8, lambda _n: get_or_compute("narrative", key(), writer, now=now)
    )
    assert errors == []
    assert writer.calls == 1
    assert sorted(r.hit for r in results) == [False] + [True] * 7
    assert all(r.value == {"markdown": writer.text} for r in results)
    assert sum(r.waited for r in results) == 7
    assert (counter().hits, counter().misses) == (7, 1)
    assert CombinationCacheEntry.objects.get().hits == 7


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_when_the_one_call_fails_a_single_waiter_calls_again_for_the_others(now):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent claims are tested on PostgreSQL")
    writer = FakeWriter(delay=0.3, fail=1)
    results, errors = run_concurrently(
        6, lambda _n: get_or_compute("narrative", key(), writer, now=now)
    )
    assert [type(e) for e in errors] == [TimeoutError]  # only the failed call's own request
    assert writer.calls == 2
    assert len(results) == 5
    assert sorted(r.hit for r in results) == [False] + [True] * 4
    assert CombinationCacheEntry.objects.get().state == "ready"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_identical_requests_inside_their_own_transactions_still_make_one_call(now, alice):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent claims are tested on PostgreSQL")
    writer = FakeWriter(delay=0.3)

    def request(n):
        with transaction.atomic():
            result = get_or_compute("narrative", key(), writer, now=now)
            # The transaction survived a lost race on the unique key.
            type(alice).objects.filter(pk=alice.pk).update(last_name=f"run {n}")
        return result

    results, errors = run_concurrently(4, request)
    assert errors == []
    assert writer.calls == 1
    assert sorted(r.hit for r in results) == [False, True, True, True]


# --- Clearing, expiry and statistics ----------------------------------------------------


def cached(now, *, locale: str, created_at: datetime | None = None) -> CombinationCacheEntry:
    entry_key = key(options=OPTIONS | {"locale": locale})
    get_or_compute("narrative", entry_key, FakeWriter(), now=created_at or now)
    return CombinationCacheEntry.objects.get(key=entry_key)


def test_delete_expired_removes_only_what_has_expired(now):
    old = cached(now, locale="en", created_at=now - timedelta(days=15))
    fresh = cached(now, locale="de")
    assert combination_cache.delete_expired(now) == 1
    assert list(CombinationCacheEntry.objects.values_list("pk", flat=True)) == [fresh.pk]
    assert not CombinationCacheEntry.objects.filter(pk=old.pk).exists()


def test_the_hourly_sweep_runs_once_per_hour(now):
    cached(now, locale="en", created_at=now - timedelta(days=15))
    assert combination_cache.delete_expired_hourly(now) == 1
    cached(now, locale="de", created_at=now - timedelta(days=15))
    assert combination_cache.delete_expired_hourly(now + timedelta(minutes=30)) is None
    assert CombinationCacheEntry.objects.count() == 1
    assert combination_cache.delete_expired_hourly(now + timedelta(hours=1)) == 1
    assert CombinationCacheEntry.objects.count() == 0


def test_the_minutely_dispatcher_deletes_expired_entries_once_an_hour(now, time_machine):
    from digests.tasks import dispatch_tick

    time_machine.move_to(now, tick=False)
    cached(now, locale="en", created_at=now - timedelta(days=15))
    dispatch_tick()
    assert CombinationCacheEntry.objects.count() == 0
    cached(now, locale="de", created_at=now - timedelta(days=15))
    dispatch_tick()  # same hour: not again
    assert CombinationCacheEntry.objects.count() == 1


def test_the_management_command_clears_expired_entries(now, capsys, time_machine):
    time_machine.move_to(now, tick=False)
    cached(now, locale="en", created_at=now - timedelta(days=15))
    cached(now, locale="de")
    call_command("clear_combination_cache", "--expired")
    assert "deleted 1 combination cache entries" in capsys.readouterr().out
    assert CombinationCacheEntry.objects.count() == 1


def test_statistics_by_kind(now):
    writer = FakeWriter()
    get_or_compute("narrative", key(), writer, now=now)
    get_or_compute("narrative", key(), writer, now=now)
    get_or_compute("narrative", key(), writer, now=now)
    get_or_compute("summary", key(kind="summary"), writer, now=now)
    figures = combination_cache.stats(now=now)
    assert figures["by_kind"]["narrative"] == {
        "hits": 2,
        "misses": 1,
        "requests": 3,
        "hit_rate": 0.6667,
        "tokens_saved": 3000,
        "unique_keys": 1,
        "ready": 1,
        "expired": 0,
        "pending": 0,
        "failed": 0,
    }
    assert (figures["hits"], figures["misses"], figures["hit_rate"]) == (2, 2, 0.5)
    assert figures["unique_keys"] == 2
    assert figures["by_kind"]["relevance"]["hit_rate"] is None
    # Narratives are kept 14 days, summaries 30.
    assert combination_cache.stats(now=now + timedelta(days=15))["expired"] == 1
    assert combination_cache.stats(now=now + timedelta(days=31))["expired"] == 2


# --- Admin ------------------------------------------------------------------------------

CHANGELIST = "admin:digests_combinationcacheentry_changelist"
CLEAR = "admin:digests_combinationcacheentry_clear"


def test_the_admin_list_shows_hit_rate_and_unique_keys(admin_client, now):
    writer = FakeWriter()
    for _ in range(3):
        get_or_compute("narrative", key(), writer, now=now)
    page = admin_client.get(reverse(CHANGELIST))
    assert page.status_code == 200
    stats = page.context["cache_stats"]
    assert (stats["hits"], stats["misses"], stats["unique_keys"]) == (2, 1, 1)
    assert "66.7 %" in page.text
    assert reverse(CLEAR) in page.text


@pytest.mark.parametrize(
    ("form", "left"),
    [
        ({"scope": "key", "key": "KEY-OF-de"}, {"en", "zh-hans"}),
        ({"scope": "before", "before": "2026-11-19"}, {"de", "zh-hans"}),
        ({"scope": "all"}, set()),
    ],
    ids=["by key", "before a date", "all"],
)
def test_admins_clear_by_key_before_a_date_or_all(admin_client, now, form, left):
    entries = {
        "en": cached(now, locale="en", created_at=now - timedelta(days=3)),
        "de": cached(now, locale="de", created_at=now - timedelta(hours=1)),
        "zh-hans": cached(now, locale="zh-hans"),
    }
    if form.get("key") == "KEY-OF-de":
        form = form | {"key": entries["de"].key}
    response = admin_client.post(reverse(CLEAR), form, follow=True)
    assert response.status_code == 200
    assert "Cleared" in response.text
    remaining = set(CombinationCacheEntry.objects.values_list("key", flat=True))
    assert remaining == {entries[locale].key for locale in left}
    assert counter().misses == 3  # statistics survive clearing


@pytest.mark.parametrize(
    ("form", "field"),
    [
        ({"scope": "key", "key": ""}, "key"),
        ({"scope": "key", "key": "not-a-key"}, "key"),
        ({"scope": "before", "before": ""}, "before"),
        ({"scope": "before", "before": "20 Nov"}, "before"),
        ({}, "scope"),
    ],
)
def test_an_incomplete_clear_form_names_the_field_and_deletes_nothing(
    admin_client, now, form, field
):
    cached(now, locale="en")
    response = admin_client.post(reverse(CLEAR), form)
    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert CombinationCacheEntry.objects.count() == 1


def test_the_clear_page_is_for_staff_only(client, alice, now):
    cached(now, locale="en")
    client.force_login(alice)
    response = client.post(reverse(CLEAR), {"scope": "all"})
    assert response.status_code == 302  # to the admin login
    assert CombinationCacheEntry.objects.count() == 1


def test_admins_reset_the_counters(admin_client, now):
    cached(now, locale="en")
    response = admin_client.post(
        reverse("admin:digests_combinationcachecounter_changelist"),
        {"action": "reset", "_selected_action": [counter().pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert (counter().hits, counter().misses, counter().tokens_saved) == (0, 0, 0)


# --- API --------------------------------------------------------------------------------

STATS_URL = "/api/v1/admin/cache/stats"
ENTRIES_URL = "/api/v1/admin/cache/entries"


def token_client(user) -> APIClient:
    client = APIClient()
    _row, clear = issue_token(user, "ops")
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {clear}")
    return client


@pytest.fixture
def staff(alice):
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    return token_client(alice)


def test_staff_tokens_read_the_statistics(staff, now):
    writer = FakeWriter()
    get_or_compute("narrative", key(), writer, now=now)
    get_or_compute("narrative", key(), writer, now=now)
    response = staff.get(STATS_URL)
    assert response.status_code == 200
    body = response.json()
    assert (body["hits"], body["misses"], body["hit_rate"], body["unique_keys"]) == (1, 1, 0.5, 1)
    assert body["by_kind"]["narrative"]["tokens_saved"] == 1500


def test_the_statistics_are_refused_to_non_staff_and_anonymous_callers(bob, client):
    response = token_client(bob).get(STATS_URL)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "permission_denied"
    anonymous = APIClient().get(STATS_URL)
    assert anonymous.status_code == 401
    assert anonymous["WWW-Authenticate"] == "Bearer"


def test_a_staff_session_without_a_token_is_refused(alice, client):
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    api = APIClient()
    api.force_login(alice)
    assert api.get(STATS_URL).status_code == 401


@pytest.mark.parametrize(
    ("query", "left"),
    [
        ("key=KEY-OF-de", {"en", "zh-hans"}),
        ("before=2026-11-19", {"de", "zh-hans"}),
        ("before=2026-11-20T08:30:00%2B00:00", {"zh-hans"}),
        ("expired=true", {"de", "zh-hans"}),
        ("all=true", set()),
    ],
)
def test_staff_clear_through_the_api(staff, now, query, left, time_machine):
    time_machine.move_to(now, tick=False)
    entries = {
        "en": cached(now, locale="en", created_at=now - timedelta(days=30)),
        "de": cached(now, locale="de", created_at=now - timedelta(hours=1)),
        "zh-hans": cached(now, locale="zh-hans"),
    }
    response = staff.delete(f"{ENTRIES_URL}?{query.replace('KEY-OF-de', entries['de'].key)}")
    assert response.status_code == 200
    assert response.json() == {"deleted": 3 - len(left)}
    remaining = set(CombinationCacheEntry.objects.values_list("key", flat=True))
    assert remaining == {entries[locale].key for locale in left}


@pytest.mark.parametrize(
    ("query", "field", "status"),
    [
        # Not exactly one scope: each parameter is valid, not together (422).
        ("", "scope", 422),
        ("all=true&expired=true", "all", 422),
        ("key=abc", "key", 400),
        # The key's own form is checked before how many scopes there are.
        ("key=abc&all=true", "key", 400),
        ("before=yesterday", "before", 400),
        ("all=maybe", "all", 400),
    ],
)
def test_a_malformed_clear_request_names_the_field_and_deletes_nothing(
    staff, now, query, field, status
):
    cached(now, locale="en")
    response = staff.delete(f"{ENTRIES_URL}?{query}")
    assert response.status_code == status
    assert field in response.json()["error"]["fields"]
    if status == 422:
        assert response.json()["error"]["code"] == "invalid_combination"
    assert CombinationCacheEntry.objects.count() == 1


def test_non_staff_cannot_clear(bob, now):
    cached(now, locale="en")
    assert token_client(bob).delete(f"{ENTRIES_URL}?all=true").status_code == 403
    assert APIClient().delete(f"{ENTRIES_URL}?all=true").status_code == 401
    assert CombinationCacheEntry.objects.count() == 1


def test_clear_before_accepts_a_date_as_its_utc_midnight(now):
    cached(now, locale="en", created_at=datetime(2026, 11, 18, 23, 59, tzinfo=UTC))
    cached(now, locale="de", created_at=datetime(2026, 11, 19, 0, 0, tzinfo=UTC))
    assert combination_cache.clear(now=now, before=date(2026, 11, 19)) == 1
