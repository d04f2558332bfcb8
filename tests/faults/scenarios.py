"""The faults, each against real processes (tests/faults/harness.py) on PostgreSQL with a Redis
broker, each reporting what it found and how long recovery took. The slow tests in this folder
assert on these reports; `python -m tests.bench recovery` prints them.

Recovery time is measured from the fault (or, for an outage, from the moment the service is
back) until every piece of work that was in flight is finished. With the leases of these
scenarios (a few seconds) it is seconds; in production it is bounded by the lease (45 s) plus
the tick's minute.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass

from django.utils import timezone

from digests.models import Run, Subscription
from inbox.tokens import issue_token
from ingest.models import Source
from tests.faults import workload
from tests.faults.harness import Deployment, Stopwatch, terminate_database_connections, wait_for
from topics.models import Edition


@dataclass
class Timing:
    """Durations of one scenario: the lease and heartbeat its processes use, how often the
    ticker ticks, how long the fake model takes per answer, and how long to wait at most."""

    lease: int = 3
    heartbeat: int = 1
    tick_every: float = 1.0
    model_seconds: float = 1.0
    timeout: float = 120.0


def _deployment(timing: Timing, model, **extra_env: str) -> Deployment:
    return Deployment(
        lease_seconds=timing.lease,
        heartbeat_seconds=timing.heartbeat,
        llm_url=model.url,
        extra_env=extra_env,
    )


def worker_killed_mid_run(timing: Timing, *, runs: int = 10) -> dict:
    """Machine A's worker group is killed (`kill -9` of qcluster and all its workers) while
    it is running a run (and may hold more in its memory); machine B, up all along, takes them
    over once their leases run out."""
    with (
        workload.slow_model(timing.model_seconds) as model,
        _deployment(timing, model) as deployment,
    ):
        subscriptions = workload.due_subscriptions(runs, now=timezone.now())
        machine_a = deployment.cluster("cluster-a")
        deployment.cluster("cluster-b")
        deployment.ticker("ticker", every=timing.tick_every)
        # Three runs claimed by four workers (two per group): at least one is A's.
        wait_for(
            lambda: (
                _has_a_run_in_hand(machine_a)
                and Run.objects.filter(status=Run.Status.RUNNING).count() >= 3
            ),
            timeout=timing.timeout,
            what="cluster A to be running a run",
            every=0.05,
        )
        in_flight = Run.objects.exclude(status__in=workload.FINISHED).count()
        running = Run.objects.filter(status=Run.Status.RUNNING).count()
        clock = Stopwatch()
        machine_a.kill()
        wait_for(
            lambda: workload.runs_finished(subscriptions),
            timeout=timing.timeout,
            what="every run to finish after the kill",
        )
        return {
            "fault": "kill -9 of a worker group mid-run",
            "in_flight_at_fault": in_flight,
            "running_at_fault": running,
            "recovery_seconds": clock.seconds(),
            **workload.runs_report(subscriptions),
        }


def _has_a_run_in_hand(cluster) -> bool:
    """The cluster's log shows a run started and not finished yet."""
    log = cluster.log()
    started = log.count("'digests.tasks.execute_run' [runs]")
    return started > log.count("Processed 'digests.tasks.execute_run'")


def _has_a_check_in_hand(cluster) -> bool:
    """The cluster's log shows a text watch's check started and not finished yet."""
    log = cluster.log()
    started = log.count("'digests.textwatch.tasks.check' [watches]")
    return started > log.count("Processed 'digests.textwatch.tasks.check'")


def worker_killed_mid_edition(timing: Timing) -> dict:
    with (
        workload.slow_model(timing.model_seconds) as model,
        _deployment(timing, model) as deployment,
    ):
        topic = workload.due_topic(now=timezone.now())
        machine_a = deployment.cluster("cluster-a")
        deployment.ticker("ticker", every=timing.tick_every)
        wait_for(workload.wait_until_running(Edition), timeout=timing.timeout, what="an edition")
        # Killed first, then the other machine starts (an edition is one task: with both up,
        # either could have it).
        clock = Stopwatch()
        machine_a.kill()
        running = Edition.objects.filter(topic=topic, status="running").count()
        deployment.cluster("cluster-b")
        wait_for(
            lambda: Edition.objects.filter(topic=topic, status="succeeded").exists(),
            timeout=timing.timeout,
            what="the edition to finish after the kill",
        )
        recovery = clock.seconds()
        time.sleep(timing.lease + 2 * timing.tick_every)  # nothing more happens to it
        return {
            "fault": "kill -9 of a worker group mid-edition (the other one started after)",
            "running_at_fault": running,
            "recovery_seconds": recovery,
            **workload.edition_report(topic),
        }


