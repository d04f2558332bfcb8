"""`throughput`: scheduled runs per hour one machine sustains with the LLM off — a real
`manage.py qcluster` (2 workers) executing runs the dispatcher claimed, on the broker the
settings choose (ORM by default; Redis when REDIS_URL is set, e.g. redis://127.0.0.1:6379/14).

Data: a pool of 100k items made like the `run` benchmark's, 100 users with 20 subscriptions
each (the `run` benchmark's 10 topic-only + 10 source-based mix), all due now: 2,000
scheduled runs. The cluster is started and idle before the clock starts;
the clock runs from the first enqueue to the moment every run is finished (polled every
0.25 s). Tasks are enqueued as `digests.tasks.enqueue_run` does, on a queue of their own.

ratio = runs per hour / 50,000 (the goal).

Sizes (tests/bench/sizes.py): full = 100k pool items, 2,000 runs; small = 10k items, 300 runs;
smoke = 1k items, 40 runs (the cluster's start-up is then most of the time; it is not in the
clock). Checks: every run succeeded, none was executed twice.

On PostgreSQL it then measures the scale-out deployment with one and two worker groups, a Redis
broker and S3 storage (tests/bench/scaleout.py: runs and refreshes that wait on other servers;
smoke 6 runs, small 60 runs and 200 refreshes, full 200 and 600; ratio two groups ÷ one, goal
≥ 1.7), with its own checks: nothing failed or done twice, every large body in S3.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from digests.models import Run, Subscription, SubscriptionSource
from digests.schedules.scheduler import claim_due_subscriptions
from tests.bench import scaleout
from tests.bench.generate import TextBank, add_items, analyze, make_sources
from tests.bench.run import SOURCE_BASED, TOPIC_ONLY

SIZES = {"full": (100_000, 2000), "small": (10_000, 300), "smoke": (1_000, 40)}
USERS = 100
GOAL_PER_HOUR = 50_000
DEADLINE = timedelta(minutes=30)


def _subscriptions(count: int, sources, now) -> None:
    users = User.objects.bulk_create(
        User(username=f"reader{n}@example.com", email=f"reader{n}@example.com")
        for n in range(USERS)
    )
    shapes = [(interests, negative, []) for interests, negative in TOPIC_ONLY] + [
        (interests, [], indexes) for indexes, interests in SOURCE_BASED
    ]
    made = Subscription.objects.bulk_create(
        Subscription(
            owner=users[n % USERS],
            name=f"Subscription {n}",
            interests=shapes[n % len(shapes)][0],
            negative_keywords=shapes[n % len(shapes)][1],
            cron="0 8 * * *",
            next_run_at=now - timedelta(minutes=1),
        )
        for n in range(count)
    )
    SubscriptionSource.objects.bulk_create(
        SubscriptionSource(subscription=subscription, source=sources[index])
        for n, subscription in enumerate(made)
        for index in shapes[n % len(shapes)][2]
    )


def _start_cluster(queue: str) -> subprocess.Popen:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.bench.cluster_settings",
        "TIDINGS_BENCH_DATABASE": str(connection.settings_dict["NAME"]),
        "TIDINGS_BENCH_QUEUE": queue,
        "Q_WORKERS": "2",
    }
    cluster = subprocess.Popen(
        [sys.executable, "manage.py", "qcluster"],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    started = time.monotonic()
    for line in cluster.stderr:  # django-q2 logs "... running." once the workers are up
        if "running" in line.lower():
            break
        if time.monotonic() - started > 60:
            raise RuntimeError("qcluster did not start within 60 s")
    if cluster.poll() is not None:
        raise RuntimeError(f"qcluster exited with {cluster.returncode}")
    # Keep draining its log so the pipe never fills and blocks the cluster.
    threading.Thread(target=lambda: [None for _ in cluster.stderr], daemon=True).start()
    return cluster


def _stop_cluster(cluster: subprocess.Popen) -> None:
    cluster.send_signal(signal.SIGTERM)
    try:
        cluster.wait(60)
    except subprocess.TimeoutExpired:
        cluster.kill()
        cluster.wait()


def run(size: str = "full") -> dict:
    from django_q.brokers import get_broker
    from django_q.conf import Conf
    from django_q.tasks import async_task

    items, runs_wanted = SIZES[size]
    now = timezone.now()
    started = time.perf_counter()
    sources = make_sources()
    add_items(items, sources=sources, now=now, bank=TextBank())
    _subscriptions(runs_wanted, sources, now)
    analyze()
    run_ids: list[int] = []
    while claimed := claim_due_subscriptions(now=now):
        run_ids += [r.pk for r in claimed]
    generated = time.perf_counter() - started

    queue = f"tidings-bench-{os.getpid()}"
    logging.getLogger("django-q").setLevel(logging.WARNING)  # not a line per enqueued task
    Conf.SYNC = False  # the test settings run tasks inline; here the cluster runs them
    broker = get_broker(queue)
    broker_name = "redis" if Conf.REDIS and not Conf.ORM else "orm"
    cluster = _start_cluster(queue)
    try:
        clock = time.perf_counter()
        for run_id in run_ids:  # as digests.tasks.enqueue_run, on this benchmark's queue
            async_task("digests.tasks.execute_run", run_id, group="runs", broker=broker)
        enqueued = time.perf_counter() - clock
        pending = Run.objects.filter(pk__in=run_ids).exclude(
            status__in=[Run.Status.SUCCEEDED, Run.Status.FAILED]
        )
        while pending.exists():
            if time.perf_counter() - clock > DEADLINE.total_seconds():
                raise RuntimeError(f"{pending.count()} runs unfinished after {DEADLINE}")
            time.sleep(0.25)
        wall = time.perf_counter() - clock
    finally:
        _stop_cluster(cluster)
        broker.delete_queue()
    done = Run.objects.filter(pk__in=run_ids)
    per_hour = len(run_ids) / wall * 3600
    # One and two worker groups on PostgreSQL, a Redis broker and S3 (tests/bench/scaleout.py).
    scaled = scaleout.measure(size) if connection.vendor == "postgresql" else {}
    return {
        **scaled,
        "name": "throughput",
        "database": connection.vendor,
        "broker": broker_name,
        "size": size,
        "workers": 2,
        "cpus": os.cpu_count(),
        "pool_items": items,
        "users": USERS,
        "runs": len(run_ids),
        "generate_seconds": round(generated, 1),
        "enqueue_seconds": round(enqueued, 2),
        "wall_seconds": round(wall, 2),
        "runs_per_hour": round(per_hour),
        "succeeded": done.filter(status=Run.Status.SUCCEEDED).count(),
        "failed": done.filter(status=Run.Status.FAILED).count(),
        "executed_more_than_once": done.filter(attempts__gt=1).count(),
        "items_delivered": sum(done.values_list("delivered_count", flat=True)),
        "ratio": round(per_hour / GOAL_PER_HOUR, 2),
        "checks": {
            "every run succeeded": done.filter(status=Run.Status.SUCCEEDED).count() == len(run_ids),
            "no run executed twice": not done.filter(attempts__gt=1).exists(),
            **scaled.pop("scaleout_checks", {}),
        },
    }


def describe(result: dict) -> list[str]:
    return [
        f"throughput benchmark on {result['database']} ({result['size']}) with the "
        f"{result['broker']} broker — "
        f"qcluster with {result['workers']} workers on {result['cpus']} CPUs, LLM off",
        f"  data: {result['pool_items']:,} pool items, {result['users']} users, "
        f"{result['runs']:,} scheduled runs (made in {result['generate_seconds']} s)",
        f"  {result['runs']:,} runs enqueued in {result['enqueue_seconds']} s, all finished "
        f"after {result['wall_seconds']} s: {result['runs_per_hour']:,} runs/hour "
        f"({result['succeeded']} succeeded, {result['failed']} failed, "
        f"{result['executed_more_than_once']} executed more than once; "
        f"{result['items_delivered']:,} items delivered)",
        f"  ratio (runs/hour ÷ 50,000 goal): {result['ratio']}",
        *(scaleout.describe(result) if "scaleout_runs" in result else []),
    ]
