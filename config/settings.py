"""Tidings settings: one module, every value from the environment with a safe default.

See the configuration table in README.md. Helpers in config/env.py refuse malformed values.
"""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.client_address import parse_trusted_proxies as _parse_trusted_proxies
from config.env import (
    env_bool,
    env_int,
    env_list,
    env_str,
    parse_database_url,
    parse_redis_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(env_str("TIDINGS_DATA_DIR") or BASE_DIR / "var")

DEBUG = env_bool("DEBUG", default=False)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is required when DEBUG is off. Set SECRET_KEY to a long random string "
            "(python -c 'import secrets; print(secrets.token_urlsafe(50))'), or DEBUG=1 for "
            "local development."
        )
    SECRET_KEY = "django-insecure-local-development-only-never-use-in-production"  # noqa: S105

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django.contrib.sitemaps",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_q",
    "django_htmx",
    "ingest",
    "digests",
    "inbox",
    "topics",
    "billing",
    "digests.textwatch",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy on every answer, cached public pages included (config/csp.py).
    "config.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Anonymous hits on cached public pages are answered here, before sessions and auth.
    "topics.http_cache.PublicPageCacheMiddleware",
    # `Cache-Control: private, no-store` on every answer to a signed-in user (its response
    # half runs after every later middleware's): config/private_cache.py.
    "config.private_cache.PrivateCacheControlMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # 429 + Retry-After for any refused login or password reset (inbox/auth_throttle.py).
    "inbox.middleware.AuthThrottleMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # /api/ only, after the language is known: refuses unreadable query strings and bodies
    # that are not JSON, and adds the rate-limit headers (config/api/middleware.py).
    "config.api.middleware.APIRequestMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication: it reads the signed-in user's language and time zone.
    "inbox.middleware.UserPreferenceMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # Dates and times shown one way everywhere, with their zone (config/moments.py).
            "libraries": {"moments": "config.moments"},
        },
    },
]

# --- Database ---------------------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL:
    DATABASES = {"default": parse_database_url(DATABASE_URL, base_dir=BASE_DIR)}
else:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": DATA_DIR / "tidings.sqlite3",
        }
    }
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # WAL lets the web process read while the worker writes; the timeout waits out short locks.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache and queue --------------------------------------------------------------------
REDIS_URL = parse_redis_url(env_str("REDIS_URL")) if env_str("REDIS_URL") else ""
if REDIS_URL:
    CACHES = {
        "default": {
            # A Redis outage answers from memory instead of failing pages (config/cache.py).
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "tidings"),
        }
    }
else:
    # Shared by the web and worker processes (a per-process cache would keep serving public
    # pages that a worker's new edition retired, and split rate limits per process); Django's
    # file cache with cheaper writes (config/cache.py).
    CACHES = {
        "default": {
            "BACKEND": "config.cache.SharedFileCache",
            "LOCATION": str(DATA_DIR / "cache"),
        }
    }

# Work leases (config/leases.py): a run, edition, refresh or delivery a worker claimed is
# reclaimed by the dispatcher tick once its lease is this old without a heartbeat; workers renew
# it every WORK_HEARTBEAT_SECONDS. With the minutely tick a dead worker's work is back in hand
# within lease + 60 s.
WORK_LEASE_SECONDS = env_int("WORK_LEASE_SECONDS", 45, minimum=2)
WORK_HEARTBEAT_SECONDS = env_int("WORK_HEARTBEAT_SECONDS", 10, minimum=1)
if WORK_HEARTBEAT_SECONDS * 2 > WORK_LEASE_SECONDS:
    raise ImproperlyConfigured(
        f"WORK_HEARTBEAT_SECONDS={WORK_HEARTBEAT_SECONDS} must be at most half of "
        f"WORK_LEASE_SECONDS={WORK_LEASE_SECONDS}, so one missed beat does not lose a lease."
    )
