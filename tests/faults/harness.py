"""Real processes for fault tests and the `recovery` benchmark: a Redis of our own on a unix
socket, `manage.py qcluster` worker groups, ticker loops and gunicorn, each in a process group
of its own so a fault can `kill -9` exactly what we started — and nothing else.

Every child uses `tests.faults.cluster_settings`: the caller's database (a test database, or
the benchmark's throw-away one), our Redis as broker and cache, a queue name of its own, and
leases of a few seconds (`WORK_LEASE_SECONDS`), so a recovery takes seconds rather than the
production minute.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.db import connection

PYTHON = sys.executable
ROOT = Path(settings.BASE_DIR)


class Stopwatch:
    def __init__(self):
        self.started = time.monotonic()

    def seconds(self) -> float:
        return round(time.monotonic() - self.started, 2)


def wait_for(condition: Callable[[], object], *, timeout: float, what: str, every=0.2):
    """Poll until `condition()` is truthy; returns its value. Fails with `what` on timeout."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(every)


class Child:
    """A process we started, in its own session (so its process group is exactly it and its
    children), logging to a file."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log: Path):
        self.name = name
        self.log_path = log
        self._log = open(log, "ab")  # noqa: SIM115 - closed in stop()/kill()
        self.process = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )

    @property
    def pid(self) -> int:
        return self.process.pid

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """`kill -9` of the whole process group: the parent and every worker it forked."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(30)
        self._log.close()

    def stop(self, timeout: float = 20) -> None:
        if self.alive():
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
        self.kill()


class OwnRedis:
    """redis-server on a unix socket in a folder of ours: the shared Redis is never touched,
    and stopping this one is a real outage (its queue is lost, as in a crash)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.socket = folder / "redis.sock"
        self.url = f"unix://{self.socket}?db=0"
        self.child: Child | None = None

    def start(self) -> OwnRedis:
        server = shutil.which("redis-server")
        if server is None:
            raise RuntimeError("redis-server is not installed")
        argv = [server, "--port", "0", "--unixsocket", str(self.socket), "--unixsocketperm", "700"]
        argv += ["--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        self.child = Child("redis", argv, dict(os.environ), self.folder / "redis.log")
        wait_for(self.ping, timeout=20, what="redis-server to answer")
        return self

    def ping(self) -> bool:
        import redis

        try:
            client = redis.Redis(unix_socket_path=str(self.socket), socket_timeout=1)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except (redis.RedisError, OSError):
            return False

    def crash(self) -> None:
        if self.child is not None:
            self.child.kill()
            self.child = None
        self.socket.unlink(missing_ok=True)


class Deployment:
    """Everything a fault scenario starts, torn down (killed) at the end whatever happened."""

    def __init__(
        self,
        *,
        lease_seconds: int = 3,
        heartbeat_seconds: int = 1,
        llm_url: str = "",
        extra_env: dict[str, str] | None = None,
    ):
        self.folder = Path(tempfile.mkdtemp(prefix="tidings-faults-"))
        self.queue = f"tidings-faults-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.redis = OwnRedis(self.folder)
        self.children: list[Child] = []
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.faults.cluster_settings",
            "TIDINGS_FAULT_DATABASE": str(connection.settings_dict["NAME"]),
            "TIDINGS_FAULT_REDIS": self.redis.url,
            "TIDINGS_FAULT_QUEUE": self.queue,
            "WORK_LEASE_SECONDS": str(lease_seconds),
            "WORK_HEARTBEAT_SECONDS": str(heartbeat_seconds),
            "PYTHONUNBUFFERED": "1",
        }
        if llm_url:
            self.env |= {"ANTHROPIC_BASE_URL": llm_url, "TIDINGS_FAULT_LLM_KEY": "test"}
        self.env |= extra_env or {}

    def __enter__(self) -> Deployment:
        self.redis.start()
        return self

    def __exit__(self, *exc_info) -> None:
        for child in reversed(self.children):
            child.kill()
        self.redis.crash()
        if exc_info[0] is not None:  # keep the logs of a failure for whoever reads it
            sys.stderr.write(f"fault logs kept in {self.folder}\n")
        else:
            shutil.rmtree(self.folder, ignore_errors=True)

    def _start(self, name: str, argv: list[str], **env) -> Child:
        child = Child(name, argv, self.env | env, self.folder / f"{name}.log")
        self.children.append(child)
        return child

    def cluster(self, name: str, *, workers: int = 2) -> Child:
        """A `manage.py qcluster` worker group, as on one machine; returns once it runs."""
        child = self._start(name, [PYTHON, "manage.py", "qcluster"], Q_WORKERS=str(workers))
        wait_for(
            lambda: "running" in child.log() or not child.alive(),
            timeout=90,
            what=f"qcluster {name} to start",
        )
        if not child.alive():
            raise RuntimeError(f"qcluster {name} exited:\n{child.log()[-3000:]}")
        return child

    def ticker(self, name: str, *, every: float = 1.0) -> Child:
        return self._start(name, [PYTHON, "-m", "tests.faults.ticker", str(every)])

    def tick_loop(self, name: str, *, every: float = 60.0) -> Child:
        """The product's own ticker, `manage.py tick --loop` (digests/schedules/ticker.py)."""
        return self._start(name, [PYTHON, "manage.py", "tick", "--loop", "--every", str(every)])

    def run_to_end(self, name: str, code: str, *, timeout: float = 300) -> str:
        """Python `code` in a process with the deployment's settings (its database, broker and
        queue), after django.setup(); returns its output once it ended."""
        script = f"import django\ndjango.setup()\n{code}"
        child = self._start(name, [PYTHON, "-c", script])
        child.process.wait(timeout)
        if child.process.returncode != 0:
            raise RuntimeError(f"{name} failed:\n{child.log()[-3000:]}")
        return child.log()

    def web(self, name: str = "web") -> tuple[Child, str]:
        """gunicorn with 1 worker on an ephemeral port; returns it and its base URL."""
        gunicorn = str(Path(PYTHON).parent / "gunicorn")
        argv = [gunicorn, "config.wsgi", "-b", "127.0.0.1:0", "-w", "1", "--timeout", "60"]
        child = self._start(name, argv)
        found = wait_for(
            lambda: re.search(r"Listening at: (http://127\.0\.0\.1:\d+)", child.log()),
            timeout=60,
            what="gunicorn to listen",
        )
        return child, found.group(1)


def terminate_database_connections() -> int:
    """`pg_terminate_backend` of every other connection to this (test) database: the app's
    workers, tickers and web; returns how many were dropped."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]
