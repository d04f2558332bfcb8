"""`manage.py clear_combination_cache`: delete combination cache entries by hand or from cron.

The minutely dispatcher already deletes expired entries once an hour; this is for deployments
without a qcluster and for emergencies (a bad prompt: --all).
"""

from __future__ import annotations

from datetime import date, datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from digests.ai import combination_cache


class Command(BaseCommand):
    help = "Delete combination cache entries: --expired, --key KEY, --before DATE, or --all."

    def add_arguments(self, parser):
        scope = parser.add_mutually_exclusive_group(required=True)
        scope.add_argument("--expired", action="store_true", help="entries past their expiry")
        scope.add_argument("--key", help="the entry with this 64-character key")
        scope.add_argument("--before", help="entries created before this date (UTC) or time")
        scope.add_argument("--all", action="store_true", help="every entry")

    def handle(self, *args, **options):
        before = None
        if options["before"]:
            raw = options["before"]
            try:
                before = date.fromisoformat(raw) if len(raw) == 10 else datetime.fromisoformat(raw)
            except ValueError:
                raise CommandError(f"--before {raw!r} is not an ISO 8601 date or time.") from None
        try:
            deleted = combination_cache.clear(
                now=timezone.now(),
                key=options["key"] or "",
                before=before,
                expired=options["expired"],
                everything=options["all"],
            )
        except combination_cache.ClearError as exc:
            raise CommandError(f"--{exc.field}: {exc.message}") from None
        self.stdout.write(f"deleted {deleted} combination cache entries")
