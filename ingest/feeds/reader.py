"""The reader of `feed` sources: a conditional GET through the safe client, then a parse."""

from __future__ import annotations

from pathlib import Path

from ingest.feeds.memory import parse_memory
from ingest.feeds.parse import FeedParseError, parse_feed
from ingest.fetching import fetch
from ingest.models import Source
from ingest.refresh.outcome import Fetched


def read_feed_file(path: Path) -> bytes:
    """A feed file's bytes, refused beyond the size an HTTP feed may have (FEED_MAX_BYTES): the
    parse needs about 2 s and tens of MB per MB, so a 51 MB file held 867 MB of memory."""
    with path.open("rb") as handle:
        content = handle.read(fetch.FEED_MAX_BYTES + 1)
    if len(content) > fetch.FEED_MAX_BYTES:
        raise FeedParseError(
            f"the file is larger than {fetch.FEED_MAX_BYTES // (1024 * 1024)} MB, the limit for "
            "a feed"
        )
    return content


def read_feed(source: Source, prefetched: fetch.FetchResult | None = None) -> Fetched:
    """A conditional GET and a parse; a `file` source (the `ingest` command) is read from disk.
    A backfill read (ingest/library/backfill.py) is unconditional: a server's wrong 304 must
    not hide the items the backfill is looking for."""
    fetched = Fetched()
    conditional = source.backfill_requested_at is None
    try:
        if "file" in source.config:
            content, base_url, headers = read_feed_file(Path(source.config["file"])), "", {}
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
            # Fetches run 16 at once; parses wait until their memory fits (memory.py).
            with parse_memory.reserve(len(content)):
                fetched.parsed = parse_feed(content, base_url=base_url, headers=headers)
    except fetch.FetchError as exc:
        fetched.fail(exc)
    except (FeedParseError, OSError) as exc:
        fetched.error = f"Could not read the feed: {exc}"
    return fetched
