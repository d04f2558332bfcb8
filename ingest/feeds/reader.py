"""The reader of `feed` sources: a conditional GET through the safe client, then a parse."""

from __future__ import annotations

from pathlib import Path

from ingest.feeds.parse import FeedParseError, parse_feed
from ingest.fetching import fetch
from ingest.models import Source
from ingest.refresh.outcome import Fetched


def read_feed(source: Source, prefetched: fetch.FetchResult | None = None) -> Fetched:
    """A conditional GET and a parse; a `file` source (the `ingest` command) is read from disk.
    A backfill read (ingest/library/backfill.py) is unconditional: a server's wrong 304 must
    not hide the items the backfill is looking for."""
    fetched = Fetched()
    conditional = source.backfill_requested_at is None
    try:
        if "file" in source.config:
            content, base_url, headers = Path(source.config["file"]).read_bytes(), "", {}
        else:
            result = prefetched or fetch.fetch(
                source.url,
                max_bytes=fetch.FEED_MAX_BYTES,
                accept=fetch.FEED_ACCEPT,
                etag=source.etag if conditional else "",
                last_modified=source.last_modified if conditional else "",
            )
            fetched.result = result
            fetched.http_status = result.status
            content, base_url, headers = result.content, result.url, result.headers
        if fetched.result is None or not fetched.result.not_modified:
            fetched.parsed = parse_feed(content, base_url=base_url, headers=headers)
    except fetch.FetchError as exc:
        fetched.fail(exc)
    except (FeedParseError, OSError) as exc:
        fetched.error = f"Could not read the feed: {exc}"
    return fetched
