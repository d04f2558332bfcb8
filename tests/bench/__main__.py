"""`python -m tests.bench NAME [--size smoke|small|full] [--json]`: run one benchmark;
`python -m tests.bench all --size smoke`: run every benchmark, one after the other.

Each benchmark is a module tests/bench/NAME.py with `run(size="full")` (sizes in
tests/bench/sizes.py, what each means in the module's docstring) and `describe(result)`; it
states its data sizes, prints absolute figures and a ratio against a baseline measured in the
same process, in a throw-away database (tests/bench/database.py). A new benchmark is one more
entry in BENCHMARKS.

A result may carry "checks" ({what must hold: bool}, e.g. "no run failed") and "skipped" (why
there was nothing to measure, e.g. a corpus is absent). The exit status is non-zero when the
benchmark raised or a check failed; `all` runs each benchmark in a process of its own (the
benchmarks patch process-wide state: the resolver, the task queue's mode), prints each one's
figures as it goes and a summary at the end, and exits non-zero if any failed. On PostgreSQL it
drops the databases each benchmark is done with while the next one runs (`Dropper` in
tests/bench/database.py).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import inspect
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.bench.sizes import SIZES

BENCHMARKS = (
    "ingest",
    "refresh",
    "refreshmemory",
    "edgecases",
    "sanitize",
    "hostile",
    "run",
    "scheduler",
    "throughput",
    "extraction",
    "neardup",
    "watch",
    "cache",
    "inbox",
    "pages",
    "llm",
    "billing",
    "delivery",
    "load",
    "recovery",
    "dstyear",
    "topics",
    "relevance",
    "export",
    "mailin",
    "textwatch",
    "readerapi",
    "mcp",
)
# `all` stops a benchmark that takes longer than this (per benchmark, by size).
TIMEOUT_SECONDS = {"smoke": 600, "small": 3600, "full": 6 * 3600}


def failed_checks(result: dict) -> list[str]:
    return [name for name, held in result.get("checks", {}).items() if not held]


def load(name: str):
    """Benchmark `name`'s module, Django set up first (the modules import models)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()
    return importlib.import_module(f"tests.bench.{name}")


def run_one(name: str, *, size: str, corpus: str | None = None) -> dict:
    """Run benchmark `name` in a throw-away database; returns its result."""
    module = load(name)
    from tests.bench.database import bench_database

    options = {"size": size}
    if corpus:
        if "corpus" not in inspect.signature(module.run).parameters:
            raise SystemExit(f"{name} reads no corpus: --corpus is not for it")
        options["corpus"] = corpus
    with bench_database():
        return module.run(**options)


def _main_one(args) -> int:
    started = time.perf_counter()
    result = run_one(args.name, size=args.size, corpus=args.corpus)
    module = load(args.name)
    result.setdefault("seconds", round(time.perf_counter() - started, 1))
    for line in module.describe(result):
        print(line)
    failed = failed_checks(result)
    for check in failed:
        print(f"  FAILED check: {check}")
    if args.json:
        print(json.dumps(result, sort_keys=True, default=str))
    if args.result_file:
        Path(args.result_file).write_text(json.dumps(result, default=str))
    sys.stdout.flush()
    return 1 if failed else 0


def _run_child(name: str, args, result_file: str, env: dict) -> tuple[int | None, float]:
    """One benchmark in a child process, its output going straight to ours."""
    command = [sys.executable, "-m", "tests.bench", name, "--size", args.size]
    command += ["--result-file", result_file]
    started = time.perf_counter()
    child = subprocess.Popen(command, cwd=Path(__file__).resolve().parents[2], env=env)
    try:
        code = child.wait(timeout=TIMEOUT_SECONDS[args.size])
    except subprocess.TimeoutExpired:
        # SIGINT first: the benchmark's finally blocks stop the servers it started.
        child.send_signal(signal.SIGINT)
        try:
            child.wait(timeout=60)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        code = None
    return code, time.perf_counter() - started


