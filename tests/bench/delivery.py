"""`delivery`: email briefs through a real SMTP server on loopback with 2 worker processes.

Data (full): 1,000 briefs — 100 users × 10 subscriptions, one succeeded run each with 10 items
(title, source, a ~200-character summary, a "why selected" line) and a template-sized overview;
a fifth of them in Simplified Chinese — and one pending email delivery per run, as the runner
plans them. `small` is 200 briefs, `smoke` 20.

Measured: two worker processes take delivery ids from one queue and call
`digests.delivery.service.send_delivery()` — claim, read the brief, render subject / text /
HTML, send through Django's SMTP backend (a connection per message), record the outcome.
Every id is queued twice, as at-least-once task delivery would, so the claim has to keep each
brief to one message. The SMTP server (aiosmtpd) runs in a third process and counts what
arrives by Message-ID: duplicates must be 0.

Baseline, in the same run: the same two processes sending the same number of ready-made
messages of the same size through the same backend, with no database, rendering or
bookkeeping. ratio = Tidings messages/s ÷ baseline messages/s.
"""

from __future__ import annotations

import multiprocessing
import os
import time
import traceback
from datetime import UTC, datetime

from tests.bench.sizes import checked

NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)
BRIEFS = {"smoke": 20, "small": 200, "full": 1_000}
ITEMS_PER_BRIEF = 10
WORKERS = 2
SUMMARY = (
    "A server-side request forgery bug in a hosted invoice-to-PDF service allowed crafted HTML "
    "to fetch internal URLs, including the cloud instance metadata endpoint; patched in 4.2."
)
NARRATIVE = (
    "**PostgreSQL 18 released** leads this issue: asynchronous I/O lands in core, vacuum gets "
    "faster and the planner learns new tricks.\n\nAlso in this issue:\n"
    + "\n".join(f"- Story {n} about databases and the web" for n in range(1, 10))
)


# --- Child processes (nothing Django at import time: spawned children import this module) ---


