"""CPU time spent over a stretch of a benchmark, by who spent it: a server's processes (the
gunicorn master and its workers), the database server's (the PostgreSQL backends connected to
the benchmark's database: they do the queries' work), and the load generator (this process's
waited-for children).

On a 2-core machine the load generator shares the cores with the server it measures, so
requests per second compare two servers only as far as the client's share allows; CPU time
per request compares what each server costs to answer (the `load` benchmark's turns).
The load generator's time includes its own start (imports, spawning its users), so over a
short measurement its figure is an upper bound. Linux only (/proc); elsewhere nothing is
counted.
"""

from __future__ import annotations

import os
import resource
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _processes() -> dict[int, tuple[int, str, int]]:
    """Every process: {pid: (parent pid, command name, CPU ticks in user and system mode)}."""
    found = {}
    if not PROC.is_dir():
        return found
    for entry in os.scandir(PROC):
        if not entry.name.isdigit():
            continue
        try:
            stat = (PROC / entry.name / "stat").read_text()
        except OSError:  # gone since the listing
            continue
        # The command name may hold spaces and parentheses: it ends at the last ")".
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        found[int(entry.name)] = (int(fields[1]), name, int(fields[11]) + int(fields[12]))
    return found


def _serves(pid: int, database: str) -> bool:
    try:
        title = (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except (OSError, UnicodeDecodeError):
        return False
    return backend_database(title) == database


def backend_database(title: str) -> str | None:
    """The database of a PostgreSQL backend from its process title, "postgres: USER DATABASE
    HOST(PORT) STATE", with the cluster's name first when it has one ("postgres: 15/main:
    USER DATABASE …", Debian's); None for the server's own processes."""
    words = title.split()
    if words[:1] != ["postgres:"]:
        return None
    words = words[2:] if len(words) > 1 and words[1].endswith(":") else words[1:]
    return words[1] if len(words) >= 3 else None


def _children_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Snapshot:
    server_pid: int
    ticks: dict[int, tuple[str, int]]  # by pid: ("app" or "database", ticks)
    children: float

    @classmethod
    def take(cls, server_pid: int, database: str | None = None) -> Snapshot:
        """`database`: the PostgreSQL database whose backends count (None on SQLite, where the
        queries run inside the server's workers)."""
        ticks = {}
        for pid, (parent, name, spent) in _processes().items():
            if pid == server_pid or parent == server_pid:
                ticks[pid] = ("app", spent)
            elif database and name == "postgres" and _serves(pid, database):
                ticks[pid] = ("database", spent)
        return cls(server_pid, ticks, _children_seconds())

    def seconds_since(self, earlier: Snapshot) -> dict[str, float]:
        """CPU seconds per side between two snapshots: a process that began in between counts
        all its time; one that ended in between is lost (a database backend that closed)."""
        spent = {"app": 0.0, "database": 0.0}
        for pid, (side, ticks) in self.ticks.items():
            before = earlier.ticks.get(pid, (side, 0))[1]
            spent[side] += max(0, ticks - before) / TICKS
        spent["client"] = self.children - earlier.children
        return spent


def per_request_ms(spent: dict[str, float], requests: int) -> dict[str, float]:
    """{"app_cpu_ms", "database_cpu_ms", "server_cpu_ms", "client_cpu_ms"} per request."""
    if not requests:
        return {}
    figures = {f"{side}_cpu_ms": round(1000 * spent[side] / requests, 3) for side in spent}
    figures["server_cpu_ms"] = round(figures["app_cpu_ms"] + figures["database_cpu_ms"], 3)
    return figures
