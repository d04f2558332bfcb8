"""Settings for the test suite: the product's settings with test-only switches.

The database comes from DATABASE_URL like everywhere else (unset: SQLite), so the same suite
runs on SQLite and on PostgreSQL.
"""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-" + "x" * 40)
# Each pytest-xdist worker, and a suite on SQLite beside one on PostgreSQL (CI runs them at
# once), keeps its files (bodies, media, the file cache) apart: their test databases hand out
# the same ids, so shared paths would collide.
os.environ.setdefault(
    "TIDINGS_DATA_DIR",
    os.path.join(
        os.path.dirname(__file__),
        "..",
        "var",
        "test",
        "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite",
        os.environ.get("PYTEST_XDIST_WORKER", ""),
    ),
)

from config.settings import *

SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]
# Tasks run inline in tests: end-to-end task tests call the same code the worker would.
Q_CLUSTER = {**Q_CLUSTER, "sync": True}
REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": {
        "anon": "1000/min",
        "user": "1000/min",
        "token": "1000/min",
        "subscription_preview": "1000/min",
        "interests": "1000/min",
        "schedule_preview": "1000/min",
        "public_topics": "1000/min",
        "export": "1000/min",
        "import": "1000/min",
        "transfer_redeem": "1000/min",
    },
}
# Fixture servers answer instantly; a test that checks the per-host interval sets its own.
FETCH_HOST_MIN_INTERVAL_MS = 0
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True

# A developer's own key must never reach the suite: tests that need the model point the real
# SDK at a fake Messages API on loopback and set a key themselves.
ANTHROPIC_API_KEY = ""
# Runs extract the full text of their top candidates by fetching them; tests' items live on
# made-up hosts, so extraction is off unless a test turns it on (tests/ingest/test_extract.py).
FULLTEXT_TOP_K = 0
# An undeclared API error code fails the test that meets it (config/api/error_codes.py).
API_STRICT_ERROR_CODES = True
