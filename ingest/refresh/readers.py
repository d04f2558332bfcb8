"""Which reader turns a source into entries, by source type.

A reader is the network half of a refresh for its type: it fetches through the safe client
(ingest/fetching/fetch.py), extracts entries and returns a `Fetched`
(ingest/refresh/outcome.py) whose `parsed` holds them — no database writes, so it runs on
worker threads outside any transaction. `store_refresh` (ingest/refresh/pipeline.py) then
upserts the entries, logs and reschedules the same way for every type.

Each kind's package owns its reader; they are named here rather than imported because the
kinds build on the pipeline (adding a watch refreshes it at once), while the pipeline only
needs to find a reader by type.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from ingest.fetching.fetch import FetchResult
    from ingest.models import Source
    from ingest.refresh.outcome import Fetched

    Reader = Callable[[Source, FetchResult | None], Fetched]

READERS = {
    "feed": "ingest.feeds.reader.read_feed",
    "page": "ingest.pages.service.read_page",
    "list": "ingest.watch.service.read_list",
    "crawl": "ingest.crawl.service.read_site",
    "search": "ingest.search.service.read_search",
    "newsletter": "ingest.newsletters.receiving.read_newsletter",
}


def reader_for(source_type: str) -> Reader:
    try:
        return import_string(READERS[source_type])
    except KeyError:
        raise ValueError(f"No reader for source type {source_type!r}.") from None
