"""Which reader turns a source into entries, by source type.

A reader is the network half of a refresh for its type: it fetches through the safe client
(ingest/fetch.py), extracts entries and returns a `refresh.Fetched` whose `parsed` holds them —
no database writes, so it runs on worker threads outside any transaction. `refresh.store_refresh`
then upserts the entries, logs and reschedules the same way for every type.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from ingest.fetch import FetchResult
    from ingest.models import Source
    from ingest.refresh import Fetched

    Reader = Callable[[Source, FetchResult | None], Fetched]

READERS = {
    "feed": "ingest.refresh.read_feed",
    "page": "ingest.pages.read_page",
    "list": "ingest.watch.read_list",
    "crawl": "ingest.crawl.read_site",
    "search": "ingest.search.read_search",
}


def reader_for(source_type: str) -> Reader:
    try:
        return import_string(READERS[source_type])
    except KeyError:
        raise ValueError(f"No reader for source type {source_type!r}.") from None
