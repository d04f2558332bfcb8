"""Strict readers for configuration that comes from environment variables.

Every value the product reads from the environment goes through one of these helpers, so a
typo such as ``DEBUG=yes-please`` stops the process with a message naming the variable instead
of silently meaning False.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a boolean: use one of 1/0, true/false, yes/no, on/off."
    )


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={value} must be at least {minimum}.")
    return value


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return list(default or [])
    return [part.strip() for part in raw.split(",") if part.strip()]


def parse_database_url(url: str, *, base_dir: Path) -> dict:
    """Turn ``sqlite:///path`` or ``postgres://user:pass@host:port/name`` into DATABASES['default'].

    A relative SQLite path is relative to the project folder; ``sqlite:////abs`` is absolute.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "sqlite":
        if parts.netloc:
            raise ImproperlyConfigured(
                f"DATABASE_URL={url!r}: a SQLite URL has no host; write sqlite:///relative/path "
                "or sqlite:////absolute/path."
            )
        path = unquote(parts.path[1:]) if parts.path.startswith("/") else unquote(parts.path)
        if not path:
            raise ImproperlyConfigured(f"DATABASE_URL={url!r}: the SQLite file path is missing.")
        if path == ":memory:":
            name: str | Path = ":memory:"
        else:
            name = Path(path) if Path(path).is_absolute() else base_dir / path
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": name}
    if scheme in {"postgres", "postgresql", "pgsql"}:
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured(
                f"DATABASE_URL={url!r}: the database name is missing (postgres://host/NAME)."
            )
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured(f"DATABASE_URL={url!r}: the port is not a number.") from None
        options = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        config = {
            "ENGINE": "config.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(port or ""),
            "CONN_MAX_AGE": 60,
            "CONN_HEALTH_CHECKS": True,
        }
        if options:
            config["OPTIONS"] = options
        return config
    raise ImproperlyConfigured(
        f"DATABASE_URL={url!r}: unsupported scheme {scheme or '(none)'!r}; "
        "use sqlite:///path or postgres://user:password@host:port/name."
    )


def parse_redis_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in {"redis", "rediss", "unix"}:
        raise ImproperlyConfigured(
            f"REDIS_URL={url!r}: unsupported scheme {parts.scheme or '(none)'!r}; "
            "use redis://host:port/db."
        )
    return url
