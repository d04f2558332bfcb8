"""Settings for the `qcluster` the throughput benchmark starts: the test settings with the
queue running for real (not inline) against the benchmark's throw-away database."""

import os

from tests.settings import *  # noqa: F403
from tests.settings import DATABASES, Q_CLUSTER

Q_CLUSTER = {
    **Q_CLUSTER,
    "sync": False,
    "workers": int(os.environ.get("Q_WORKERS", "2")),
    # A queue of the benchmark's own, so nothing else's tasks are taken or left behind.
    "cluster_name": os.environ["TIDINGS_BENCH_QUEUE"],
}
DATABASES["default"]["NAME"] = os.environ["TIDINGS_BENCH_DATABASE"]
