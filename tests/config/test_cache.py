"""The Redis cache that survives Redis being away (config/cache.py): answers from memory while
Redis does not answer, and goes back to Redis once it does."""

from __future__ import annotations

import shutil
import socket

import pytest

from config import cache as resilient
from config.cache import ResilientRedisCache
from tests.conftest import redis_reachable


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens there once the probe is closed


def test_with_redis_away_the_cache_answers_from_memory(caplog):
    cache = ResilientRedisCache(f"redis://127.0.0.1:{closed_port()}/0", {"KEY_PREFIX": "t"})
    assert cache.get("missing") is None
    assert cache.add("lock", 1, timeout=30) is True
    assert cache.add("lock", 1, timeout=30) is False  # the memory copy still keeps its promise
    cache.set("page", "html", timeout=30)
    assert cache.get("page") == "html"
    assert cache.incr("lock") == 2
    assert sum("Redis cache unavailable" in r.message for r in caplog.records) == 1


def test_once_redis_answers_again_the_cache_uses_it(monkeypatch):
    if not redis_reachable():
        pytest.skip("Redis is not reachable on 127.0.0.1:6379")
    import uuid

    cache = ResilientRedisCache(
        "redis://127.0.0.1:6379/15", {"KEY_PREFIX": f"tidings-tests-{uuid.uuid4().hex[:12]}"}
    )
    cache._down_until = 1.0  # it failed once, long ago
    monkeypatch.setattr(resilient.time, "monotonic", lambda: 10.0)
    cache.set("shared", "from redis", timeout=30)
    assert cache._down_until == 0.0
    other = ResilientRedisCache("redis://127.0.0.1:6379/15", {"KEY_PREFIX": cache.key_prefix})
    assert other.get("shared") == "from redis"  # another process sees it: it went to Redis
    cache.delete("shared")


def test_the_shared_file_cache_replaces_values_and_still_culls(tmp_path, monkeypatch):
    """config.cache.SharedFileCache: a write removes the old file before putting the new one in
    its place (no rename over an existing file), and the folder is still culled."""
    from config.cache import SharedFileCache

    cache = SharedFileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 10, "CULL_FREQUENCY": 2}})
    cache.set("limit", [1.0], timeout=60)
    cache.set("limit", [1.0, 2.0], timeout=60)
    assert cache.get("limit") == [1.0, 2.0]
    assert len(list(tmp_path.iterdir())) == 1  # no temporary file left behind
    renames_over = []
    real_rename = resilient.os.rename

    def rename(source, target):
        if resilient.os.path.exists(target):
            renames_over.append(target)
        real_rename(source, target)

    monkeypatch.setattr(resilient.os, "rename", rename)
    for n in range(30):
        cache.set(f"key-{n}", n, timeout=60)
        cache.set(f"key-{n}", n + 1, timeout=60)
        cache._next_cull = 0.0  # as if CULL_EVERY_SECONDS had passed
    assert renames_over == []
    assert cache.get("key-29") == 30
    assert len(list(tmp_path.iterdir())) <= 11


def test_the_shared_file_cache_writes_again_after_its_folder_was_removed(tmp_path):
    from config.cache import SharedFileCache

    folder = tmp_path / "cache"
    cache = SharedFileCache(str(folder), {})
    cache.set("limit", [1.0], timeout=60)
    shutil.rmtree(folder)
    cache._next_cull = 0.0  # the cull (which lists the folder) runs first, on a missing folder
    cache.set("limit", [2.0], timeout=60)
    assert cache.get("limit") == [2.0]