def worker_killed_mid_delivery(timing: Timing, *, briefs: int = 4) -> dict:
    """Machine A's worker group is killed while it is sending email briefs (the SMTP server
    takes `2 × lease` to accept each recipient, so a send is caught in flight and its lease is
    kept alive by the heartbeat until the kill); machine B, started after, sends every brief.
    A send caught before the message was handed over is sent once in all; the retry carries the
    same Message-ID in any case."""
    with (
        workload.slow_model(timing.model_seconds / 4) as model,
        workload.smtp_server(recipient_delay=2 * timing.lease) as smtp,
        _deployment(timing, model, TIDINGS_FAULT_SMTP_PORT=str(smtp.port)) as deployment,
    ):
        subscriptions = workload.due_subscriptions(briefs, now=timezone.now(), prefix="mail")
        Subscription.objects.filter(pk__in=subscriptions).update(email_enabled=True)
        machine_a = deployment.cluster("cluster-a")
        deployment.ticker("ticker", every=timing.tick_every)
        wait_for(
            workload.wait_until_sending(at_least=1),
            timeout=timing.timeout,
            what="cluster A to be sending a brief",
            every=0.05,
        )
        # Past one lease: only the heartbeat keeps the send from being taken over.
        time.sleep(timing.lease + timing.heartbeat)
        sending = workload.deliveries_report(subscriptions)["sending"]
        clock = Stopwatch()
        machine_a.kill()
        smtp.rcpt_delay_seconds = 0
        deployment.cluster("cluster-b")
        wait_for(
            lambda: workload.deliveries_finished(subscriptions),
            timeout=timing.timeout,
            what="every brief to be sent after the kill",
        )
        recovery = clock.seconds()
        time.sleep(timing.lease + 2 * timing.tick_every)  # a second send would show now
        return {
            "fault": "kill -9 of a worker group mid-delivery (the other one started after)",
            "running_at_fault": sending,
            "recovery_seconds": recovery,
            **workload.runs_report(subscriptions),
            **workload.deliveries_report(subscriptions, received=smtp.message_ids()),
        }


def worker_killed_mid_watch_check(timing: Timing) -> dict:
    """A text watch's page changed since its last snapshot and answers in `2 × lease`: machine
    A's worker is killed (`kill -9` of its whole group) while it waits for the page, a lease
    after the claim — only the heartbeat kept the claim then. Machine B, started after, checks
    the watch again once the claim's lease ran out (the next tick), and the change reaches the
    Inbox once: never lost until the next interval, never twice."""
    with (
        workload.SlowPage("Price: $19.99") as page,
        Deployment(lease_seconds=timing.lease, heartbeat_seconds=timing.heartbeat) as deployment,
    ):
        watch = workload.due_text_watch(page, now=timezone.now())
        # Changed since the baseline, and slow; only the checks' requests count from now.
        page.text, page.latency, page.requests = "Price: $14.99", 2 * timing.lease, 0
        machine_a = deployment.cluster("cluster-a")
        deployment.ticker("ticker", every=timing.tick_every)
        wait_for(
            lambda: page.requests >= 1 and _has_a_check_in_hand(machine_a),
            timeout=timing.timeout,
            what="cluster A to be checking the watch",
            every=0.05,
        )
        # Past one lease: only the heartbeat keeps the check from being handed out again.
        time.sleep(timing.lease + timing.heartbeat)
        requests_at_fault, checking = page.requests, _has_a_check_in_hand(machine_a)
        clock = Stopwatch()
        machine_a.kill()
        page.latency = 0
        deployment.cluster("cluster-b")
        wait_for(
            lambda: workload.text_watch_report(watch, timezone.now())["inbox_items"],
            timeout=timing.timeout,
            what="the change to reach the Inbox after the kill",
        )
        recovery = clock.seconds()
        time.sleep(timing.lease + 2 * timing.tick_every)  # a second item would show now
        report = workload.text_watch_report(watch, timezone.now())
        return {
            "fault": "kill -9 of a worker group mid-check of a text watch (the other one after)",
            "page_requests_at_fault": requests_at_fault,
            "checking_at_fault": int(checking),
            "page_requests": page.requests,
            "recovery_seconds": recovery,
            **report,
            "watch_changes_lost": int(report["inbox_items"] == 0),
            "watch_changes_told_twice": max(0, report["inbox_items"] - 1),
        }


