"""`billing`: run completions charged on the ledger by concurrent workers.

Data (full): 1,000 users on the free plan (100 credits; a fifth of them down to 30, so the
budget check has runs to refuse), one subscription each whose runs can cost up to 10 credits
(FULLTEXT_TOP_K 5 × page fetch + extraction), 10,000 runs — 10 per user. Workers are threads,
each with its own database connection, taking runs from one shared queue in an order that puts
one user's runs on different workers at the same time (the account row lock is contended).

Each run completion is what `digests.runs.runner.execute_run` does around a run: the budget check
(`billing.charges.reserve`, a hold under the account's row lock) and, for a run that passed it,
the charge inside a transaction (`billing.charges.settle`: the charge row, the refund row when
the run delivered nothing — one run in five — and the hold released). A tenth of the runs are
completed a second time by another worker (a redelivered task that got past the claim).

Measured: ledger rows written per second by the charge phase; per-completion latency; the
checks that must be zero — runs charged twice, negative balances, accounts whose balance is not
the sum of the period's rows. Baseline: the same charge row inserted bare (one INSERT in its own
transaction) by the same workers. ratio = mean charge (settle) time ÷ mean bare insert time.

`--size small`: 200 users, 2,000 runs; `smoke`: 20 users, 100 runs. On SQLite (one writer at a
time) the workers are one thread.
"""

from __future__ import annotations

import queue
import random
import statistics
import threading
import time
from datetime import UTC, datetime, timedelta

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Count, F, OuterRef, Subquery, Sum
from django.test import override_settings

from billing import charges, ledger, periods, prices
from billing.accounts import platform_account
from billing.models import Account, CreditTransaction
from digests.models import Run, Subscription
from tests.bench.sizes import checked

# users, runs per user, workers
SIZES = {"full": (1_000, 10, 8), "small": (200, 10, 4), "smoke": (20, 5, 2)}
NOW = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
TIGHT_SHARE = 0.2  # users left with 30 credits
EMPTY_SHARE = 0.2  # runs that delivered nothing (refunded)
REDELIVERED_SHARE = 0.1
Kind = CreditTransaction.Kind


def _setup(users: int, runs_per_user: int) -> tuple[list[int], dict[int, Subscription]]:
    rng = random.Random(7)
    User.objects.bulk_create(
        User(username=f"payer{n}@example.com", email=f"payer{n}@example.com") for n in range(users)
    )
    user_ids = list(User.objects.order_by("id").values_list("id", flat=True))
    start, end = periods.period_containing(NOW.day, NOW.date())
    Account.objects.bulk_create(
        Account(
            user_id=uid,
            balance=100,
            monthly_quota=100,
            period_start=start,
            period_end=end,
            anchor_day=NOW.day,
        )
        for uid in user_ids
    )
    accounts = dict(Account.objects.values_list("user_id", "id"))
    CreditTransaction.objects.bulk_create(
        CreditTransaction(
            account_id=accounts[uid],
            kind=Kind.MONTHLY_RESET,
            amount=100,
            period_start=start,
            balance_after=100,
            idempotency_key=periods.reset_key(accounts[uid], start),
            created_at=NOW,
        )
        for uid in user_ids
    )
    for uid in rng.sample(user_ids, int(len(user_ids) * TIGHT_SHARE)):
        ledger.post(accounts[uid], kind=Kind.ADJUSTMENT, amount=-70, key=f"tight:{uid}", now=NOW)
    Subscription.objects.bulk_create(
        Subscription(owner_id=uid, name="Bench", interests=["x"], cron="0 8 * * *")
        for uid in user_ids
    )
    subscriptions = {s.owner_id: s for s in Subscription.objects.all()}
    Run.objects.bulk_create(
        Run(
            subscription=subscriptions[uid],
            user_id=uid,
            status=Run.Status.RUNNING,
            trigger=Run.Trigger.MANUAL,
            scheduled_at=NOW + timedelta(minutes=n),
        )
        for n in range(runs_per_user)
        for uid in user_ids  # one user's runs spread over the queue
    )
    run_ids = list(Run.objects.order_by("id").values_list("id", flat=True))
    return run_ids, subscriptions