# A text watch whose check was claimed this many times in a row without finishing (a page
# that kills its worker: out of memory, a timeout) is not tried again until an interval later,
# and the reason is shown to its owner as the watch's error (docs/watches.md).
WATCH_CHECK_ATTEMPTS = env_int("WATCH_CHECK_ATTEMPTS", 3, minimum=1)

# django-q2 delivers a task at least once: a task that outlives `timeout` is killed and handed
# out again after `retry`, so retry must exceed timeout and every task must be idempotent.
Q_CLUSTER = {
    "name": "tidings",
    "workers": env_int("Q_WORKERS", 2, minimum=1),
    "timeout": env_int("Q_TIMEOUT", 300, minimum=10),
    "retry": env_int("Q_TIMEOUT", 300, minimum=10) + 60,
    "max_attempts": 3,
    # Tasks a cluster pulls from the broker ahead of its workers: one each. More would leave
    # other machines' clusters idle while this one sits on a burst, and lose them all to its
    # death (they come back only when their leases run out).
    "queue_limit": env_int("Q_WORKERS", 2, minimum=1),
    "save_limit": 500,
    # After downtime the scheduler runs the tick once, not once per missed minute.
    "catch_up": False,
    "ack_failures": True,
    "label": "Task queue",
}
if REDIS_URL:
    Q_CLUSTER["redis"] = REDIS_URL
else:
    Q_CLUSTER["orm"] = "default"
    Q_CLUSTER["poll"] = 1

# --- Auth -------------------------------------------------------------------------------
# Database sessions, read through a compiled query on every signed-in page (inbox/sessions.py).
SESSION_ENGINE = "inbox.sessions"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = ["inbox.auth_backends.EmailBackend"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "inbox:index"
LOGOUT_REDIRECT_URL = "home"
# One throttle for every login surface (inbox/auth_throttle.py): attempts per (address,
# account), then per address over all accounts, then per account over all addresses (not
# counted for a browser that has logged in to that account before).
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
LOGIN_FAILURE_WINDOW_SECONDS = env_int("LOGIN_FAILURE_WINDOW_SECONDS", 900, minimum=1)
LOGIN_ADDRESS_LIMIT = env_int("LOGIN_ADDRESS_LIMIT", 50, minimum=1)
LOGIN_ACCOUNT_LIMIT = env_int("LOGIN_ACCOUNT_LIMIT", 50, minimum=1)
LOGIN_ACCOUNT_WINDOW_SECONDS = env_int("LOGIN_ACCOUNT_WINDOW_SECONDS", 3600, minimum=1)
PASSWORD_RESET_ADDRESS_LIMIT = env_int("PASSWORD_RESET_ADDRESS_LIMIT", 10, minimum=1)
PASSWORD_RESET_ACCOUNT_LIMIT = env_int("PASSWORD_RESET_ACCOUNT_LIMIT", 3, minimum=1)
PASSWORD_RESET_WINDOW_SECONDS = env_int("PASSWORD_RESET_WINDOW_SECONDS", 3600, minimum=1)
API_AUTH_FAILURE_LIMIT = env_int("API_AUTH_FAILURE_LIMIT", 20, minimum=1)
API_AUTH_FAILURE_WINDOW_SECONDS = env_int("API_AUTH_FAILURE_WINDOW_SECONDS", 300, minimum=1)

# --- Internationalization ---------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("zh-hans", _("Simplified Chinese"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Our short and long date formats per language (config/formats/).
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files and storage -----------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Files browsers ask for at the site's root (/favicon.ico), served by WhiteNoise as they are.
WHITENOISE_ROOT = BASE_DIR / "static" / "root"
MEDIA_ROOT = DATA_DIR / "media"
MEDIA_URL = "media/"

_S3_BUCKET = env_str("STORAGE_S3_BUCKET")
if _S3_BUCKET:
    _default_storage = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": _S3_BUCKET,
            "endpoint_url": env_str("STORAGE_S3_ENDPOINT_URL") or None,
            "access_key": env_str("STORAGE_S3_ACCESS_KEY") or None,
            "secret_key": env_str("STORAGE_S3_SECRET_KEY") or None,
            "region_name": env_str("STORAGE_S3_REGION") or None,
            "default_acl": None,
            "querystring_auth": True,
        },
    }