def database_dropped_mid_batch(timing: Timing, *, runs: int = 8, sources: int = 24) -> dict:
    """Every connection of the app (workers, ticker) is terminated by PostgreSQL while runs
    are in flight and a refresh batch is half done."""
    with (
        workload.slow_model(timing.model_seconds) as model,
        workload.SlowFeeds(latency=0.4) as feeds,
        _deployment(timing, model) as deployment,
    ):
        now = timezone.now()
        subscriptions = workload.due_subscriptions(runs, now=now)
        source_ids = workload.due_sources(feeds, sources, now=now)
        deployment.cluster("cluster-a", workers=3)
        deployment.ticker("ticker", every=timing.tick_every)
        wait_for(
            lambda: Run.objects.filter(status="running").exists() and sum(feeds.requests.values()),
            timeout=timing.timeout,
            what="runs and a refresh batch in flight",
        )
        refreshed_before = Source.objects.filter(last_refresh_at__isnull=False).count()
        clock = Stopwatch()
        dropped = terminate_database_connections()
        wait_for(
            lambda: workload.runs_finished(subscriptions) and workload.sources_finished(source_ids),
            timeout=timing.timeout,
            what="every run and refresh to finish after the connections dropped",
        )
        recovery = clock.seconds()
        return {
            "fault": "pg_terminate_backend of every app connection mid-batch",
            "connections_dropped": dropped,
            "sources_refreshed_before_fault": refreshed_before,
            "recovery_seconds": recovery,
            **workload.runs_report(subscriptions),
            **{
                f"sources_{key}": value
                for key, value in workload.sources_report(source_ids, timezone.now()).items()
            },
            "feed_requests_max_per_source": max(feeds.requests.values()),
        }


def _get(url: str, *, token: str = "", method: str = "GET") -> int:
    request = urllib.request.Request(url, method=method)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def redis_down(timing: Timing, *, outage_seconds: float = 10.0, runs: int = 6) -> dict:
    """Our Redis (broker and cache) crashes and is away for `outage_seconds`, losing its
    queue. The web keeps serving pages and accepting "run now"; once Redis is back, every run —
    queued before, lost in the crash, or asked for during the outage — finishes, once."""
    with (
        workload.slow_model(timing.model_seconds) as model,
        _deployment(timing, model) as deployment,
    ):
        subscriptions = workload.due_subscriptions(runs, now=timezone.now())
        extra = workload.due_subscriptions(1, now=timezone.now(), prefix="during")
        Subscription.objects.filter(pk__in=extra).update(next_run_at=None)  # run by hand
        owner = Subscription.objects.get(pk=extra[0]).owner
        _row, token = issue_token(owner, "fault test")
        _web, base = deployment.web()
        deployment.cluster("cluster-a")
        deployment.ticker("ticker", every=timing.tick_every)
        wait_for(workload.wait_until_running(Run), timeout=timing.timeout, what="runs")
        deployment.redis.crash()
        outage = Stopwatch()
        pages = []
        run_now = None
        while outage.seconds() < outage_seconds:
            pages += [_get(f"{base}/"), _get(f"{base}/topics"), _get(f"{base}/accounts/login/")]
            if run_now is None:
                run_now = _get(
                    f"{base}/api/v1/subscriptions/{extra[0]}/run", token=token, method="POST"
                )
            time.sleep(0.5)
        deployment.redis.start()
        clock = Stopwatch()
        everything = subscriptions + extra
        wait_for(
            lambda: workload.runs_finished(everything),
            timeout=timing.timeout,
            what="every run to finish after Redis came back",
        )
        return {
            "fault": f"Redis (broker and cache) down for {outage_seconds:g} s, its queue lost",
            "pages_during_outage": len(pages),
            "page_errors_during_outage": sum(1 for status in pages if status >= 500),
            "page_statuses": sorted(set(pages)),
            "run_now_status_during_outage": run_now,
            "recovery_seconds": clock.seconds(),
            **workload.runs_report(everything),
        }


