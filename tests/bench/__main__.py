"""`python -m tests.bench NAME [--json]`: run one benchmark.

Each benchmark states its data sizes, prints absolute figures and a ratio against a baseline
measured in the same process; with --json the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import sys

BENCHMARKS = (
    "ingest",
    "refresh",
    "edgecases",
    "sanitize",
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
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench")
    parser.add_argument("name", choices=BENCHMARKS)
    parser.add_argument("--json", action="store_true", help="end with one JSON object")
    parser.add_argument("--corpus", help="folder of feed files (default: ../shared/corpora/feeds)")
    parser.add_argument(
        "--size",
        choices=("full", "small"),
        default="full",
        help="run/scheduler/throughput data sizes: full (the stated goals) or small (a quick look)",
    )
    args = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()
    from tests.bench.database import bench_database

    module = importlib.import_module(f"tests.bench.{args.name}")
    with bench_database():
        # Each benchmark takes the options it knows about.
        accepted = inspect.signature(module.run).parameters
        options = {"corpus": args.corpus, "size": args.size}
        result = module.run(**{k: v for k, v in options.items() if k in accepted})
    for line in module.describe(result):
        print(line)
    if args.json:
        print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
