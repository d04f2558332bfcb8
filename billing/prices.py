"""The one price table (SPEC §10, seed 000 §16.1): what each metered operation costs.

A run's price is the sum over its metered operations (digests/runs/meter.py) of count × unit
price. Operations a cache answered are counted in `operations` too and cost the same: the
spec decided that cache hits are charged, so a run's price does not depend on who fetched a
page first. LLM tokens are recorded on the run but never priced for users.
"""

from __future__ import annotations

from django.conf import settings

from digests.models import Subscription
from digests.runs.on_run import collector_for, on_run_sources
from ingest.models import Source

PRICES = {"search": 1, "page_fetch": 1, "crawl": 1, "extract": 1}
# A source's on-run collection is one search (ingest/search/service.py meters exactly one).
ON_RUN_OPERATION = "search"
# A full-text candidate is at most one page fetch and one extraction (ingest/pool/full_text.py).
FULL_TEXT_OPERATIONS = ("page_fetch", "extract")


def price(breakdown: dict) -> int:
    """Credits for a meter breakdown: Σ operations × unit price."""
    operations = (breakdown or {}).get("operations") or {}
    return sum(int(operations.get(kind) or 0) * unit for kind, unit in PRICES.items())


def priced(breakdown: dict) -> dict:
    """The breakdown as the ledger stores it: the meter's counts, the unit prices used, and
    the total in credits."""
    return {
        "operations": dict((breakdown or {}).get("operations") or {}),
        "cache_hits": dict((breakdown or {}).get("cache_hits") or {}),
        "prices": dict(PRICES),
        "credits": price(breakdown),
    }


def full_text_bound() -> int:
    per_item = sum(PRICES[kind] for kind in FULL_TEXT_OPERATIONS)
    return per_item * max(int(settings.FULLTEXT_TOP_K), 0)


def _collections(types) -> int:
    return sum(1 for kind in types if collector_for(kind) is not None)


def upper_bound(subscription: Subscription) -> int:
    """The most one run of `subscription` can cost with its current settings: one search per
    on-run source that has a collector, plus the full text of FULLTEXT_TOP_K candidates."""
    collections = _collections(on_run_sources(subscription).values_list("type", flat=True))
    return collections * PRICES[ON_RUN_OPERATION] + full_text_bound()


def upper_bound_for_sources(source_ids) -> int:
    """`upper_bound` of a subscription not made yet, from the sources it would use."""
    types = (
        Source.objects.filter(pk__in=list(source_ids), refresh_mode=Source.RefreshMode.ON_RUN)
        .exclude(status=Source.Status.DISABLED)
        .values_list("type", flat=True)
    )
    return _collections(types) * PRICES[ON_RUN_OPERATION] + full_text_bound()
