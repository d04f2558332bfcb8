"""License tiers of pool items (seed 003 §3.1 `licenseTier`): an item takes the strictest
tier of the sources that carry it (restricted > unknown > internal_ok).

A new item takes its source's tier at insert; a known item seen by one more source is raised to
that source's tier when it is stricter (`raise_to_source`, one UPDATE, only for such sightings);
an admin changing a source's tier recomputes every item of it (`recompute_for_source`) and
announces it (`license_tiers_changed`), so public page caches retire what they showed.
"""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction
from django.dispatch import Signal

from ingest.models import ContentItem, ContentItemSource, LicenseTier, Source
from ingest.pool.recent import id_set

STRICTNESS = {LicenseTier.INTERNAL_OK: 0, LicenseTier.UNKNOWN: 1, LicenseTier.RESTRICTED: 2}
# Sent after the transaction that changed item tiers commits; topics retires its page cache.
license_tiers_changed = Signal()


def strictest(tiers) -> str:
    return max(tiers, key=lambda tier: STRICTNESS.get(tier, 1), default=LicenseTier.UNKNOWN)


def _less_strict_than(tier: str) -> list[str]:
    return [t for t, rank in STRICTNESS.items() if rank < STRICTNESS.get(tier, 1)]


def raise_to_source(source: Source, item_ids: list[int]) -> int:
    """Known items `source` has just seen for the first time: at least its tier."""
    weaker = _less_strict_than(source.license_tier)
    if not item_ids or not weaker:
        return 0
    return ContentItem.objects.filter(pk__in=id_set(item_ids), license_tier__in=weaker).update(
        license_tier=source.license_tier
    )


def recompute_for_source(source: Source) -> int:
    """After an admin changed `source`'s tier: every item it carries gets the strictest tier of
    all its sources again. Returns how many items changed."""
    item_ids = list(
        ContentItemSource.objects.filter(source=source).values_list("item_id", flat=True)
    )
    if not item_ids:
        return 0
    tiers: dict[int, list[str]] = defaultdict(list)
    for item_id, tier in ContentItemSource.objects.filter(item_id__in=id_set(item_ids)).values_list(
        "item_id", "source__license_tier"
    ):
        tiers[item_id].append(tier)
    wanted: dict[str, list[int]] = defaultdict(list)
    for item_id, item_tiers in tiers.items():
        wanted[strictest(item_tiers)].append(item_id)
    changed = 0
    with transaction.atomic():
        for tier, ids in wanted.items():
            changed += (
                ContentItem.objects.filter(pk__in=id_set(ids))
                .exclude(license_tier=tier)
                .update(license_tier=tier)
            )
        if changed:
            transaction.on_commit(lambda: license_tiers_changed.send(sender=Source))
    return changed
