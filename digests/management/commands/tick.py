"""`manage.py tick`: one scheduler tick now (refresh due sources, start due runs);
`manage.py tick --loop`: the dispatcher tick every minute, in this process, outside the task
queue, so it never waits behind queued work (digests/schedules/ticker.py)."""

from __future__ import annotations

import argparse
import contextlib
from datetime import datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from digests import tasks
from digests.delivery import service as deliveries
from digests.runs import runner
from digests.schedules import scheduler, ticker
from ingest.models import Source
from ingest.refresh.pipeline import refresh_many, refresh_source
from topics.editions import produce_edition


class Command(BaseCommand):
    help = "Run one scheduler tick now. Claimed work runs in this process unless --enqueue."

    def add_arguments(self, parser):
        parser.add_argument(
            "--enqueue", action="store_true", help="Hand claimed work to the qcluster workers."
        )
        parser.add_argument(
            "--now", help="Pretend it is this ISO 8601 time (with offset), for scripts."
        )
        parser.add_argument(
            "--loop",
            action="store_true",
            help="Tick every minute until stopped, handing claimed work to the workers.",
        )
        parser.add_argument(
            "--every", type=float, default=ticker.TICK_SECONDS, help=argparse.SUPPRESS
        )

    def handle(self, *args, **options):
        if options["loop"]:
            if options["every"] <= 0:
                raise CommandError("--every must be a positive number of seconds.")
            self.stdout.write(f"ticking every {options['every']:g} s; stop with Ctrl-C")
            with contextlib.suppress(KeyboardInterrupt):
                ticker.run_ticker(tasks.dispatch_tick, every=options["every"])
            return
        now = timezone.now()
        if options["now"]:
            try:
                now = datetime.fromisoformat(options["now"])
            except ValueError:
                raise CommandError(f"--now {options['now']!r} is not an ISO 8601 time.") from None
            if now.tzinfo is None:
                raise CommandError("--now needs a UTC offset, e.g. 2026-11-22T08:00:00+00:00.")
        if options["enqueue"]:
            run_source, run_run = tasks.enqueue_source_refresh, tasks.enqueue_run
            run_sources = tasks.enqueue_source_refreshes
            run_edition = tasks.enqueue_edition
            run_delivery = tasks.enqueue_delivery
        else:

            def run_source(source_id: int) -> None:
                refresh_source(Source.objects.get(pk=source_id), now=now)

            def run_sources(source_ids: list[int]) -> None:
                refresh_many(source_ids, now=now)

            def run_delivery(delivery_id: int) -> None:
                deliveries.send_delivery(delivery_id, now=now)

            def run_run(run_id: int) -> None:
                runner.execute_run(run_id, now=now)
                deliveries.hand_out_run(run_id, run_delivery)

            def run_edition(topic_id: int) -> None:
                produce_edition(topic_id, now=now)

        result = scheduler.tick(
            now=now,
            run_source=run_source,
            run_sources=run_sources,
            run_run=run_run,
            run_edition=run_edition,
            run_delivery=run_delivery,
        )
        verb = "enqueued" if options["enqueue"] else "ran"
        self.stdout.write(
            f"tick at {now.isoformat()}: {verb} {len(result.sources)} source refreshes, "
            f"{len(result.runs)} runs, {len(result.swept)} recovered runs, "
            f"{len(result.editions)} topic editions, {len(result.deliveries)} deliveries due"
        )
