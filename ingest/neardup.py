"""Near-duplicate clusters by simhash (SPEC §4.4). Being written; see dedup.py for the hook."""

from __future__ import annotations


def place(item, text: str) -> None:
    """Fingerprint `item` by `text`, join or found its cluster, pick the cluster's winner."""
