"""A hard bound on every test, child processes included (a pytest plugin; tests/conftest.py
loads it).

pytest-timeout decides each test's bound (`timeout` in pyproject.toml, or a `timeout` marker);
this plugin is its timer. Its own signal timer raised once in the main thread and that was
all: a test blocked on something that never ends — a browser, a server, a cluster — stayed
blocked while its exception unwound (a join in an `__exit__`, a fixture's teardown waiting for
the child), and again at interpreter exit. At the bound a watchdog thread here

1. notes what the test was waiting for: the main thread's innermost frames, each other busy
   thread's innermost frame, and this process's child processes;
2. raises `Failed` in the main thread with that description (SIGALRM, as pytest-timeout does);
3. kills every descendant of this process (SIGKILL, the whole tree, found in /proc), so any
   wait on them returns and nothing outlives the test;
4. if the test still has not finished `GRACE_SECONDS` later, writes the description and every
   thread's stack to stderr and ends the process with `os._exit` — the last resort.

Only descendants of this process are killed, so under pytest-xdist each worker ends its own
children and never another worker's. Ctrl-C kills the descendants too, and arms the same last
resort, so an interrupted run always ends.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
import traceback
from pathlib import Path

import pytest

GRACE_SECONDS = 10.0
EXIT_STATUS = 3
# pytest-timeout's own message, so anything matching on it still does.
_HEADLINE = "Timeout (>{bound:g}s) from pytest-timeout (hard bound, tests/hardbound.py)."


# -- Processes -------------------------------------------------------------------------------


def _stat(pid: int) -> tuple[int, str] | None:
    """(parent pid, state letter) from /proc, or None when the process is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may itself contain spaces or ")".
    fields = raw[raw.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0]


def alive(pid: int) -> bool:
    """True while `pid` runs (a zombie, dead and awaiting its parent's wait, does not)."""
    stat = _stat(pid)
    return stat is not None and stat[1] not in ("Z", "X")


def descendants(root: int | None = None) -> list[int]:
    """Every living descendant of `root` (this process by default), parents before children."""
    root = os.getpid() if root is None else root
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None and stat[1] not in ("Z", "X"):
                children.setdefault(stat[0], []).append(int(entry.name))
    found: list[int] = []
    queue = [root]
    while queue:
        for child in children.get(queue.pop(0), ()):
            found.append(child)
            queue.append(child)
    return found


def command_line(pid: int, limit: int = 160) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "?"
    text = raw.replace(b"\0", b" ").decode(errors="replace").strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def kill_descendants(wait: float = 2.0) -> list[int]:
    """SIGKILL this process's whole tree of descendants; wait until they are gone. Walks the
    tree again after each round: a process may have forked while its parent was dying."""
    killed: list[int] = []
    until = time.monotonic() + wait
    while (pids := descendants()) and time.monotonic() < until:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
            if pid not in killed:
                killed.append(pid)
        time.sleep(0.05)
    return killed


# -- Threads ---------------------------------------------------------------------------------


def _frame_line(frame_summary: traceback.FrameSummary) -> str:
    where = f"{_short(frame_summary.filename)}:{frame_summary.lineno} in {frame_summary.name}"
    return f"{where}: {frame_summary.line}" if frame_summary.line else where


def _library(filename: str) -> bool:
    return "site-packages/" in filename or "/lib/python3" in filename


def _short(filename: str) -> str:
    if "site-packages/" in filename:
        return filename[filename.index("site-packages/") + len("site-packages/") :]
    if "/lib/python3" in filename:
        return filename[filename.index("/lib/python3") + len("/lib/") :]
    return filename.removeprefix(str(Path(__file__).resolve().parent.parent) + "/")


def describe_waits(main_frames: int = 8) -> str:
    """What each thread is doing: the main thread's innermost frames below pytest's own (the
    test's wait), then each other thread's innermost frame and the code of ours that called it."""
    names = {thread.ident: thread.name for thread in threading.enumerate()}
    me = threading.get_ident()
    main = threading.main_thread().ident
    lines: list[str] = []
    for ident, frame in sys._current_frames().items():
        if ident == me:
            continue
        stack = traceback.extract_stack(frame)
        if ident == main:
            runner = [n for n, entry in enumerate(stack) if "/_pytest/" in entry.filename]
            test_side = stack[runner[-1] + 1 :] if runner else stack
            lines[:0] = [
                "main thread, innermost call last:",
                *(f"  {_frame_line(entry)}" for entry in (test_side or stack)[-main_frames:]),
            ]
        elif stack:
            ours = [entry for entry in stack if not _library(entry.filename)]
            line = f"thread {names.get(ident, ident)!r}: {_frame_line(stack[-1])}"
            if ours and ours[-1] is not stack[-1]:
                line += f"\n  called from {_frame_line(ours[-1])}"
            lines.append(line)
    return "\n".join(lines)


