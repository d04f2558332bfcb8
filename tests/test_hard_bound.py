"""Every test has a hard bound that also ends its child processes (tests/hardbound.py).

Each case runs a tiny test file in a pytest of its own, with a bound of two seconds.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.hardbound import alive

ROOT = Path(__file__).resolve().parent.parent

# The shape of the browser hang: the test waits on a helper thread, the thread waits on a
# child process that never ends, and leaving the `with` block joins the thread. A timeout's
# exception alone cannot end it; killing the child does.
WAITS_ON_A_THREAD_WAITING_ON_A_CHILD = """
import subprocess, sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

SLEEPER = "import subprocess, time; subprocess.Popen(['sleep', '600']); time.sleep(600)"


def run_the_never_ending_child():
    child = subprocess.Popen([sys.executable, "-c", SLEEPER])
    Path("child.pid").write_text(str(child.pid))
    return child.wait()


def test_it_waits_for_ever():
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(run_the_never_ending_child).result()
"""

# A test that swallows its timeout and goes on waiting: only ending the process ends it.
IGNORES_ITS_TIMEOUT = """
import time


def test_it_ignores_the_timeout():
    while True:
        try:
            time.sleep(60)
        except BaseException:
            pass
"""


def run_pytest(tmp_path: Path, source: str) -> tuple[subprocess.CompletedProcess, float]:
    (tmp_path / "test_hanging.py").write_text(source)
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    # Only the two plugins at work here: a quick start keeps the timing honest.
    env |= {"PYTHONPATH": str(ROOT), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    command = [sys.executable, "-m", "pytest", "test_hanging.py", "-p", "pytest_timeout"]
    command += ["-p", "tests.hardbound", "-p", "no:cacheprovider", "--rootdir", str(tmp_path)]
    command += ["-o", "timeout=2", "-o", "hard_bound_grace=2"]
    started = time.monotonic()
    finished = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    return finished, time.monotonic() - started


def test_a_test_waiting_on_a_child_fails_at_its_bound_and_the_child_is_gone(tmp_path):
    finished, seconds = run_pytest(tmp_path, WAITS_ON_A_THREAD_WAITING_ON_A_CHILD)

    assert finished.returncode == 1, finished.stdout + finished.stderr
    assert seconds < 2 + 8  # the bound, then the interpreter's start and pytest's own
    out = finished.stdout
    assert "1 failed" in out
    assert "Timeout (>2s)" in out
    assert "test_hanging.py::test_it_waits_for_ever was still waiting after 2 s." in out
    # What it waited for: the main thread's wait, the helper thread's, and the children.
    assert "in test_it_waits_for_ever: pool.submit(run_the_never_ending_child).result()" in out
    assert "called from " in out
    assert "test_hanging.py:12 in run_the_never_ending_child: return child.wait()" in out
    assert "child processes (all killed now):" in out
    assert "sleep 600" in out
    child = int((tmp_path / "child.pid").read_text())
    assert not alive(child)


def test_a_test_that_will_not_end_ends_its_process_after_the_grace(tmp_path):
    finished, seconds = run_pytest(tmp_path, IGNORES_ITS_TIMEOUT)

    assert finished.returncode == 3, finished.stdout + finished.stderr
    assert seconds < 2 + 2 + 8  # the bound and the grace
    assert "test_hanging.py::test_it_ignores_the_timeout did not end 2 s after" in finished.stderr
    assert "in test_it_ignores_the_timeout: time.sleep(60)" in finished.stderr
