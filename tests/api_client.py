"""The typed Python client in clients/python/ (package `tidings_client`): generated from the
schema by openapi-python-client, never edited by hand.

    bin/api-client            # regenerate clients/python/ from the current schema

The schema is `manage.py spectacular`'s JSON under the test settings (the same document the
suite checks); the generator's settings, names included, are in
clients/openapi-python-client.yaml. The output has no timestamps and is formatted by ruff
without any project configuration, so generating twice gives the same files wherever it runs:
tests/config/test_api_client.py regenerates into a temporary directory and fails with "schema
changed; run bin/api-client" when the checked-in client differs. A warning of the generator (an
unsupported content type, a schema it cannot type) fails the generation: fix the schema.
"""

from __future__ import annotations

import difflib
import filecmp
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLIENT_DIR = ROOT / "clients" / "python"
CONFIG = ROOT / "clients" / "openapi-python-client.yaml"
STALE = "schema changed; run bin/api-client"


def write_schema(path: Path) -> None:
    """The schema as JSON, from `manage.py spectacular` (Django must be set up)."""
    from django.core.management import call_command

    call_command("spectacular", "--format", "openapi-json", "--file", str(path))
    # The generator cannot type a recursive union (an import's free-form JSON value, whose
    # strings and keys have no NUL character at any depth): it gets "any JSON value", which is
    # what a Python client passes there anyway.
    from inbox.portability.schema import IMPORT_VALUE_COMPONENT, IMPORT_VALUE_SCHEMA

    schema = json.loads(path.read_text(encoding="utf-8"))
    components = schema.get("components", {}).get("schemas", {})
    if IMPORT_VALUE_COMPONENT in components:
        components[IMPORT_VALUE_COMPONENT] = {"description": IMPORT_VALUE_SCHEMA["description"]}
        path.write_text(json.dumps(schema, indent=2, ensure_ascii=False), encoding="utf-8")


def generate(schema: Path, output: Path) -> None:
    """Generate the client package from `schema` into `output` (which must not exist)."""
    bin_dir = Path(sys.executable).parent
    # The generator's post-hooks call `ruff`: the one of this environment.
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    result = subprocess.run(
        [
            str(bin_dir / "openapi-python-client"),
            "generate",
            "--path",
            str(schema),
            "--output-path",
            str(output),
            "--meta",
            "setup",
            "--config",
            str(CONFIG),
            "--fail-on-warning",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    output_text = result.stdout + result.stderr
    if result.returncode != 0 or "Warning" in output_text:
        raise RuntimeError(f"openapi-python-client failed or warned:\n{output_text}")


def generate_fresh(into: Path) -> Path:
    """The client as the current schema makes it, in `into`/python."""
    schema = into / "schema.json"
    write_schema(schema)
    output = into / "python"
    generate(schema, output)
    return output


def _files(root: Path) -> set[str]:
    return {
        str(path.relative_to(root))
        for path in root.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def differences(expected: Path, actual: Path, *, max_lines: int = 60) -> list[str]:
    """What differs between two generated trees: missing, extra and changed files, with the
    start of a unified diff of the first changed ones."""
    wanted, present = _files(expected), _files(actual)
    lines = [f"missing: {name}" for name in sorted(wanted - present)]
    lines += [f"not generated any more: {name}" for name in sorted(present - wanted)]
    shown = 0
    for name in sorted(wanted & present):
        if filecmp.cmp(expected / name, actual / name, shallow=False):
            continue
        lines.append(f"changed: {name}")
        if shown < max_lines:
            diff = list(
                difflib.unified_diff(
                    (actual / name).read_text().splitlines(),
                    (expected / name).read_text().splitlines(),
                    f"checked in: {name}",
                    f"from the schema: {name}",
                    lineterm="",
                )
            )
            lines += diff[: max_lines - shown]
            shown += len(diff)
    return lines


def stale_report(fresh: Path, checked_in: Path) -> str:
    """Empty when the checked-in client is the fresh one; else what to run, and what differs."""
    changed = differences(fresh, checked_in)
    if not changed:
        return ""
    return "\n".join([f"{STALE} (then commit clients/python/)", *changed])


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="tidings-client-") as tmp:
        fresh = generate_fresh(Path(tmp))
        changed = differences(fresh, CLIENT_DIR) if CLIENT_DIR.exists() else ["(new)"]
        if changed:
            shutil.rmtree(CLIENT_DIR, ignore_errors=True)
            shutil.copytree(fresh, CLIENT_DIR)
    seconds = time.monotonic() - started
    verdict = f"regenerated ({len(changed)} lines of differences)" if changed else "up to date"
    print(f"clients/python: {verdict} in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
