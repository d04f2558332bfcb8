"""`manage.py ingest URL_OR_FILE [...] [--json]`: ingest feeds now and print per-source counts.

Local files are an admin's convenience here only; the web and the API accept URLs only.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

from django.core.management.base import BaseCommand
from django.utils import timezone

from ingest.library.sources import SourceError, ensure_feed_source, ensure_file_source
from ingest.refresh.pipeline import refresh_source

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Ingest feeds (URLs or local files) into the content pool now."

    def add_arguments(self, parser):
        parser.add_argument("targets", nargs="+", metavar="URL_OR_FILE")
        parser.add_argument("--json", action="store_true", help="Print one JSON document.")

    def _ingest_one(self, target: str, now) -> dict:
        row = {
            "source": target,
            "status": "ok",
            "items_seen": 0,
            "inserted": 0,
            "updated": 0,
            "deduped": 0,
            "error": "",
        }
        path = Path(target)
        try:
            if "://" not in target and path.exists():
                source, outcome = ensure_file_source(path, now=now)
            elif "://" not in target:
                raise SourceError(f"{target} is neither an existing file nor a URL.")
            else:
                source, outcome = ensure_feed_source(target, now=now)
                if outcome is None:  # already known: refresh it now
                    outcome = refresh_source(source, now=now)
        except SourceError as exc:
            row.update(status="error", error=exc.message)
            return row
        except Exception as exc:
            # One target's unexpected failure is its error row; the others still run and
            # the JSON stays one document a script can read.
            logger.exception("ingesting %s failed", target)
            row.update(status="error", error=f"{type(exc).__name__}: {exc}")
            return row
        counts = outcome.counts
        row.update(
            items_seen=counts.seen,
            inserted=counts.inserted,
            updated=counts.updated,
            deduped=counts.deduped,
        )
        if not outcome.ok:
            row.update(status="error", error=outcome.error)
        return row

    def handle(self, *args, **options):
        now = timezone.now()
        rows = [self._ingest_one(target, now) for target in options["targets"]]
        if options["json"]:
            self.stdout.write(json.dumps({"sources": rows}, ensure_ascii=False))
        else:
            for row in rows:
                if row["status"] == "ok":
                    self.stdout.write(
                        f"ok     {row['source']}: {row['items_seen']} seen, "
                        f"{row['inserted']} new, {row['updated']} updated, "
                        f"{row['deduped']} duplicates"
                    )
                else:
                    self.stderr.write(f"error  {row['source']}: {row['error']}")
        if any(row["status"] == "error" for row in rows):
            sys.exit(1)
