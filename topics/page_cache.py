"""The server-side cache of public pages: one version number for all of them, bumped whenever
anything public changes (an edition published, a topic published, changed, deleted or taken
down). Cached pages are keyed by the version, so a bump retires every one of them at once, and
the version doubles as the ETag seed."""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.db import transaction

VERSION_KEY = "topics:pages:version"
PAGE_TTL_SECONDS = 60 * 60


def version() -> int:
    return cache.get_or_set(VERSION_KEY, 1, timeout=None)


def _bump() -> None:
    try:
        cache.incr(VERSION_KEY)
    except ValueError:  # expired or never set
        cache.set(VERSION_KEY, 2, timeout=None)


def invalidate() -> None:
    """Retire every cached public page once the current transaction commits (before it, a
    concurrent request could cache the old state again)."""
    transaction.on_commit(_bump)


def page_key(path: str, language: str) -> str:
    """The path (with its query) is hashed: a request can name any path, NUL and newlines
    included, and memcached refuses keys with control characters, spaces or over 250 bytes."""
    digest = hashlib.sha256(path.encode("utf-8", "surrogatepass")).hexdigest()
    return f"topics:page:{version()}:{language}:{digest}"