def _setup(db_name: str, smtp_port: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connections

    connections["default"].settings_dict["NAME"] = db_name
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", smtp_port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = 20


def _smtp_process(ports, control) -> None:
    from tests.smtp_server import LoopbackSMTPServer

    server = LoopbackSMTPServer(parse=False).start()
    ports.put(server.port)
    while (command := control.recv()) != "stop":
        if command == "ids":
            control.send(server.message_ids())
        elif command == "clear":
            server.clear()
            control.send("ok")
    server.stop()


def _tidings_worker(db_name, smtp_port, warm_up_id, ready, start, tasks, results) -> None:
    try:
        _setup(db_name, smtp_port)
        from django.db import connections

        from digests.delivery import email as email_channel
        from digests.delivery import service

        # What a long-lived qcluster worker has done long before: import the URLconf (the
        # first reverse() imports every view) and load the templates.
        _sample_message(warm_up_id)

        render_ms: list[float] = []
        build = email_channel.build_message

        def timed_build(*args, **kwargs):
            began = time.perf_counter()
            message = build(*args, **kwargs)
            render_ms.append((time.perf_counter() - began) * 1000)
            return message

        email_channel.build_message = timed_build
        statuses: dict[str, int] = {}
        ready.put(True)
        start.wait()
        while (pk := tasks.get()) is not None:
            delivery = service.send_delivery(pk, now=NOW)
            statuses[delivery.status] = statuses.get(delivery.status, 0) + 1
        connections.close_all()
        results.put({"render_ms": render_ms, "statuses": statuses, "done": time.perf_counter()})
    except Exception:
        ready.put(False)  # never leave the parent waiting for this child
        results.put({"error": traceback.format_exc()})


def _bare_worker(smtp_port, message, ready, start, tasks, results) -> None:
    """Send ready-made messages: Django's SMTP backend alone, a connection per message."""
    try:
        _setup("", smtp_port)
        from django.core.mail import EmailMultiAlternatives, get_connection
        from django.core.mail.backends import smtp  # noqa: F401 — imported before the clock

        subject, text, html = message
        ready.put(True)
        start.wait()
        while (n := tasks.get()) is not None:
            mail = EmailMultiAlternatives(
                subject, text, to=["reader@example.com"], headers={"Message-ID": f"<bare{n}@b>"}
            )
            mail.attach_alternative(html, "text/html")
            with get_connection(fail_silently=False, timeout=20) as connection:
                connection.send_messages([mail])
        results.put({"done": time.perf_counter()})
    except Exception:
        ready.put(False)  # never leave the parent waiting for this child
        results.put({"error": traceback.format_exc()})


# --- The benchmark -------------------------------------------------------------------------


def _make_briefs(count: int) -> list[int]:
    from django.contrib.auth.models import User

    from digests.models import Delivery, Run, RunItem, Subscription
    from ingest.canonical import url_hash
    from ingest.models import ContentItem

    items = ContentItem.objects.bulk_create(
        [
            ContentItem(
                canonical_url=f"https://news.example/story/{n}",
                canonical_url_hash=url_hash(f"https://news.example/story/{n}"),
                title=f"Story {n}: PostgreSQL, Rust and the state of the web platform",
                description=SUMMARY,
                site_name=f"Site {n % 25}",
                published_at=NOW,
                first_seen_at=NOW,
                last_seen_at=NOW,
            )
            for n in range(200)
        ]
    )
    users = max(1, count // 10)
    owners = [
        User.objects.create_user(username=f"reader{n}@example.com", email=f"reader{n}@example.com")
        for n in range(users)
    ]
    subscriptions = Subscription.objects.bulk_create(
        [
            Subscription(
                owner=owners[n % users],
                name=f"Brief {n}",
                topic="Databases and the web",
                cron="0 8 * * *",
                timezone="Europe/Berlin",
                email_enabled=True,
            )
            for n in range(count)
        ]
    )
    runs = Run.objects.bulk_create(
        [
            Run(
                subscription=s,
                user_id=s.owner_id,
                status=Run.Status.SUCCEEDED,
                trigger=Run.Trigger.SCHEDULED,
                scheduled_at=NOW,
                finished_at=NOW,
                output_locale="zh-hans" if n % 5 == 0 else "en",
                narrative_md=NARRATIVE,
                narrative_generator="template",
                delivered_count=ITEMS_PER_BRIEF,
            )
            for n, s in enumerate(subscriptions)
        ]
    )
    RunItem.objects.bulk_create(
        [
            RunItem(
                run=run,
                item=item,
                canonical_url_hash=item.canonical_url_hash,
                relevance=85,
                overall=78,
                reason="matches PostgreSQL in the title; source: Site 3; published Nov 22",
                rank=rank,
                title=item.title,
                url=item.canonical_url,
                summary=SUMMARY,
                summary_generator="extractive",
                source_name=item.site_name,
                published_at=NOW,
                delivered_at=NOW,
            )
            for n, run in enumerate(runs)
            for rank, item in enumerate(
                items[(n * 7) % 190 : (n * 7) % 190 + ITEMS_PER_BRIEF], start=1
            )
        ],
        batch_size=2_000,
    )
    deliveries = Delivery.objects.bulk_create(
        [
            Delivery(
                run=run,
                subscription=s,
                channel=Delivery.Channel.EMAIL,
                recipient=owners[n % users].email,
                message_id=f"msg_bench_{n:06d}",
                created_at=NOW,
            )
            for n, (run, s) in enumerate(zip(runs, subscriptions, strict=True))
        ]
    )
    return [d.pk for d in deliveries]


def _sample_message(delivery_id: int) -> tuple[str, str, str]:
    from digests.delivery.brief import brief_for_run
    from digests.delivery.email import render_brief_email
    from digests.models import Delivery

    delivery = Delivery.objects.select_related("run__subscription").get(pk=delivery_id)
    rendered = render_brief_email(
        brief_for_run(delivery.run), recipient=delivery.recipient, subject_template=""
    )
    return rendered.subject, rendered.text, rendered.html


def _run_workers(target, args_for, jobs: list, ctx) -> tuple[float, list[dict]]:
    ready, start, tasks, results = ctx.Queue(), ctx.Event(), ctx.Queue(), ctx.Queue()
    for job in jobs:
        tasks.put(job)
    for _ in range(WORKERS):
        tasks.put(None)
    workers = [
        ctx.Process(target=target, args=(*args_for, ready, start, tasks, results))
        for _ in range(WORKERS)
    ]
    for worker in workers:
        worker.start()
    for _ in workers:  # both children set up and warm before the clock starts
        if ready.get(timeout=600) is not True:
            start.set()
            break
    began = time.perf_counter()
    start.set()
    reports = [results.get(timeout=1_800) for _ in workers]
    for worker in workers:
        worker.join(60)
    errors = [r["error"] for r in reports if "error" in r]
    if errors:
        raise RuntimeError("a worker failed:\n" + "\n".join(errors))
    return max(r["done"] for r in reports) - began, reports


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(size: str = "full") -> dict:
    from django.db import connection

    from digests.models import Delivery

    count = BRIEFS[checked(size)]
    ctx = multiprocessing.get_context("spawn")
    setup_began = time.perf_counter()
    ids = _make_briefs(count)
    setup_seconds = time.perf_counter() - setup_began
    db_name = connection.settings_dict["NAME"]
    sample = _sample_message(ids[1])
    connection.close()  # the children write; SQLite wants no reader holding a snapshot

    ports, (control, child_end) = ctx.Queue(), ctx.Pipe()
    smtp = ctx.Process(target=_smtp_process, args=(ports, child_end))
    smtp.start()
    port = ports.get(timeout=30)
    try:
        bare_seconds, _ = _run_workers(_bare_worker, (port, sample), list(range(count)), ctx)
        control.send("ids")
        bare_received = len(control.recv())
        control.send("clear")
        control.recv()
        # Every id twice, interleaved: both workers meet every delivery.
        jobs = [pk for pk in ids for _ in range(2)]
        seconds, reports = _run_workers(_tidings_worker, (db_name, port, ids[0]), jobs, ctx)
        control.send("ids")
        received = control.recv()
    finally:
        control.send("stop")
        smtp.join(10)

    render_ms = [ms for r in reports for ms in r["render_ms"]]
    statuses: dict[str, int] = {}
    for report in reports:
        for status, n in report["statuses"].items():
            statuses[status] = statuses.get(status, 0) + n
    sent_rows = Delivery.objects.filter(status=Delivery.Status.SENT).count()
    tidings_rate = count / seconds
    bare_rate = bare_received / bare_seconds
    return {
        "database": connection.vendor,
        "size": size,
        "briefs": count,
        "items_per_brief": ITEMS_PER_BRIEF,
        "workers": WORKERS,
        "setup_seconds": round(setup_seconds, 1),
        "message_bytes": len(sample[1].encode()) + len(sample[2].encode()),
        "seconds": round(seconds, 2),
        "messages_per_second": round(tidings_rate, 1),
        "render_p50_ms": round(_percentile(render_ms, 0.5), 2),
        "render_p95_ms": round(_percentile(render_ms, 0.95), 2),
        "renders": len(render_ms),
        "handed_out": len(jobs),
        "received": len(received),
        "duplicates": len(received) - len(set(received)),
        "sent_rows": sent_rows,
        "baseline_messages_per_second": round(bare_rate, 1),
        "ratio": round(tidings_rate / bare_rate, 2),
        "checks": {
            "no brief was sent twice": len(received) == len(set(received)),
            "every brief was sent once": len(received) == count and sent_rows == count,
        },
    }


def describe(result: dict) -> list[str]:
    return [
        f"delivery benchmark on {result['database']} ({result['size']}): {result['briefs']:,} "
        f"email briefs of {result['items_per_brief']} items (~{result['message_bytes']:,} bytes "
        f"of text + HTML), {result['workers']} worker processes, aiosmtpd on loopback in its "
        f"own process (set-up {result['setup_seconds']} s)",
        f"  Tidings: {result['messages_per_second']:,} messages/s ({result['seconds']} s); "
        f"render p50 {result['render_p50_ms']} ms, p95 {result['render_p95_ms']} ms per message "
        f"({result['renders']:,} renders)",
        f"  each id handed out twice ({result['handed_out']:,} tasks): received "
        f"{result['received']:,}, duplicates {result['duplicates']} (must be 0), rows sent "
        f"{result['sent_rows']:,}",
        f"  baseline (ready-made messages, same backend, same 2 processes): "
        f"{result['baseline_messages_per_second']:,} messages/s",
        f"  ratio (Tidings ÷ baseline messages/s): {result['ratio']}",
    ]
