"""Scale-out, measured inside `throughput`: the multi-machine deployment — PostgreSQL, a Redis
broker (and cache), S3-compatible storage (moto's server) and one or two `manage.py qcluster`
worker groups of 2 workers each, as two machines would run them — doing runs and refreshes
whose time goes where it goes in production: waiting on other servers.

- runs: each run asks the model twice (a fake Messages API answering after MODEL_SECONDS),
  fetches the full text of its best candidate from a site that answers after SITE_SECONDS, and
  stores it compressed in S3 (bodies over 1 KB go to storage here);
- refreshes: feeds on 50 host names (all loopback, resolved in the workers only), each answer
  SITE_SECONDS late, fetched REFRESH_CONCURRENCY=4 at a time per batch of 50.

The dispatcher tick (a loop, every second) claims and enqueues; the clock runs from the first
tick to the last piece of work finished. Each phase runs with one worker group, then with two
(new processes, new work). ratio = throughput with two groups ÷ with one (goal ≥ 1.7).

On this 2-core machine a second group adds workers, not cores: it shows that the deployment
scales out (a shared broker, leases, conditional claims: nothing twice) for work that waits on
the network — which runs (the model) and refreshes (remote feeds) do in production.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from datetime import timedelta
from http.server import BaseHTTPRequestHandler

from django.contrib.auth.models import User
from django.db.models import Q
from django.utils import timezone

from digests.models import Subscription
from ingest.canonical import url_hash
from ingest.models import ContentItem, Source, config_hash
from tests.bench.feed_server import feed_body
from tests.faults import workload
from tests.faults.harness import Deployment, Stopwatch, wait_for
from tests.loopback import LoopbackServer

HOSTS = 50
SUFFIX = ".scale.test"
MODEL_SECONDS = 1.0
SITE_SECONDS = 1.0
BUCKET = "tidings-scaleout"
# runs, sources per phase; smoke measures the runs phase only (a refresh phase needs several
# batches of 50 to spread over two groups).
SIZES = {"smoke": (6, 0), "small": (60, 200), "full": (200, 600)}
ARTICLE = "<p>" + " ".join(["The quick brown fox jumps over the lazy dog."] * 40) + "</p>"


def _host(number: int) -> str:
    return f"h{number % HOSTS:02d}{SUFFIX}"


class Site:
    """Feeds at /fNNNN.xml and articles at /a/N, every answer `latency` seconds late."""

    def __init__(self, latency: float):
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                time.sleep(latency)
                if self.path.startswith("/a/"):
                    body = (
                        f"<html><head><title>Article {self.path}</title></head><body><article>"
                        f"<h1>Article {self.path}</h1>{ARTICLE * 3}</article></body></html>"
                    ).encode()
                    kind = "text/html; charset=utf-8"
                else:
                    number = int(self.path.strip("/").removeprefix("f").removesuffix(".xml"))
                    body, kind = feed_body(number, 0), "application/rss+xml"
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.loopback = LoopbackServer(Handler, request_queue_size=256).start()
        self.port = self.loopback.port

    def url(self, number: int, path: str) -> str:
        return f"http://{_host(number)}:{self.port}{path}"


@contextmanager
def s3_server():
    import boto3
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    client = boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    client.create_bucket(Bucket=BUCKET)
    try:
        yield endpoint, client
    finally:
        server.stop()


def _runs(site: Site, count: int, prefix: str, now) -> list[int]:
    """Subscriptions due now, each with two pool items whose pages are on the site."""
    ids = []
    for n in range(count):
        user = User.objects.create_user(f"{prefix}{n}@scale.example", f"{prefix}{n}@scale.example")
        interest = f"Numbat{prefix.title()}{n}"
        for k in range(2):
            url = site.url(n, f"/a/{prefix}-{n}-{k}")
            ContentItem.objects.create(
                canonical_url=url,
                canonical_url_hash=url_hash(url),
                title=f"{interest} report {k}",
                description=f"About {interest}.",
                published_at=now - timedelta(hours=k + 1),
                first_seen_at=now,
                last_seen_at=now,
            )
        ids.append(
            Subscription.objects.create(
                owner=user,
                name=f"Watch {n}",
                interests=[interest],
                cron="0 8 * * *",
                next_run_at=None,  # made due all at once when the clock starts
            ).pk
        )
    return ids


def _sources(site: Site, count: int, offset: int, now) -> list[int]:
    sources = Source.objects.bulk_create(
        Source(
            type=Source.Type.FEED,
            config={"url": site.url(n, f"/f{n:04d}.xml")},
            config_hash=config_hash(Source.Type.FEED, {"url": site.url(n, f"/f{n:04d}.xml")}),
            url=site.url(n, f"/f{n:04d}.xml"),
            next_refresh_at=None,  # made due all at once when the clock starts
        )
        for n in range(offset, offset + count)
    )
    return [source.pk for source in sources]


def _phase(env: dict, model_url: str, groups: int, make_work, make_due, finished) -> float:
    with Deployment(
        lease_seconds=45, heartbeat_seconds=10, llm_url=model_url, extra_env=env
    ) as deployment:
        for group in range(groups):
            deployment.cluster(f"group-{group + 1}")
        work = make_work()
        ticker = deployment.ticker("ticker", every=1.0)
        wait_for(lambda: "tick" in ticker.log(), timeout=120, what="the ticker to tick")
        clock = Stopwatch()
        make_due(work, timezone.now())
        wait_for(lambda: finished(work), timeout=1800, what="the scale-out work", every=0.25)
        return clock.seconds()


def _runs_due(ids: list[int], now) -> None:
    Subscription.objects.filter(pk__in=ids).update(next_run_at=now - timedelta(seconds=1))


def _sources_due(ids: list[int], now) -> None:
    Source.objects.filter(pk__in=ids).update(next_refresh_at=now - timedelta(seconds=1))


def measure(size: str) -> dict:
    runs_wanted, sources_wanted = SIZES[size]
    result: dict = {"scaleout_runs": runs_wanted, "scaleout_sources": sources_wanted}
    with (
        workload.slow_model(MODEL_SECONDS) as model,
        s3_server() as (endpoint, s3),
    ):
        site = Site(SITE_SECONDS)
        env = {
            "TIDINGS_FAULT_LOOPBACK_SUFFIX": SUFFIX,
            "TIDINGS_FAULT_LOOPBACK_HOSTS": ",".join(_host(n) for n in range(HOSTS)),
            "TIDINGS_FAULT_FULLTEXT_TOP_K": "1",
            "FETCH_EXTRA_ALLOWED_PORTS": str(site.port),
            "REFRESH_CONCURRENCY": "4",
            "BODY_INLINE_MAX_BYTES": "1024",
            "STORAGE_S3_BUCKET": BUCKET,
            "STORAGE_S3_ENDPOINT_URL": endpoint,
            "STORAGE_S3_ACCESS_KEY": "testing",
            "STORAGE_S3_SECRET_KEY": "testing",
            "STORAGE_S3_REGION": "us-east-1",
        }
        try:
            for groups in (1, 2):
                now = timezone.now()
                seconds = _phase(
                    env,
                    model.url,
                    groups,
                    lambda now=now, groups=groups: _runs(site, runs_wanted, f"g{groups}x", now),
                    _runs_due,
                    workload.runs_finished,
                )
                ids = Subscription.objects.filter(owner__username__startswith=f"g{groups}x")
                report = workload.runs_report(list(ids.values_list("pk", flat=True)))
                result[f"runs_{groups}_groups_seconds"] = seconds
                result[f"runs_{groups}_groups_per_hour"] = round(runs_wanted / seconds * 3600)
                result[f"runs_{groups}_groups_problems"] = (
                    report["failed"] + report["subscriptions_run_twice"] + report["unfinished"]
                )
                if not sources_wanted:
                    continue
                offset = (groups - 1) * sources_wanted
                seconds = _phase(
                    env,
                    model.url,
                    groups,
                    lambda now=now, offset=offset: _sources(site, sources_wanted, offset, now),
                    _sources_due,
                    workload.sources_finished,
                )
                result[f"refreshes_{groups}_groups_seconds"] = seconds
                result[f"refreshes_{groups}_groups_per_hour"] = round(
                    sources_wanted / seconds * 3600
                )
            logs = workload.sources_report(
                list(Source.objects.filter(url__contains=SUFFIX).values_list("pk", flat=True)),
                timezone.now(),
            )
            result["refresh_problems"] = logs["failed"] + logs["refreshed_twice"]
            result["bodies_in_s3"] = s3.list_objects_v2(Bucket=BUCKET).get("KeyCount", 0)
            result["bodies_expected"] = ContentItem.objects.filter(
                ~Q(full_text_key=""), canonical_url__contains=SUFFIX
            ).count()
        finally:
            site.loopback.stop()
    for kind in ("runs", "refreshes"):
        if f"{kind}_1_groups_per_hour" in result:
            result[f"{kind}_scaleout_ratio"] = round(
                result[f"{kind}_2_groups_per_hour"] / result[f"{kind}_1_groups_per_hour"], 2
            )
    result["scaleout_checks"] = {
        "scale-out: no run failed or ran twice": not (
            result["runs_1_groups_problems"] or result["runs_2_groups_problems"]
        ),
        "scale-out: no refresh failed or ran twice": not result["refresh_problems"],
        "scale-out: every large body is in S3": result["bodies_in_s3"] == result["bodies_expected"],
    }
    return result


def describe(result: dict) -> list[str]:
    lines = [
        f"  scale-out (PostgreSQL, Redis broker, S3 on moto; model {MODEL_SECONDS} s, sites "
        f"{SITE_SECONDS} s): {result['scaleout_runs']} runs, {result['scaleout_sources']} "
        "refreshes per phase"
    ]
    for kind in ("runs", "refreshes"):
        if f"{kind}_scaleout_ratio" not in result:
            continue
        lines.append(
            f"    {kind:<9} 1 group {result[f'{kind}_1_groups_per_hour']:>8,}/hour "
            f"({result[f'{kind}_1_groups_seconds']} s), 2 groups "
            f"{result[f'{kind}_2_groups_per_hour']:>8,}/hour "
            f"({result[f'{kind}_2_groups_seconds']} s): ratio {result[f'{kind}_scaleout_ratio']} "
            "(goal ≥ 1.7)"
        )
    lines.append(
        f"    failed or twice: runs {result['runs_1_groups_problems']} / "
        f"{result['runs_2_groups_problems']}, refreshes {result['refresh_problems']}; bodies in "
        f"S3 {result['bodies_in_s3']} (items with a stored body {result['bodies_expected']})"
    )
    return lines