else:
    _default_storage = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
STORAGES = {
    "default": _default_storage,
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# --- Email ------------------------------------------------------------------------------
EMAIL_HOST = env_str("EMAIL_HOST")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=EMAIL_PORT == 587)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", default=EMAIL_PORT == 465)
    EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 20, minimum=1)
elif EMAIL_FILE_PATH := env_str("EMAIL_FILE_PATH"):
    # No SMTP, a folder: each message (briefs, password resets) is written there as a file.
    # `make start` uses var/mail/.
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
else:
    # No SMTP configured: print emails (briefs, password resets) on the process's console.
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Tidings <tidings@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Security (production) --------------------------------------------------------------
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if env_bool("TRUST_X_FORWARDED_PROTO", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Who may name the client in X-Forwarded-For (config/client_address.py): nobody by default, a
# number of proxies in front, or their networks. Parsed here so a typo stops the process.
TIDINGS_TRUSTED_PROXIES = env_str("TIDINGS_TRUSTED_PROXIES", "")
_parse_trusted_proxies(TIDINGS_TRUSTED_PROXIES)

# --- API --------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "inbox.authentication.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON in, JSON out: other request types are answered 415 (config/api/parsers.py).
    "DEFAULT_PARSER_CLASSES": ["config.api.parsers.JSONBodyParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",  # DRF's test client would send multipart
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.api.errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "config.api.pagination.NewestFirstCursorPagination",
    "PAGE_SIZE": 50,
    # config/api/throttling.py: per address (anonymous), per user, per token, and the rate a
    # view names with throttle_scope — one throttle, one cache read and one write a request.
    "DEFAULT_THROTTLE_CLASSES": ["config.api.throttling.ApiRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("API_ANON_RATE", "60/min"),
        "user": env_str("API_USER_RATE", "600/min"),
        "token": env_str("API_TOKEN_RATE", "300/min"),
        # Scoped throttles: a subscription preview runs the whole selection pipeline, so it is
        # limited per user; the schedule preview is public.
        "subscription_preview": env_str("API_PREVIEW_RATE", "30/hour"),
        # Interests a model suggests for a topic (digests/subscriptions/interests.py); past it, the
        # word extractor answers instead.
        "interests": env_str("API_INTERESTS_RATE", "60/hour"),
        "schedule_preview": env_str("API_SCHEDULE_PREVIEW_RATE", "60/min"),
        "public_topics": env_str("API_PUBLIC_TOPICS_RATE", "120/min"),
        # Exports, imports and transfers read or write a whole account (inbox/portability/).
        "export": env_str("API_EXPORT_RATE", "30/hour"),
        "import": env_str("API_IMPORT_RATE", "30/hour"),
        # Redeeming a transfer code: anonymous (the code is the credential), per address.
        "transfer_redeem": env_str("API_TRANSFER_REDEEM_RATE", "20/hour"),
    },
}
# An error code not declared in config/api/error_codes.py is logged; with this on (the test
# suite and the API fuzzer) it is raised, so the answer is a 500 a test notices.
API_STRICT_ERROR_CODES = False
# The largest JSON body the API reads (bigger ones get 413 before they are read whole).
API_MAX_BODY_BYTES = env_int("API_MAX_BODY_BYTES", 262_144, minimum=1024)
# The largest export one import takes (POST /api/v1/import, the console's upload, a transfer).
# An upload or request body is read piece by piece from a temporary file; a transfer's answer
# is held in memory by the fetch client, so this also bounds that.
IMPORT_MAX_BYTES = env_int("IMPORT_MAX_BYTES", 100 * 1024 * 1024, minimum=1024)
# An import runs in the worker (inbox/portability/import_jobs.py); past this it stops and rolls
# back, and the job says so. Under the task timeout, which would kill it without a word.
IMPORT_MAX_SECONDS = env_int("IMPORT_MAX_SECONDS", Q_CLUSTER["timeout"] - 30, minimum=10)
# A transfer code is good for this long, once (inbox/portability/transfer.py).
TRANSFER_CODE_MINUTES = env_int("TRANSFER_CODE_MINUTES", 15, minimum=1)
SPECTACULAR_SETTINGS = {
    "TITLE": "Tidings API",
    "DESCRIPTION": "Subscriptions, runs, inbox and sources. Authenticate with "
    "`Authorization: Bearer <token>` using a personal API token. Requests and answers are "
    "JSON; every error has the shape of the `Error` component; every collection is a page "
    "`{next, previous, results}` read with the `cursor` of its links.",
    "VERSION": "1",
    # OpenAPI 3.1: JSON Schema 2020-12 (a nullable field is `type: [..., "null"]`) and a
    # `webhooks` section for what a subscription's webhook receives.
    "OAS_VERSION": "3.1.0",
    # Operation ids are named from the path after /api/ (v1_subscriptions_run_create), whatever
    # else the site serves outside it (/mcp).
    "SCHEMA_PATH_PREFIX": r"/api/",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # A request body is its own component (PatchedSubscriptionRequest…): what a client sends
    # differs from what it reads back (read-only fields, write-only inputs).
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "SubscriptionStatusEnum": "digests.models.Subscription.Status",
        "RunStatusEnum": "digests.models.Run.Status",
        "TokenScopeEnum": "inbox.models.ApiToken.Scope",
        "TransferScopeEnum": "inbox.models.TransferCode.Scope",
        # Two fields named `trigger`: a run's (why it ran) and a text watch's (when it tells).
        "TriggerEnum": "digests.models.Run.Trigger",
        "WatchTriggerEnum": "digests.textwatch.models.TextWatch.Trigger",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        # A query parameter with a component's values refers to it (time zones: one enum).
        "config.api.enum_names.share_component_enums",
        "config.api.schema.document_errors_and_links",
        # `If-None-Match`, 304 and `ETag` on the GETs the middleware answers conditionally.
        "config.api.sync.document_conditional_gets",
        # The export format's JSON Schema as the export's (and a redeemed transfer's) answer.
        "inbox.portability.schema.document_export_format",
        "config.api.operations.summarize_operations",
        # Each operation's description, who may call it and how it pages; path parameters.
        "config.api.descriptions.describe_operations",
        # Tested examples of every operation (after the errors' content is set).
        "config.api.examples.add_examples",
        # An example on each query parameter the examples send, and on lists' `limit`.
        "config.api.examples.add_query_examples",
        # What a subscription's webhook receives: `webhooks`, each event with a signed example.
        "digests.delivery.webhook_schema.document_webhooks",
        # Distinct names for enum values a generated client would confuse (Etc/GMT+1, -1).
        "config.api.enum_names.name_colliding_enum_values",
        # Field descriptions where a serializer gives none (last: the webhooks' too).
        "config.api.descriptions.describe_fields",
    ],
}

