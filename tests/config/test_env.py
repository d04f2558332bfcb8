"""Configuration from the environment: strict helpers refuse malformed values by name."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int, parse_database_url, parse_redis_url

BASE = Path("/srv/tidings")
PROJECT = Path(__file__).resolve().parents[2]


def test_sqlite_urls_relative_and_absolute():
    assert parse_database_url("sqlite:///var/db.sqlite3", base_dir=BASE)["NAME"] == (
        BASE / "var/db.sqlite3"
    )
    assert parse_database_url("sqlite:////tmp/x.db", base_dir=BASE)["NAME"] == Path("/tmp/x.db")


def test_postgres_url_is_split_into_django_settings():
    config = parse_database_url(
        "postgres://tid:s%40cret@db.internal:6543/tidings?sslmode=require", base_dir=BASE
    )
    assert config["ENGINE"] == "config.postgresql"
    assert (config["USER"], config["PASSWORD"], config["HOST"], config["PORT"]) == (
        "tid",
        "s@cret",
        "db.internal",
        "6543",
    )
    assert config["NAME"] == "tidings"
    assert config["OPTIONS"] == {"sslmode": "require"}


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://root@localhost/db", "unsupported scheme 'mysql'"),
        ("postgres://localhost", "database name is missing"),
        ("postgres://localhost:notaport/db", "port is not a number"),
        ("sqlite://host/file.db", "has no host"),
        ("sqlite://", "path is missing"),
        ("just-a-path.db", "unsupported scheme"),
    ],
)
def test_bad_database_urls_are_refused_with_the_reason(url, message):
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL") as info:
        parse_database_url(url, base_dir=BASE)
    assert message in str(info.value)


def test_bad_redis_url_is_refused():
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        parse_redis_url("http://localhost:6379")
    assert parse_redis_url("redis://127.0.0.1:6379/1") == "redis://127.0.0.1:6379/1"


@pytest.mark.parametrize(
    ("raw", "value"), [("1", True), ("yes", True), ("off", False), ("0", False)]
)
def test_booleans(monkeypatch, raw, value):
    monkeypatch.setenv("SOME_FLAG", raw)
    assert env_bool("SOME_FLAG") is value


def test_a_typo_in_a_boolean_is_an_error_not_false(monkeypatch):
    monkeypatch.setenv("DEBUG", "yes-please")
    with pytest.raises(ImproperlyConfigured, match="DEBUG='yes-please' is not a boolean"):
        env_bool("DEBUG")


def test_integers_are_checked(monkeypatch):
    monkeypatch.setenv("Q_WORKERS", "two")
    with pytest.raises(ImproperlyConfigured, match="Q_WORKERS='two' is not a whole number"):
        env_int("Q_WORKERS", 2)
    monkeypatch.setenv("Q_WORKERS", "0")
    with pytest.raises(ImproperlyConfigured, match="at least 1"):
        env_int("Q_WORKERS", 2, minimum=1)


def _load_settings(**env) -> subprocess.CompletedProcess:
    clean = {
        k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DEBUG", "SECRET_KEY"}
    }
    clean.update(env)
    clean["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); print('loaded')"],
        cwd=PROJECT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_product_refuses_to_start_without_secret_key_when_debug_is_off(tmp_path):
    result = _load_settings(DEBUG="0", TIDINGS_DATA_DIR=str(tmp_path))
    assert result.returncode != 0
    assert "SECRET_KEY is required when DEBUG is off" in result.stderr


def test_the_product_refuses_to_start_with_a_bad_database_url(tmp_path):
    result = _load_settings(DEBUG="1", DATABASE_URL="mongodb://x/y", TIDINGS_DATA_DIR=str(tmp_path))
    assert result.returncode != 0
    assert "DATABASE_URL='mongodb://x/y': unsupported scheme 'mongodb'" in result.stderr


def test_redis_url_switches_the_broker_and_cache(tmp_path):
    env = {
        "DEBUG": "1",
        "REDIS_URL": "redis://127.0.0.1:6379/3",
        "TIDINGS_DATA_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.Q_CLUSTER.get('redis'), 'orm' in s.Q_CLUSTER, s.CACHES['default']['BACKEND'])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=PROJECT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.split() == [
        "redis://127.0.0.1:6379/3",
        "False",
        "config.cache.ResilientRedisCache",  # a Redis cache that survives Redis being away
    ]