def _run_each(args, folder: str, env: dict, summary: list, dropper) -> None:
    """Every benchmark but the skipped ones, each in a child process; appends to `summary`."""
    for name in BENCHMARKS:
        if name in args.skip:
            print(f"== {name} ({args.size}): left to the other run (--skip)", flush=True)
            continue
        print(f"== {name} ({args.size})", flush=True)
        result_file = str(Path(folder) / f"{name}.json")
        code, seconds = _run_child(name, args, result_file, env)
        result = {}
        with contextlib.suppress(FileNotFoundError, ValueError):
            result = json.loads(Path(result_file).read_text())
        if code is None:
            status = f"TIMED OUT after {TIMEOUT_SECONDS[args.size]} s"
        elif failed_checks(result):
            status = "FAILED checks: " + "; ".join(failed_checks(result))
        elif code:
            status = f"FAILED (exit status {code})"
        else:
            status = f"skipped: {result['skipped']}" if result.get("skipped") else "ok"
        summary.append((name, seconds, result.get("ratio"), status))
        print(flush=True)
        if dropper is not None:
            dropper.drop_named()  # the copies it is done with go while the next one runs


def _main_all(args) -> int:
    summary = []
    total_started = time.perf_counter()
    # Every benchmark starts from a copy of one migrated database (tests/bench/database.py).
    load("sizes")
    from django.db import connection

    from tests.bench.database import DROP_LATER_ENV, TEMPLATE_ENV, Dropper, template_database

    with tempfile.TemporaryDirectory() as folder, template_database() as template:
        env = {**os.environ, TEMPLATE_ENV: template}
        dropper = None
        if connection.vendor == "postgresql":  # each drop waits for a checkpoint: not in line
            env[DROP_LATER_ENV] = str(Path(folder) / "drop-later")
            dropper = Dropper(env[DROP_LATER_ENV])
        try:
            _run_each(args, folder, env, summary, dropper)
        finally:
            if dropper is not None:
                dropper.finish()
    total = time.perf_counter() - total_started
    print(f"== summary ({args.size}, {_database_label()})")
    for name, seconds, ratio, status in summary:
        print(f"  {name:<11} {seconds:>7.1f} s  ratio {ratio!s:<8} {status}")
    failed = [name for name, _s, _r, status in summary if status.startswith(("FAILED", "TIMED"))]
    print(f"  total {total:.1f} s; failed: {', '.join(failed) or 'none'}")
    return 1 if failed else 0


def _database_label() -> str:
    url = os.environ.get("DATABASE_URL", "")
    return url.split(":", 1)[0] if url else "sqlite"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench")
    parser.add_argument("name", choices=(*BENCHMARKS, "all"))
    parser.add_argument(
        "--size",
        choices=SIZES,
        default="full",
        help="full: the sizes the goals are stated for; small: a quick look; smoke: seconds, "
        "the same code path (what CI runs). Each benchmark's docstring says what they mean.",
    )
    parser.add_argument("--json", action="store_true", help="end with one JSON object")
    parser.add_argument("--corpus", help="folder of feed files (default: ../shared/corpora/feeds)")
    parser.add_argument("--result-file", help=argparse.SUPPRESS)  # `all` reads results here
    parser.add_argument(
        "--skip",
        type=lambda text: {name for name in text.split(",") if name},
        default=set(),
        help="with `all`: benchmarks to leave out, comma-separated (CI runs the gunicorn and "
        "locust ones in one lane only)",
    )
    args = parser.parse_args(argv)
    if unknown := args.skip - set(BENCHMARKS):
        parser.error(f"--skip: no benchmark named {', '.join(sorted(unknown))}")
    if args.name == "all" and args.corpus:
        parser.error("--corpus is for one benchmark (its meaning differs between them)")
    if args.name == "all":
        return _main_all(args)
    return _main_one(args)


if __name__ == "__main__":
    sys.exit(main())
