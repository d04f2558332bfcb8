"""Seed 002's subscription hash, for a user's library: SHA-256 of the sorted source ids,
comma-joined — "3,1,7" and "7,3,1" are both "1,3,7" — and SHA-256("") for an empty library.

`refresh_users()` recomputes the materialized rows (ingest.models.UserSourceSet) of the users
named; every service that changes a library calls it inside its own transaction (adding a
source, a watch, a crawl, a search or a saved page; bulk adds from a pack or OPML; removing
one), and deleting a Source recomputes everyone who had it (ingest/library/signals). So the
hash is never stale outside a transaction, and users who share a combination are found with
one indexed query. The per-subscription hash is kept the same way by
digests/subscriptions/source_sets.py.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime

from django.utils import timezone

from ingest.models import UserSource, UserSourceSet

EMPTY_HASH = hashlib.sha256(b"").hexdigest()


def source_set_hash(source_ids: Iterable[int]) -> str:
    joined = ",".join(str(i) for i in sorted(set(source_ids)))
    return hashlib.sha256(joined.encode()).hexdigest()


def refresh_users(user_ids: Iterable[int], *, now: datetime | None = None) -> None:
    """Recompute the library hash of each user named (call inside the changing transaction;
    it locks the users' hash rows until that transaction ends)."""
    ids = sorted(set(user_ids))
    if not ids:
        return
    now = now or timezone.now()
    # Lock the rows first (made if missing), then read the libraries: of two transactions
    # changing one library at once, the second waits here and then reads what the first
    # committed, so the last hash written is the hash of the whole library.
    UserSourceSet.objects.bulk_create(
        [UserSourceSet(user_id=i, source_set_hash="", updated_at=now) for i in ids],
        ignore_conflicts=True,
    )
    list(UserSourceSet.objects.select_for_update().filter(user_id__in=ids).order_by("user_id"))
    libraries: dict[int, list[int]] = defaultdict(list)
    for user_id, source_id in UserSource.objects.filter(user_id__in=ids).values_list(
        "user_id", "source_id"
    ):
        libraries[user_id].append(source_id)
    for user_id in ids:
        sources = libraries.get(user_id, [])
        UserSourceSet.objects.filter(user_id=user_id).update(
            source_set_hash=source_set_hash(sources),
            source_count=len(set(sources)),
            updated_at=now,
        )
