"""The combination cache (seed 002, SPEC §7): identical inputs make one LLM call.

    key = combination_key(kind, inputs=[...], options={...}, window=(start, end))
    result = get_or_compute(kind, key, compute, now=now, inputs_desc={...})
    result.value  # the JSON-able dict `compute()` returned (or the cached one)
    result.hit    # True when this request made no call

`compute()` returns `(value: dict, input_tokens: int, output_tokens: int)`.

Single flight. The first request INSERTs a `pending` row (the unique key decides the winner)
carrying a random claim token, calls `compute()` and stores the value as `ready` only if its
claim still holds. Concurrent identical requests find the `pending` row and poll it with short
sleeps; when it turns `ready` they return it as a hit. The rules when it does not:

- the computation failed (`failed`, or the row was cleared): the waiter computes for itself,
  taking the key over with a conditional UPDATE so that again only one of several waiters
  calls. Every request thus gets at most one attempt of its own — never a worse answer than
  without the cache — and `get_or_compute` only ever returns a value or raises what the
  caller's own `compute()` raised. A failure is never cached.
- the claim's work lease ran out (config/leases.py: the winner renews it from a heartbeat
  thread while it computes, so a winner that died is noticed within WORK_LEASE_SECONDS), or a
  waiter has watched the same claim for COMBINATION_CACHE_LEASE_SECONDS (a live winner whose
  calls never end): the key is taken over the same way.
  The old winner, should it still finish, no longer holds the claim and stores nothing.
- an expired `ready` row is a miss, taken over the same way.

Transactions. Call `get_or_compute` outside any transaction, as the runner does: the claim is
then committed at once (visible to every worker), and the LLM call holds no database lock
(SPEC §14). Inside an outer `atomic()` it still returns the right value — the claim is made in
a savepoint, so a lost race does not break the caller's transaction — but the claim and the
value become visible to other connections only when that transaction commits, so identical
requests elsewhere block on the unique index (PostgreSQL) or the write lock (SQLite) until
then, and the call runs inside the caller's transaction.

Counters per kind (hits, misses, tokens saved) live in CombinationCacheCounter and survive
clearing the entries. Expired entries are deleted by `delete_expired`, which the minutely
dispatcher task runs at most once an hour (`delete_expired_hourly`), and by
`manage.py clear_combination_cache --expired`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock_time

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q

from config import leases
from digests.models import CombinationCacheCounter, CombinationCacheEntry

logger = logging.getLogger(__name__)

Entry = CombinationCacheEntry
KINDS = tuple(Entry.Kind.values)
# Part of every key: bump it when the canonical form below changes, so old keys stop matching.
KEY_FORMAT = 1
_KEY_PATTERN = re.compile(r"[0-9a-f]{64}")

# Waiters poll a pending row every POLL_FIRST seconds, doubling up to POLL_MAX.
POLL_FIRST = 0.02
POLL_MAX = 0.5
# Claims in a row that lose to a row this connection cannot see (an isolation level stricter
# than READ COMMITTED in the caller's transaction) before computing without the cache.
_INVISIBLE_CLAIM_LIMIT = 3

Compute = Callable[[], tuple[dict, int, int]]


@dataclass(frozen=True)
class CacheResult:
    value: dict
    hit: bool
    key: str
    # What computing the value cost; on a hit, the tokens this request saved.
    input_tokens: int = 0
    output_tokens: int = 0
    # True when this request waited for another worker's computation.
    waited: bool = False


class ClearError(ValueError):
    """A clear request that names no scope, several, or a malformed one."""

    def __init__(self, field: str, message: str, *, code: str = "invalid"):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.code = code


# --- Keys -------------------------------------------------------------------------------


def _canonical_json(value: object, *, part: str) -> str:
    try:
        return json.dumps(
            value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"{part}: only JSON values (strings, numbers, lists, dicts): {exc}"
        ) from exc


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"kind: {kind!r} is not one of {', '.join(KINDS)}.")


def _window(window: tuple[datetime, datetime] | None) -> list[str] | None:
    if window is None:
        return None
    start, end = window
    for name, moment in (("start", start), ("end", end)):
        if not isinstance(moment, datetime) or moment.tzinfo is None:
            raise ValueError(f"window: the {name} must be a timezone-aware datetime.")
    if end < start:
        raise ValueError("window: the end is before the start.")
    return [start.astimezone(UTC).isoformat(), end.astimezone(UTC).isoformat()]


def combination_key(
    kind: str,
    *,
    inputs: Iterable,
    options: Mapping[str, object],
    window: tuple[datetime, datetime] | None,
) -> str:
    """sha256 hex of the canonical JSON of the kind, the inputs as a set (source ids, or item
    hashes with their content hashes — order and repeats never matter), every option (locale,
    length, tone, prompt version, model …: any change makes a new key) and the period window
    as UTC ISO instants (the same instant written in two zones is the same window)."""
    _check_kind(kind)
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise ValueError("options: a mapping with string keys.")
    if isinstance(inputs, str | bytes):
        raise ValueError("inputs: a collection of values, not one string.")
    canonical = {
        "format": KEY_FORMAT,
        "kind": kind,
        # Each input as its own canonical JSON, so 7 and "7" differ and dicts sort stably.
        "inputs": sorted({_canonical_json(value, part="inputs") for value in inputs}),
        "options": dict(options),
        "window": _window(window),
    }
    return hashlib.sha256(_canonical_json(canonical, part="options").encode()).hexdigest()


# --- Settings ---------------------------------------------------------------------------


def ttl_for(kind: str) -> timedelta:
    return timedelta(hours=settings.COMBINATION_CACHE_TTL_HOURS[kind])


def _lease() -> timedelta:
    return timedelta(seconds=settings.COMBINATION_CACHE_LEASE_SECONDS)


# --- Get or compute ---------------------------------------------------------------------


def get_or_compute(
    kind: str,
    key: str,
    compute: Compute,
    *,
    now: datetime,
    inputs_desc: dict | None = None,
    ttl: timedelta | None = None,
    group: str = "",
) -> CacheResult:
    """The cached value for `key`, or `compute()`'s, stored for the others (see the module
    docstring for the waiting and failure rules and the transaction requirement). `group`
    files the entry for `lookup_covering` (with its items' digests in `inputs_desc`)."""
    _check_kind(kind)
    if not _KEY_PATTERN.fullmatch(key or ""):
        raise ValueError("key: a sha256 hex digest from combination_key().")
    if group and not _KEY_PATTERN.fullmatch(group):
        raise ValueError("group: a sha256 hex digest from combination_key().")
    claim = _Claim(kind, key, now, inputs_desc or {}, ttl or ttl_for(kind), group)
    lease = _lease()
    started = time.monotonic()
    watched, watched_since, delay = None, 0.0, POLL_FIRST
    waited, invisible = False, 0
    while True:
        entry = Entry.objects.filter(key=key).first()
        if entry is None:
            token = claim.insert()
            if token:
                return _compute_and_store(claim, token, compute, waited=waited)
            invisible += 1
            if invisible >= _INVISIBLE_CLAIM_LIMIT:
                logger.warning("combination cache %s: claimed elsewhere but not visible", key)
                return _compute_uncached(claim, compute)
            continue
        invisible = 0
        if entry.state == Entry.State.READY and entry.expires_at > now:
            _record_hit(entry, now)
            return CacheResult(
                entry.value, True, key, entry.input_tokens, entry.output_tokens, waited
            )
        # The waiter's clock in the claimant's frame: `now` plus the time spent waiting.
        frame_now = now + timedelta(seconds=time.monotonic() - started)
        if entry.state == Entry.State.PENDING and _claim_alive(entry, frame_now, lease):
            token = entry.value.get("claim")
            if token != watched:
                watched, watched_since = token, time.monotonic()
            if time.monotonic() - watched_since < lease.total_seconds():
                time.sleep(delay)
                delay = min(delay * 2, POLL_MAX)
                waited = True
                continue
            logger.warning("combination cache %s: claim not finished within the lease", key)
        # Expired, failed, or a claim whose lease ran out: whoever moves the row first computes.
        token = claim.take_over(entry)
        if token:
            return _compute_and_store(claim, token, compute, waited=waited)


def _claim_alive(entry: CombinationCacheEntry, now: datetime, lease: timedelta) -> bool:
    if entry.lease_expires_at is None:  # a claim made before claims had work leases
        return entry.created_at > now - lease
    return entry.lease_expires_at > now


@dataclass
class _Claim:
    kind: str
    key: str
    now: datetime
    inputs: dict
    ttl: timedelta
    group: str = ""
    pk: int | None = None

    def _pending_fields(self, token: str) -> dict:
        return {
            "kind": self.kind,
            "state": Entry.State.PENDING,
            "value": {"claim": token},
            "inputs": self.inputs,
            "group": self.group,
            "input_tokens": 0,
            "output_tokens": 0,
            "hits": 0,
            "created_at": self.now,
            "last_hit_at": None,
            "expires_at": self.now + self.ttl,
            "lease_expires_at": leases.lease_until(self.now),
        }

    def insert(self) -> str | None:
        """A new pending row; None when another request's row has the key."""
        token = uuid.uuid4().hex
        try:
            # Its own transaction, or a savepoint inside the caller's: a lost race must not
            # break an outer transaction.
            with transaction.atomic():
                self.pk = Entry.objects.create(
                    key=self.key, attempts=1, **self._pending_fields(token)
                ).pk
        except IntegrityError:
            return None
        return token

    def take_over(self, entry: CombinationCacheEntry) -> str | None:
        """Move the row as it was read to a new pending claim; None when another request
        changed it first. (created_at, expires_at) identify a ready or failed version; a
        pending one is identified by its claim token."""
        token = uuid.uuid4().hex
        same_version = Q(
            pk=entry.pk,
            state=entry.state,
            created_at=entry.created_at,
            expires_at=entry.expires_at,
        )
        if entry.state == Entry.State.PENDING:
            same_version &= Q(value__claim=entry.value.get("claim"))
        moved = Entry.objects.filter(same_version).update(
            attempts=F("attempts") + 1, **self._pending_fields(token)
        )
        self.pk = entry.pk
        return token if moved else None


def _check_computed(computed) -> tuple[dict, int, int]:
    value, input_tokens, output_tokens = computed
    if not isinstance(value, dict):
        raise TypeError(f"compute() must return a dict value, not {type(value).__name__}.")
    _canonical_json(value, part="value")
    for name, tokens in (("input_tokens", input_tokens), ("output_tokens", output_tokens)):
        if not isinstance(tokens, int) or tokens < 0:
            raise ValueError(f"compute() returned {name}={tokens!r}; a count of tokens.")
    return value, input_tokens, output_tokens


def _compute_and_store(claim: _Claim, token: str, compute: Compute, *, waited: bool):
    _count(claim.kind, misses=1)
    mine = Q(key=claim.key, state=Entry.State.PENDING, value__claim=token)
    try:
        # Waiters see the claim alive only while this heartbeat renews it.
        with leases.Heartbeat(
            Entry, [claim.pk], now=claim.now, state=Entry.State.PENDING, value__claim=token
        ):
            value, input_tokens, output_tokens = _check_computed(compute())
        stored = Entry.objects.filter(mine).update(
            state=Entry.State.READY,
            value=value,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            lease_expires_at=None,
        )
    except BaseException as exc:
        # Not cached: the next request (or a waiter) takes the failed row over and retries.
        try:
            Entry.objects.filter(mine).update(
                state=Entry.State.FAILED,
                value={"error": f"{type(exc).__name__}: {exc}"[:500]},
                lease_expires_at=None,
            )
        except Exception:  # e.g. the caller's transaction is already broken
            logger.exception("combination cache %s: could not mark the claim failed", claim.key)
        raise
    if not stored:
        # Cleared by an admin, or taken over after the lease: this result is the caller's,
        # the row belongs to someone else now.
        logger.info("combination cache %s: claim lost before the value was stored", claim.key)
    return CacheResult(value, False, claim.key, input_tokens, output_tokens, waited)


def _compute_uncached(claim: _Claim, compute: Compute) -> CacheResult:
    _count(claim.kind, misses=1)
    value, input_tokens, output_tokens = _check_computed(compute())
    return CacheResult(value, False, claim.key, input_tokens, output_tokens)


def _record_hit(entry: CombinationCacheEntry, now: datetime) -> None:
    Entry.objects.filter(pk=entry.pk).update(hits=F("hits") + 1, last_hit_at=now)
    _count(entry.kind, hits=1, tokens_saved=entry.input_tokens + entry.output_tokens)


def _count(kind: str, **increments: int) -> None:
    changes = {name: F(name) + amount for name, amount in increments.items()}
    counters = CombinationCacheCounter.objects.filter(kind=kind)
    if not counters.update(**changes):
        CombinationCacheCounter.objects.get_or_create(kind=kind)
        counters.update(**changes)


def lookup(kind: str, key: str, *, now: datetime) -> tuple[CacheResult | None, bool]:
    """(the ready value stored under `key`, counted as a hit, or None; whether another request
    is computing it right now). A None is not counted: the caller goes on — to a looser level
    when nobody is computing this key, else straight to `get_or_compute`, which waits and
    counts."""
    _check_kind(kind)
    if not _KEY_PATTERN.fullmatch(key or ""):
        raise ValueError("key: a sha256 hex digest from combination_key().")
    entry = Entry.objects.filter(key=key).first()
    if entry is None:
        return None, False
    if entry.state == Entry.State.READY and entry.expires_at > now:
        _record_hit(entry, now)
        value = CacheResult(entry.value, True, key, entry.input_tokens, entry.output_tokens)
        return value, False
    return None, entry.state == Entry.State.PENDING and _claim_alive(entry, now, _lease())


# --- Covering: a value made from items the request has ----------------------------------

# How many of a group's entries a covering lookup reads (the most used first).
COVER_CANDIDATES = 50


def lookup_covering(
    kind: str,
    group: str,
    *,
    have: Iterable[str],
    wanted: list[str],
    min_covered: int,
    now: datetime,
) -> CacheResult | None:
    """A ready entry of `group` made only from items the request has, standing in for its own.

    `have` holds the digests of every item the reader gets, `wanted` those the request would
    be made from. An entry qualifies only when every item it was made from (its
    `inputs["item_digests"]`) is in `have` — so nothing in it speaks of an item the reader did
    not get — and it covers at least `min_covered` of `wanted`. The best covering entry wins
    (then the most used). Counts a hit like any hit; None (not counted) when none qualifies.
    One query."""
    _check_kind(kind)
    if not _KEY_PATTERN.fullmatch(group or ""):
        raise ValueError("group: a sha256 hex digest from combination_key().")
    have, wanted_set = set(have), set(wanted)
    best, best_covered = None, -1
    candidates = Entry.objects.filter(
        group=group, kind=kind, state=Entry.State.READY, expires_at__gt=now
    ).order_by("-hits", "created_at")[:COVER_CANDIDATES]
    for entry in candidates:
        made_from = entry.inputs.get("item_digests")
        if not made_from or not isinstance(made_from, list) or not set(made_from) <= have:
            continue
        covered = len(wanted_set.intersection(made_from))
        if covered >= min_covered and covered > best_covered:
            best, best_covered = entry, covered
    if best is None:
        return None
    _record_hit(best, now)
    return CacheResult(best.value, True, best.key, best.input_tokens, best.output_tokens, False)


# --- The first level: a source set in a period --------------------------------------------


def lookup_first_level(key: str, items: list[str], *, now: datetime) -> CacheResult | None:
    """Seed 002's lookup: the result stored for a combination (a subscription hash, its
    options and its digest period) — but only when it was made for exactly these `items`.
    Users with the same sources can still be handed different items (what each was already
    given, a source that just published), and a narrative must speak of the run's own items,
    so a first-level entry made for other items is a miss and the caller goes on to the
    item-set key (the second level). Counts a hit like any hit."""
    if not _KEY_PATTERN.fullmatch(key or ""):
        raise ValueError("key: a sha256 hex digest from combination_key().")
    entry = Entry.objects.filter(key=key, state=Entry.State.READY, expires_at__gt=now).first()
    if entry is None or entry.value.get("items") != sorted(items):
        return None
    _record_hit(entry, now)
    return CacheResult(
        entry.value["result"], True, key, entry.input_tokens, entry.output_tokens, False
    )


def remember_first_level(
    kind: str,
    key: str,
    items: list[str],
    second: CacheResult,
    *,
    now: datetime,
    window_end: datetime,
    inputs_desc: dict | None = None,
) -> None:
    """Point the combination at the result just computed or reused for `items` (the first
    run of the period wins; later runs with other items keep using the second level). Kept
    until its period ends, and at least the kind's TTL."""
    _check_kind(kind)
    Entry.objects.get_or_create(
        key=key,
        defaults={
            "kind": kind,
            "state": Entry.State.READY,
            "value": {"items": sorted(items), "result": second.value, "item_key": second.key},
            "inputs": {"level": "source set", **(inputs_desc or {})},
            "input_tokens": second.input_tokens,
            "output_tokens": second.output_tokens,
            "created_at": now,
            "expires_at": max(window_end, now + ttl_for(kind)),
        },
    )


# --- Clearing and expiry ----------------------------------------------------------------


def delete_expired(now: datetime) -> int:
    """Delete every entry whose expiry has passed (a pending row past its expiry was abandoned
    long ago: the TTL is far longer than the lease). Returns how many were deleted."""
    deleted, _ = Entry.objects.filter(expires_at__lte=now).delete()
    return deleted


EXPIRY_SWEEP_GUARD = "combination-cache:expiry-sweep:{hour}"


def delete_expired_hourly(now: datetime) -> int | None:
    """`delete_expired` at most once per UTC hour per cache (shared across processes when the
    cache is Redis); cheap enough to call from the minutely dispatcher. None when skipped."""
    guard = EXPIRY_SWEEP_GUARD.format(hour=now.astimezone(UTC).strftime("%Y%m%d%H"))
    if not cache.add(guard, True, timeout=2 * 3600):
        return None
    return delete_expired(now)


def clear(
    *,
    now: datetime,
    key: str = "",
    before: date | datetime | None = None,
    expired: bool = False,
    everything: bool = False,
) -> int:
    """Delete the entry with `key`, the entries created before `before` (a date means its
    start, 00:00 UTC), the expired ones, or all of them — exactly one scope. The statistics
    are kept. A request computing a cleared key keeps its result but does not store it.
    Each scope's own form is checked first; then exactly one (`invalid_combination`)."""
    key = key.strip().lower()
    if key and not _KEY_PATTERN.fullmatch(key):
        raise ClearError("key", "A key is the 64-character hex digest shown in the admin.")
    if isinstance(before, datetime) and before.tzinfo is None:
        raise ClearError("before", "Give the time with its UTC offset.")
    scopes = [
        name
        for name, given in (
            ("key", key),
            ("before", before is not None),
            ("expired", expired),
            ("all", everything),
        )
        if given
    ]
    if len(scopes) != 1:
        field = scopes[1] if len(scopes) > 1 else "scope"
        raise ClearError(
            field,
            "Choose exactly one of: a key, a date, expired, or all.",
            code="invalid_combination",
        )
    if key:
        entries = Entry.objects.filter(key=key)
    elif before is not None:
        if not isinstance(before, datetime):
            before = datetime.combine(before, clock_time.min, tzinfo=UTC)
        entries = Entry.objects.filter(created_at__lt=before)
    elif expired:
        entries = Entry.objects.filter(expires_at__lte=now)
    else:
        entries = Entry.objects.all()
    deleted, _ = entries.delete()
    return deleted


# --- Statistics -------------------------------------------------------------------------


def _rate(hits: int, misses: int) -> float | None:
    return round(hits / (hits + misses), 4) if hits + misses else None


def stats(*, now: datetime) -> dict:
    """Hits, misses, hit rate and tokens saved since the counters started; entries (unique
    keys) by state; overall and by kind. Two queries."""
    rows = (
        Entry.objects.order_by()
        .values("kind")
        .annotate(
            unique_keys=Count("id"),
            ready=Count("id", filter=Q(state=Entry.State.READY, expires_at__gt=now)),
            expired=Count("id", filter=Q(state=Entry.State.READY, expires_at__lte=now)),
            pending=Count("id", filter=Q(state=Entry.State.PENDING)),
            failed=Count("id", filter=Q(state=Entry.State.FAILED)),
        )
    )
    entries = {row.pop("kind"): row for row in rows}
    counters = {c.kind: c for c in CombinationCacheCounter.objects.all()}
    empty = {"unique_keys": 0, "ready": 0, "expired": 0, "pending": 0, "failed": 0}
    by_kind = {}
    for kind in sorted(set(KINDS) | set(entries) | set(counters)):
        counter = counters.get(kind)
        hits, misses = (counter.hits, counter.misses) if counter else (0, 0)
        by_kind[kind] = {
            "hits": hits,
            "misses": misses,
            "requests": hits + misses,
            "hit_rate": _rate(hits, misses),
            "tokens_saved": counter.tokens_saved if counter else 0,
            **entries.get(kind, empty),
        }
    total = {
        name: sum(figures[name] for figures in by_kind.values())
        for name in ("hits", "misses", "requests", "tokens_saved", *empty)
    }
    total["hit_rate"] = _rate(total["hits"], total["misses"])
    return {**total, "by_kind": by_kind}
