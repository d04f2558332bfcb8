"""`manage.py backfill`: ask for the backfill read of Korean feeds and feeds with gaps now,
without waiting for 03:30 Asia/Seoul (ingest/library/backfill.py). The reads happen at the
sources' next refreshes, as early as their 30-minute floor allows."""

from __future__ import annotations

from datetime import datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from ingest.library.backfill import request_backfill


class Command(BaseCommand):
    help = "Ask Korean feeds and feeds that reported gaps to re-read at their next refresh."

    def add_arguments(self, parser):
        parser.add_argument(
            "--now", help="Pretend it is this ISO 8601 time (with offset), for scripts."
        )

    def handle(self, *args, **options):
        now = timezone.now()
        if options["now"]:
            try:
                now = datetime.fromisoformat(options["now"])
            except ValueError:
                raise CommandError(f"--now {options['now']!r} is not an ISO 8601 time.") from None
            if now.tzinfo is None:
                raise CommandError("--now needs a UTC offset, e.g. 2026-11-22T08:00:00+00:00.")
        asked = request_backfill(now=now)
        self.stdout.write(f"Backfill requested for {asked} source(s).")
