"""Dedup layers: hard (same canonical hash, handled by the unique key in pool.py), soft (same
normalized title within 48 h) here, and near-duplicate (simhash of full text, arriving with
full-text extraction) through `near_duplicate_cluster()`."""

from __future__ import annotations

import re
import unicodedata
from datetime import timedelta

SOFT_DEDUP_WINDOW = timedelta(hours=48)
_BRACKETED = re.compile(r"\s*[\[\(【「『〔（][^\]\)】」』〕）]{0,40}[\]\)】」』〕）]\s*$")
_SITE_SUFFIX = re.compile(r"\s+[-|–—:]\s+[^-|–—:]{2,40}$")
_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)


def normalize_title(title: str) -> str:
    """Fold width and case, drop a trailing bracketed tag or " - Site" suffix, squeeze spaces.

    Titles that normalize to fewer than three words' worth are not used for soft dedup.
    """
    text = unicodedata.normalize("NFKC", title or "").casefold().strip()
    for _ in range(2):
        text = _BRACKETED.sub("", text)
    text = _SITE_SUFFIX.sub("", text)
    text = _NON_WORD.sub(" ", text).strip()
    return text[:500]


def usable_for_soft_dedup(normalized: str) -> bool:
    # Short titles ("Update", "Weekly links") collide by accident.
    return len(normalized) >= 12


def near_duplicate_cluster(item) -> int | None:
    """Hook for the simhash layer (SPEC §4.4): returns a cluster id or None. Until full text is
    extracted there is no body to fingerprint, so nothing clusters yet."""
    return None
