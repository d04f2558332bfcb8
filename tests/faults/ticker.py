"""`python -m tests.faults.ticker SECONDS`: the dispatcher tick in a loop, as the minutely
django-q2 schedule would run it, only faster. A tick that fails (database or broker away) is
logged and the loop goes on, as the schedule would."""

from __future__ import annotations

import logging
import os
import sys
import time


def main(interval: float) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.faults.cluster_settings")
    import django

    django.setup()
    from django.db import connections

    from digests.tasks import dispatch_tick

    logger = logging.getLogger("ticker")
    while True:
        started = time.monotonic()
        try:
            logger.info("tick %s", dispatch_tick())
        except Exception:
            logger.exception("tick failed")
            connections.close_all()
        time.sleep(max(0.0, interval - (time.monotonic() - started)))


if __name__ == "__main__":
    main(float(sys.argv[1]))