# --- Product settings -------------------------------------------------------------------
ANTHROPIC_API_KEY = env_str("ANTHROPIC_API_KEY")
# AI layer (digests/ai/llm.py). No key: extractive summaries and a template narrative, labelled.
ANTHROPIC_BASE_URL = env_str("ANTHROPIC_BASE_URL")  # empty: the SDK's default endpoint
LLM_MODEL = env_str("LLM_MODEL", "claude-sonnet-4-5")
LLM_MODEL_SUMMARY = env_str("LLM_MODEL_SUMMARY", "claude-haiku-4-5")
LLM_MODEL_NARRATIVE = env_str("LLM_MODEL_NARRATIVE", LLM_MODEL)
LLM_TIMEOUT_SECONDS = env_int("LLM_TIMEOUT_SECONDS", 60, minimum=1)
LLM_MAX_RETRIES = env_int("LLM_MAX_RETRIES", 2, minimum=0)
# Tokens (input + output) the whole platform may spend per UTC day; 0 turns the model off.
LLM_DAILY_TOKEN_BUDGET = env_int("LLM_DAILY_TOKEN_BUDGET", 2_000_000, minimum=0)
LLM_RELEVANCE_ENABLED = env_bool("LLM_RELEVANCE_ENABLED", default=False)
LLM_RELEVANCE_TOP_N = env_int("LLM_RELEVANCE_TOP_N", 20, minimum=1)
# Combination cache (digests/ai/combination_cache.py, seed 002): how long one shared LLM result
# is reused, per kind, and how long a claim may stay `pending` (one LLM call with its retries)
# before a waiting worker takes it over.
COMBINATION_CACHE_TTL_HOURS = {
    "narrative": env_int("COMBINATION_CACHE_NARRATIVE_TTL_HOURS", 14 * 24, minimum=1),
    "summary": env_int("COMBINATION_CACHE_SUMMARY_TTL_HOURS", 30 * 24, minimum=1),
    "relevance": env_int("COMBINATION_CACHE_RELEVANCE_TTL_HOURS", 7 * 24, minimum=1),
    # Interests suggested for a topic in plain words (digests/subscriptions/interests.py).
    "interests": env_int("COMBINATION_CACHE_INTERESTS_TTL_HOURS", 30 * 24, minimum=1),
}
COMBINATION_CACHE_LEASE_SECONDS = env_int(
    "COMBINATION_CACHE_LEASE_SECONDS", LLM_TIMEOUT_SECONDS * (LLM_MAX_RETRIES + 1), minimum=1
)
SEARXNG_URL = env_str("SEARXNG_URL")
# NAVER News Search (ingest/search/providers/naver.py): discovery only, off without both
# credentials of a NAVER Developers application with the Search API. The base URL is a
# setting so tests can point it at a loopback fake; operators never need to change it.
NAVER_CLIENT_ID = env_str("NAVER_CLIENT_ID")
NAVER_CLIENT_SECRET = env_str("NAVER_CLIENT_SECRET")
NAVER_SEARCH_API_URL = env_str("NAVER_SEARCH_API_URL", "https://openapi.naver.com")
# Web Push (digests/delivery/push.py): the VAPID key pair (base64url, as `manage.py
# vapid_keys` prints them: the raw 32-byte private key, and the uncompressed public point) and
# the contact the push services may write to (RFC 8292: a mailto: or https: URI; by default
# the site when it is https, else the sender address). Without both keys push is off and the
# preferences page says so.
TIDINGS_VAPID_PUBLIC_KEY = env_str("TIDINGS_VAPID_PUBLIC_KEY")
TIDINGS_VAPID_PRIVATE_KEY = env_str("TIDINGS_VAPID_PRIVATE_KEY")
_sender = DEFAULT_FROM_EMAIL.rpartition("<")[2].rstrip(">").strip()
TIDINGS_VAPID_SUBJECT = env_str(
    "TIDINGS_VAPID_SUBJECT",
    f"{SITE_URL}/" if SITE_URL.startswith("https://") else f"mailto:{_sender}",
)
if not TIDINGS_VAPID_SUBJECT.startswith(("mailto:", "https://")):
    raise ImproperlyConfigured(
        f"TIDINGS_VAPID_SUBJECT: {TIDINGS_VAPID_SUBJECT!r} is neither a mailto: nor an https: URI."
    )