def two_clusters_two_tickers(timing: Timing, *, runs: int = 30, sources: int = 30) -> dict:
    """No fault: two worker groups and two tickers at once, as two machines would run."""
    with (
        workload.slow_model(timing.model_seconds / 4) as model,
        workload.SlowFeeds(latency=0.05) as feeds,
        _deployment(timing, model) as deployment,
    ):
        now = timezone.now()
        subscriptions = workload.due_subscriptions(runs, now=now)
        source_ids = workload.due_sources(feeds, sources, now=now)
        topic = workload.due_topic(now=now)
        deployment.cluster("cluster-a")
        deployment.cluster("cluster-b")
        clock = Stopwatch()
        deployment.ticker("ticker-a", every=timing.tick_every)
        deployment.ticker("ticker-b", every=timing.tick_every)
        wait_for(
            lambda: (
                workload.runs_finished(subscriptions)
                and workload.sources_finished(source_ids)
                and Edition.objects.filter(topic=topic, status="succeeded").exists()
            ),
            timeout=timing.timeout,
            what="all work to finish",
        )
        seconds = clock.seconds()
        time.sleep(timing.lease + 2 * timing.tick_every)  # anything done twice would show now
        return {
            "fault": "none: two worker groups and two tickers at once",
            "seconds": seconds,
            **workload.runs_report(subscriptions),
            **{
                f"sources_{key}": value
                for key, value in workload.sources_report(source_ids, timezone.now()).items()
            },
            "feed_requests_max_per_source": max(feeds.requests.values()),
            **{f"edition_{key}": value for key, value in workload.edition_report(topic).items()},
        }


def tick_behind_backlog(timing: Timing, *, backlog: int = 2_000, task_seconds: float = 0.5):
    """The tick behind a backlog: `backlog` queued tasks of `task_seconds` each (standing in
    for queued runs) in the broker, one worker busy on them, and the product's ticker loop
    (`manage.py tick --loop`). A subscription then comes due: its run must be claimed within a
    tick, not after the backlog. Tick delay = from the moment it is due until its run exists.
    (As a django-q2 schedule the tick waited its turn: 5 min 38 s behind 2,000 runs.)"""
    with Deployment(lease_seconds=timing.lease, heartbeat_seconds=timing.heartbeat) as deployment:
        deployment.run_to_end(
            "enqueue-backlog",
            "from django_q.tasks import async_task\n"
            f"for _ in range({backlog}):\n"
            f"    async_task('time.sleep', {task_seconds}, group='runs')\n",
        )
        deployment.cluster("cluster", workers=1)
        ticker = deployment.tick_loop("ticker", every=timing.tick_every)
        wait_for(lambda: "ticking every" in ticker.log(), timeout=90, what="the ticker to start")
        time.sleep(2 * timing.tick_every)  # past its first tick (the hourly chores)
        (subscription,) = workload.due_subscriptions(1, now=timezone.now(), prefix="backlog")
        clock = Stopwatch()
        wait_for(
            lambda: Run.objects.filter(subscription_id=subscription).exists(),
            timeout=timing.timeout,
            what="the tick to claim the due subscription behind the backlog",
            every=0.05,
        )
        delay = clock.seconds()
        return {
            "fault": f"the tick behind {backlog:,} queued tasks",
            "backlog": backlog,
            "task_seconds": task_seconds,
            "tick_delay_seconds": round(delay, 2),
            "seconds": delay,
        }


def describe(report: dict) -> str:
    return json.dumps(report, sort_keys=True, default=str)
