"""The Redis cache, made to survive Redis being away.

With `REDIS_URL` set, the cache holds what must be shared across processes: rate limits, per-
host politeness, the public page cache. If Redis stops answering, a plain `RedisCache` turns
every page that touches the cache into an error. This one answers from a per-process memory
cache instead while Redis is down (retrying Redis every few seconds), so the web keeps serving
and workers keep fetching: limits then hold per process rather than across processes, and the
public page cache is per process, until Redis is back. Every switch is logged.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# How long to answer from memory after Redis failed, before asking Redis again.
RETRY_AFTER_SECONDS = 5.0
_GUARDED = (
    "add",
    "get",
    "set",
    "touch",
    "delete",
    "get_many",
    "has_key",
    "incr",
    "set_many",
    "delete_many",
    "clear",
)


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params):
        options = {"socket_connect_timeout": 1.0, "socket_timeout": 2.0}
        options.update(params.get("OPTIONS", {}))
        super().__init__(server, {**params, "OPTIONS": options})
        self._fallback = LocMemCache(f"redis-fallback-{id(self)}", {})
        self._down_until = 0.0
        self._lock = threading.Lock()

    def _redis_is_down(self) -> bool:
        return time.monotonic() < self._down_until

    def _failed(self, name: str, exc: Exception) -> None:
        with self._lock:
            first = self._down_until == 0.0
            self._down_until = time.monotonic() + RETRY_AFTER_SECONDS
        if first:
            logger.error("Redis cache unavailable (%s: %s); answering from memory", name, exc)

    def _recovered(self) -> None:
        with self._lock:
            if self._down_until:
                self._down_until = 0.0
                logger.warning("Redis cache is back")


def _guard(name: str):
    def method(self: ResilientRedisCache, *args, **kwargs):
        if not self._redis_is_down():
            try:
                result = getattr(RedisCache, name)(self, *args, **kwargs)
            except RedisError as exc:
                self._failed(name, exc)
            else:
                if self._down_until:
                    self._recovered()
                return result
        return getattr(self._fallback, name)(*args, **kwargs)

    method.__name__ = name
    return method


for _name in _GUARDED:
    setattr(ResilientRedisCache, _name, _guard(_name))


class SharedFileCache(FileBasedCache):
    """The file cache every process on one machine shares when there is no Redis (rate limits,
    the public and Inbox page caches), made cheap to write.

    Django's `FileBasedCache.set()` lists the whole cache folder on every write (`_cull`) and
    renames the new file over the old one. On ext4 a rename over an existing file makes the
    kernel write the new file's data out before the rename returns (`auto_da_alloc`): 0.5-1.5 ms
    of a web worker waiting on the disk on every API request (its user's rate counters). Here the
    old file is removed first, so the rename lands on a free name (≈ 0.1 ms): a reader in
    between finds no entry, which a cache may always answer. The folder is culled at most once
    every CULL_EVERY_SECONDS per process instead of on every write, and the folder is made again
    only when a write finds it gone (Django's asks for it on every write).
    """

    CULL_EVERY_SECONDS = 10.0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._next_cull = 0.0

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        fname = self._key_to_file(key, version)
        now = time.monotonic()
        if now >= self._next_cull:
            self._next_cull = now + self.CULL_EVERY_SECONDS
            self._cull()
        try:
            fd, tmp_path = tempfile.mkstemp(dir=self._dir)
        except FileNotFoundError:  # the folder may be deleted at any time
            self._createdir()
            fd, tmp_path = tempfile.mkstemp(dir=self._dir)
        renamed = False
        try:
            with open(fd, "wb") as file:
                self._write_content(file, timeout, value)
            with contextlib.suppress(FileNotFoundError):
                os.remove(fname)
            os.rename(tmp_path, fname)
            renamed = True
        finally:
            if not renamed:
                os.remove(tmp_path)
