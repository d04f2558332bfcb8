"""Settings for the processes a fault test or the `recovery` benchmark starts — qcluster
workers, tickers and gunicorn — on the test's own database and its own Redis (a unix socket,
never the shared one), with the queue running for real."""

import os
import socket

from tests.settings import *  # noqa: F403
from tests.settings import DATABASES, Q_CLUSTER

DATABASES["default"]["NAME"] = os.environ["TIDINGS_FAULT_DATABASE"]
REDIS_URL = os.environ["TIDINGS_FAULT_REDIS"]
_QUEUE = os.environ["TIDINGS_FAULT_QUEUE"]
Q_CLUSTER = {
    key: value for key, value in Q_CLUSTER.items() if key not in ("orm", "poll", "sync")
} | {
    "workers": int(os.environ.get("Q_WORKERS", "2")),
    "redis": REDIS_URL,
    # A queue of the test's own, so nothing else's tasks are taken or left behind.
    "cluster_name": _QUEUE,
    "timeout": 120,
    "retry": 180,
    "catch_up": False,
}
CACHES = {
    "default": {
        "BACKEND": "config.cache.ResilientRedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": _QUEUE,
    }
}
# The fake Messages API and the feed server run in the test's process, on loopback.
ANTHROPIC_API_KEY = os.environ.get("TIDINGS_FAULT_LLM_KEY", "")
LLM_MAX_RETRIES = 0
FETCH_TEST_ONLY_LOOPBACK_HOSTS = ("localhost",)
# The scale-out benchmark's sites: many host names, all on loopback, in these processes only.
_SUFFIX = os.environ.get("TIDINGS_FAULT_LOOPBACK_SUFFIX", "")
if _SUFFIX:
    _real_getaddrinfo = socket.getaddrinfo

    def _getaddrinfo(host, port, *args, **kwargs):
        if isinstance(host, str) and host.endswith(_SUFFIX):
            host = "127.0.0.1"
        return _real_getaddrinfo(host, port, *args, **kwargs)

    socket.getaddrinfo = _getaddrinfo
    FETCH_TEST_ONLY_LOOPBACK_HOSTS = tuple(os.environ["TIDINGS_FAULT_LOOPBACK_HOSTS"].split(","))
# Email briefs go to the test's loopback SMTP server when it gives one.
if _SMTP_PORT := os.environ.get("TIDINGS_FAULT_SMTP_PORT"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = "127.0.0.1"
    EMAIL_PORT = int(_SMTP_PORT)
    EMAIL_USE_TLS = EMAIL_USE_SSL = False
    EMAIL_TIMEOUT = 30
FULLTEXT_TOP_K = int(os.environ.get("TIDINGS_FAULT_FULLTEXT_TOP_K", "0"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"}
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": "INFO"},
    "loggers": {"httpx": {"level": "WARNING"}},
}