FETCH_USER_AGENT = env_str("FETCH_USER_AGENT", f"Tidings/0.1 (+{SITE_URL}; feed and page fetcher)")
FETCH_EXTRA_ALLOWED_PORTS = [int(p) for p in env_list("FETCH_EXTRA_ALLOWED_PORTS")]
# Politeness (ingest/fetching/politeness.py): at most 2 requests in flight per host, and at
# least this long between the starts of two requests to one host. Shared across processes
# via the cache.
FETCH_HOST_MIN_INTERVAL_MS = env_int("FETCH_HOST_MIN_INTERVAL_MS", 1000, minimum=0)
# Feeds fetched at once by one scheduled refresh batch (ingest.refresh.pipeline.refresh_many).
REFRESH_CONCURRENCY = env_int("REFRESH_CONCURRENCY", 16, minimum=1)
# What the feed parses of one worker process may hold at once (ingest/feeds/memory.py).
REFRESH_PARSE_MEMORY_MB = env_int("REFRESH_PARSE_MEMORY_MB", 256, minimum=16)
# Full text (ingest/text/extract.py): a run extracts the full text of its best FULLTEXT_TOP_K
# candidates only (cost control, seed 000 §7.2); bodies above BODY_INLINE_MAX_BYTES (UTF-8)
# are kept gzip-compressed in the default storage instead of the database (ingest/pool/bodies.py).
FULLTEXT_TOP_K = env_int("FULLTEXT_TOP_K", 5, minimum=0)
BODY_INLINE_MAX_BYTES = env_int("BODY_INLINE_MAX_BYTES", 64 * 1024, minimum=0)
# Content scores (ingest/text/scores.py): items from these domains or their subdomains gain (allow)
# or lose (deny) impact. Comma-separated domain names, e.g. "lwn.net,postgresql.org".
SOURCE_REPUTATION_ALLOW = [d.lower().strip(".") for d in env_list("SOURCE_REPUTATION_ALLOW")]
SOURCE_REPUTATION_DENY = [d.lower().strip(".") for d in env_list("SOURCE_REPUTATION_DENY")]
for _name in ("SOURCE_REPUTATION_ALLOW", "SOURCE_REPUTATION_DENY"):
    for _domain in globals()[_name]:
        if "/" in _domain or ":" in _domain or " " in _domain:
            raise ImproperlyConfigured(f"{_name}: {_domain!r} is not a domain name.")