def _describe_processes(pids: list[int]) -> str:
    if not pids:
        return "child processes: none"
    return "child processes (all killed now):\n" + "\n".join(
        f"  {pid}: {command_line(pid)}" for pid in pids
    )


# -- The watchdog ----------------------------------------------------------------------------


class _Bound:
    """One armed bound: fires once at the deadline, then ends the process if the test has not
    finished within the grace period."""

    def __init__(self, item: pytest.Item, seconds: float, *, can_signal: bool):
        self.item = item
        self.seconds = seconds
        self.can_signal = can_signal
        self.message = ""
        self.fired = False
        self._lock = threading.Lock()
        self._finished = threading.Event()
        self._thread = threading.Thread(
            target=self._watch, name=f"hard bound {item.nodeid}", daemon=True
        )

    def start(self) -> None:
        self._thread.start()

    def finish(self) -> None:
        """The test ended; after this returns no signal is sent."""
        with self._lock:
            self._finished.set()

    def _watch(self) -> None:
        if self._finished.wait(self.seconds):
            return
        # Described before anything is killed: afterwards the wait would already have moved.
        self.message = "\n".join(
            [
                _HEADLINE.format(bound=self.seconds),
                f"{self.item.nodeid} was still waiting after {self.seconds:g} s.",
                describe_waits(),
                _describe_processes(descendants()),
            ]
        )
        with self._lock:
            if self._finished.is_set():
                return
            self.fired = True
            if self.can_signal:
                signal.pthread_kill(threading.main_thread().ident, signal.SIGALRM)
        kill_descendants()
        if self._finished.wait(grace_seconds(self.item.config)):
            return
        _last_resort(self.item.config, self.message, f"{self.item.nodeid} did not end")


def grace_seconds(config: pytest.Config) -> float:
    value = config.getini("hard_bound_grace")
    return float(value) if value else GRACE_SECONDS


def _last_resort(config: pytest.Config, message: str, why: str) -> None:
    """Write what is known to the real stderr and end the process."""
    with contextlib.suppress(Exception):
        capture = config.pluginmanager.getplugin("capturemanager")
        if capture is not None:
            capture.suspend_global_capture(in_=True)
    stacks = []
    for ident, frame in sys._current_frames().items():
        if ident != threading.get_ident():
            stacks.append(f"--- thread {ident}\n" + "".join(traceback.format_stack(frame)))
    text = (
        f"\n{'+' * 30} hard bound {'+' * 30}\n{why} {grace_seconds(config):g} s after it was"
        f" told to; ending the process.\n{message}\n\n" + "\n".join(stacks) + "\n"
    )
    with contextlib.suppress(OSError):
        os.write(2, text.encode(errors="replace"))
    kill_descendants()
    os._exit(EXIT_STATUS)


# -- Hooks -----------------------------------------------------------------------------------

_ARMED = pytest.StashKey[_Bound]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "hard_bound_grace",
        "seconds a test may take to end after its bound, before the process is ended",
        default=str(GRACE_SECONDS),
    )


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_timeout_set_timer(item: pytest.Item, settings) -> bool:
    can_signal = threading.current_thread() is threading.main_thread()
    bound = _Bound(item, float(settings.timeout), can_signal=can_signal)
    if can_signal:

        def fail(signum, frame):
            __tracebackhide__ = True
            if bound.fired:
                pytest.fail(bound.message, pytrace=True)

        signal.signal(signal.SIGALRM, fail)
    item.stash[_ARMED] = bound
    bound.start()
    return True


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_timeout_cancel_timer(item: pytest.Item) -> bool:
    bound = item.stash.get(_ARMED, None)
    if bound is not None:
        bound.finish()
        del item.stash[_ARMED]
        if bound.can_signal:
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
    return True


def pytest_keyboard_interrupt(excinfo) -> None:
    """Ctrl-C: the run is over, so are its children; and the process ends even if a thread
    it would join at exit never returns."""
    kill_descendants()
    config = _CONFIG[0] if _CONFIG else None
    if config is not None:
        last = threading.Timer(
            grace_seconds(config),
            _last_resort,
            (config, "interrupted (Ctrl-C)", "the interrupted run did not end"),
        )
        last.daemon = True
        last.start()


_CONFIG: list[pytest.Config] = []


def pytest_configure(config: pytest.Config) -> None:
    _CONFIG[:] = [config]
