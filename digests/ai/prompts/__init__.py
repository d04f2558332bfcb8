"""Versioned prompts for the AI layer. Each prompt is a file `<name>.v<N>.md`; the highest N
is the one in use. The version ("item_summary.v1") is part of every cache key built from the
prompt's output, so adding `item_summary.v2.md` invalidates only item_summary.v1's entries."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PROMPTS_DIR = Path(__file__).parent
_FILE_NAME = re.compile(r"^(?P<name>[a-z_]+)\.v(?P<number>\d+)\.md$")


@dataclass(frozen=True)
class Prompt:
    name: str
    version: str  # "<name>.v<N>": stored with every result the prompt produced
    text: str


@cache
def load(name: str) -> Prompt:
    """The newest version of the prompt called `name`."""
    versions = []
    for path in PROMPTS_DIR.iterdir():
        match = _FILE_NAME.match(path.name)
        if match and match["name"] == name:
            versions.append((int(match["number"]), path))
    if not versions:
        raise LookupError(f"No prompt file {name}.v<N>.md in {PROMPTS_DIR}.")
    number, path = max(versions)
    return Prompt(name=name, version=f"{name}.v{number}", text=path.read_text("utf-8").strip())