# Public topic editions are produced at platform cost; at most this many at once (SPEC §9).
TOPIC_EDITION_CONCURRENCY = env_int("TOPIC_EDITION_CONCURRENCY", 2, minimum=1)
# A rendered Inbox page is reused while nothing it shows has changed (inbox/page_cache.py), at
# most this long.
INBOX_PAGE_CACHE_SECONDS = env_int("INBOX_PAGE_CACHE_SECONDS", 3600, minimum=0)
# The nav's unread and saved counts, kept under the same Inbox version (0: counted every page).
INBOX_COUNTS_CACHE_SECONDS = env_int("INBOX_COUNTS_CACHE_SECONDS", 3600, minimum=0)
# Test-only: hostnames (not addresses) that may resolve to loopback, for fixture servers.
# Never read from the environment or user input; tests switch it on with override_settings.
FETCH_TEST_ONLY_LOOPBACK_HOSTS: tuple[str, ...] = ()

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {"level": "INFO", "propagate": True},
        # httpx logs every request at INFO, naming the checked IP rather than the host; the
        # FetchLog rows already record every refresh.
        "httpx": {"level": "WARNING"},
        # The MCP SDK logs each request's transport at INFO (inbox/assistants/http.py opens one
        # per request); its warnings and errors still show.
        "mcp": {"level": "WARNING"},
    },
}

# Newsletters by email (docs/newsletters.md): the domain of the private inbound addresses, the
# SMTP listener `manage.py mailin`, the largest message taken, the per-address daily cap, and
# the signing key of the Mailgun inbound webhook (empty: the webhook is off).
INBOUND_DOMAIN = env_str("INBOUND_DOMAIN", "inbound.localhost")
MAILIN_HOST = env_str("MAILIN_HOST", "127.0.0.1")
MAILIN_PORT = env_int("MAILIN_PORT", 2525, minimum=1)
MAILIN_MAX_BYTES = env_int("MAILIN_MAX_BYTES", 25 * 1024 * 1024, minimum=1024)
NEWSLETTER_DAILY_LIMIT = env_int("NEWSLETTER_DAILY_LIMIT", 100, minimum=1)
MAILGUN_SIGNING_KEY = env_str("MAILGUN_SIGNING_KEY")