def _breakdown(rng: random.Random) -> tuple[dict, int]:
    pages = rng.randint(0, 5)
    operations = {"search": 0, "page_fetch": pages, "crawl": 0, "extract": pages}
    cached = {"search": 0, "page_fetch": rng.randint(0, pages), "crawl": 0, "extract": 0}
    delivered = 0 if rng.random() < EMPTY_SHARE else rng.randint(1, 20)
    return {"operations": operations, "cache_hits": cached, "total": 2 * pages}, delivered


def _workers(count: int, jobs: list, work) -> float:
    """Run `work(job)` for every job on `count` threads with their own connections; returns
    the wall time."""
    todo: queue.Queue = queue.Queue()
    for job in jobs:
        todo.put(job)
    errors: list[BaseException] = []

    def loop():
        try:
            while True:
                try:
                    job = todo.get_nowait()
                except queue.Empty:
                    return
                work(job)
        except BaseException as exc:  # pragma: no cover - reported by the caller
            errors.append(exc)
        finally:
            connection.close()

    started = time.perf_counter()
    threads = [threading.Thread(target=loop) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return time.perf_counter() - started


def _ms(values: list[float]) -> dict:
    ordered = sorted(values)
    return {
        "mean_ms": round(statistics.fmean(ordered) * 1000, 3),
        "p50_ms": round(ordered[len(ordered) // 2] * 1000, 3),
        "p95_ms": round(ordered[int(len(ordered) * 0.95)] * 1000, 3),
    }


def run(size: str = "full") -> dict:
    # The production default (the test settings turn full text off): a run may cost up to 10.
    with override_settings(FULLTEXT_TOP_K=5):
        return _run(size)


def _run(size: str) -> dict:
    users, runs_per_user, workers = SIZES[checked(size)]
    if connection.vendor == "sqlite":
        workers = 1
    started = time.perf_counter()
    run_ids, subscriptions = _setup(users, runs_per_user)
    runs = {r.pk: r for r in Run.objects.all()}
    generate_seconds = time.perf_counter() - started
    rng = random.Random(11)
    plans = {run_id: _breakdown(rng) for run_id in run_ids}
    upper_bound = prices.upper_bound(next(iter(subscriptions.values())))

    # Baseline: the same charge row, inserted bare, by the same workers.
    platform = platform_account(now=NOW)
    bare_times: list[float] = []
    lock = threading.Lock()

    def bare(run_id: int) -> None:
        breakdown, _delivered = plans[run_id]
        detail = prices.priced(breakdown)
        t0 = time.perf_counter()
        CreditTransaction.objects.create(
            account_id=platform.pk,
            kind=Kind.CHARGE,
            amount=-prices.price(breakdown),
            period_start=platform.period_start,
            balance_after=0,
            idempotency_key=f"bare:{run_id}",
            breakdown=detail,
            created_at=NOW,
        )
        elapsed = time.perf_counter() - t0
        with lock:
            bare_times.append(elapsed)

    bare_wall = _workers(workers, run_ids, bare)
    CreditTransaction.objects.filter(idempotency_key__startswith="bare:").delete()

    # The charge path: the budget check at the start, the charge at the end.
    reserve_times: list[float] = []
    settle_times: list[float] = []
    refused: list[int] = []
    started_runs: list[int] = []

    def complete(run_id: int) -> None:
        run = runs[run_id]
        t0 = time.perf_counter()
        budget = charges.reserve(run, subscriptions[run.user_id], now=NOW)
        t1 = time.perf_counter()
        if not budget.ok:
            with lock:
                reserve_times.append(t1 - t0)
                refused.append(run_id)
            return
        breakdown, delivered = plans[run_id]
        with transaction.atomic():
            charges.settle(run, breakdown=breakdown, delivered=delivered, now=NOW)
        t2 = time.perf_counter()
        with lock:
            reserve_times.append(t1 - t0)
            settle_times.append(t2 - t1)
            started_runs.append(run_id)

    rows_before = CreditTransaction.objects.count()
    charge_wall = _workers(workers, run_ids, complete)
    rows_written = CreditTransaction.objects.count() - rows_before

    # Redeliveries: a tenth of the completed runs settled again, concurrently.
    again = random.Random(3).sample(started_runs, int(len(started_runs) * REDELIVERED_SHARE))

    def redeliver(run_id: int) -> None:
        breakdown, delivered = plans[run_id]
        with transaction.atomic():
            charges.settle(runs[run_id], breakdown=breakdown, delivered=delivered, now=NOW)

    _workers(workers, again, redeliver)

    charged_twice = (
        CreditTransaction.objects.filter(kind=Kind.CHARGE, run__isnull=False)
        .values("run_id")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .count()
    )
    refunded_twice = (
        CreditTransaction.objects.filter(kind=Kind.REFUND)
        .values("run_id")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .count()
    )
    negative = Account.objects.filter(kind=Account.Kind.USER, balance__lt=0).count()
    period_sums = (
        CreditTransaction.objects.filter(
            account_id=OuterRef("pk"), period_start=OuterRef("period_start")
        )
        .order_by()
        .values("account_id")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    unbalanced = (
        Account.objects.filter(kind=Account.Kind.USER)
        .annotate(ledger_sum=Subquery(period_sums))
        .exclude(balance=F("ledger_sum"))
        .count()
    )
    spent = -(
        CreditTransaction.objects.filter(
            account__kind=Account.Kind.USER, kind__in=[Kind.CHARGE, Kind.REFUND]
        ).aggregate(total=Sum("amount"))["total"]
        or 0
    )
    settle = _ms(settle_times)
    baseline = _ms(bare_times)
    return {
        "name": "billing",
        "database": connection.vendor,
        "size": size,
        "users": users,
        "runs": len(run_ids),
        "workers": workers,
        "upper_bound_credits": upper_bound,
        "generate_seconds": round(generate_seconds, 1),
        "completions_started": len(started_runs),
        "refused_by_budget": len(refused),
        "redelivered": len(again),
        "ledger_rows_written": rows_written,
        "ledger_writes_per_second": round(rows_written / charge_wall, 1),
        "completions_per_second": round(len(run_ids) / charge_wall, 1),
        "charge_phase_seconds": round(charge_wall, 2),
        "bare_insert_phase_seconds": round(bare_wall, 2),
        "bare_inserts_per_second": round(len(run_ids) / bare_wall, 1),
        "reserve": _ms(reserve_times),
        "settle": settle,
        "bare_insert": baseline,
        "credits_spent": spent,
        "double_charges": charged_twice,
        "double_refunds": refunded_twice,
        "negative_balances": negative,
        "unbalanced_accounts": unbalanced,
        "ratio": round(settle["mean_ms"] / baseline["mean_ms"], 2),
        "checks": {
            "no run charged twice": charged_twice == 0,
            "no run refunded twice": refunded_twice == 0,
            "no negative balance": negative == 0,
            "every balance is the sum of its period's ledger rows": unbalanced == 0,
        },
    }


def describe(result: dict) -> list[str]:
    return [
        f"billing benchmark on {result['database']} ({result['size']}): {result['runs']:,} run "
        f"completions across {result['users']:,} users, {result['workers']} workers; a run may "
        f"cost up to {result['upper_bound_credits']} credits (data made in "
        f"{result['generate_seconds']} s)",
        f"  budget check: {result['completions_started']:,} runs held and charged, "
        f"{result['refused_by_budget']:,} refused (cost nothing); reserve p50 "
        f"{result['reserve']['p50_ms']} ms, p95 {result['reserve']['p95_ms']} ms",
        f"  charge phase: {result['ledger_rows_written']:,} ledger rows in "
        f"{result['charge_phase_seconds']} s = {result['ledger_writes_per_second']:,} ledger "
        f"writes/s ({result['completions_per_second']:,} completions/s); settle mean "
        f"{result['settle']['mean_ms']} ms, p50 {result['settle']['p50_ms']}, p95 "
        f"{result['settle']['p95_ms']}",
        f"  baseline: bare INSERT of the same row, mean {result['bare_insert']['mean_ms']} ms, "
        f"p50 {result['bare_insert']['p50_ms']} ({result['bare_inserts_per_second']:,}/s)",
        f"  checks after {result['redelivered']:,} redelivered completions: double charges "
        f"{result['double_charges']}, double refunds {result['double_refunds']}, negative "
        f"balances {result['negative_balances']}, balances not equal to the ledger "
        f"{result['unbalanced_accounts']} (all must be 0)",
        f"  ratio (settle ÷ bare insert, mean): {result['ratio']}",
    ]
