"""`manage.py mailin [--host H] [--port P]`: the SMTP listener for newsletters (an MX target).

Defaults from MAILIN_HOST / MAILIN_PORT. Runs until interrupted; each accepted message is
read by the worker (`manage.py qcluster`). See docs/newsletters.md.
"""

from __future__ import annotations

import signal
import threading

from django.conf import settings
from django.core.management.base import BaseCommand

from ingest.newsletters.smtp import controller


class Command(BaseCommand):
    help = "Receive newsletters by SMTP for the private inbound addresses."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=settings.MAILIN_HOST)
        parser.add_argument("--port", type=int, default=settings.MAILIN_PORT)

    def handle(self, *args, host: str, port: int, **options):
        listener = controller(host=host, port=port)
        listener.start()
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        self.stdout.write(
            f"Receiving mail for *@{settings.INBOUND_DOMAIN} on {host}:{port} "
            f"(at most {settings.MAILIN_MAX_BYTES} bytes a message). Stop with Ctrl-C."
        )
        self.stdout.flush()
        try:
            stop.wait()
        finally:
            listener.stop()
