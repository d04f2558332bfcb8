"""The recorded watch fixture: a listing page in ten steps (testdata/watch_steps/), with the
item paths that are truly new at each step in expected.json. Shared by tests/ingest/test_watch.py
and the `watch` benchmark."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ingest.models import ContentItemSource

STEPS_DIR = Path(__file__).parent / "testdata" / "watch_steps"


@dataclass(frozen=True)
class Step:
    number: int
    html: bytes
    what: str
    new_paths: tuple[str, ...]  # item paths that are news at this step
    on_page: tuple[str, ...]  # item paths listed on the page, in order


def load_steps() -> tuple[str, list[Step]]:
    """(the path the listing is served at, the ten steps in order)."""
    data = json.loads((STEPS_DIR / "expected.json").read_text())
    steps = [
        Step(
            number=step["step"],
            html=(STEPS_DIR / step["file"]).read_bytes(),
            what=step["what"],
            new_paths=tuple(step["new"]),
            on_page=tuple(step["on_page"]),
        )
        for step in data["steps"]
    ]
    return data["path"], steps


def new_urls(source, at: datetime) -> set[str]:
    """Canonical URLs the source reported as news at `at`: its sightings first made then,
    baseline ones excluded — exactly what a source-based run reads (ingest/pool/recent.py)."""
    return set(
        ContentItemSource.objects.filter(
            source=source, first_seen_at=at, baseline=False
        ).values_list("item__canonical_url", flat=True)
    )
