"""Adding and removing sources in a user's library. Console views and the API call these."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from django.db import transaction
from django.utils.translation import gettext as _

from ingest.feeds.parse import FeedParseError, discover_feed_links, looks_like_html, parse_feed
from ingest.feeds.reader import read_feed_file
from ingest.fetching import fetch
from ingest.library.source_sets import refresh_users
from ingest.models import Source, UserSource, config_hash
from ingest.pool.boundary import clean_parsed
from ingest.refresh.outcome import RefreshOutcome
from ingest.refresh.pipeline import refresh_source


class SourceError(Exception):
    """A refused source; `field` and `message` go straight into form and API errors."""

    def __init__(self, message: str, *, field: str = "url", code: str = "invalid"):
        super().__init__(message)
        self.field = field
        self.message = message
        self.code = code


@dataclass
class AddedSource:
    user_source: UserSource
    created: bool
    refresh: RefreshOutcome | None


def feed_source_for_url(url: str) -> Source | None:
    return Source.objects.filter(
        type=Source.Type.FEED, config_hash=config_hash(Source.Type.FEED, {"url": url})
    ).first()


def _fetch_feed(url: str) -> tuple[str, fetch.FetchResult]:
    """Fetch `url`; if it is a web page, follow its advertised feed. Returns (feed URL, result)."""
    try:
        result = fetch.fetch(url, max_bytes=fetch.FEED_MAX_BYTES, accept=fetch.FEED_ACCEPT)
    except fetch.FetchError as exc:
        raise SourceError(exc.message, code=exc.code) from None
    if looks_like_html(result.content):
        links = discover_feed_links(result.content, base_url=result.url)
        if not links:
            raise SourceError(
                _('This page is not a feed and does not link to one (no <link rel="alternate">).'),
                code="no_feed",
            )
        feed_url = links[0]
        try:
            result = fetch.fetch(feed_url, max_bytes=fetch.FEED_MAX_BYTES, accept=fetch.FEED_ACCEPT)
        except fetch.FetchError as exc:
            raise SourceError(exc.message, code=exc.code) from None
        return feed_url, result
    return (result.permanent_redirect or url), result


def ensure_feed_source(url: str, *, now: datetime) -> tuple[Source, RefreshOutcome | None]:
    """The shared feed Source for `url`, created only after a fetch and a parse succeeded (a
    refused or broken address leaves no row behind). Returns the first refresh when it made one.
    """
    url = (url or "").strip()
    if not url:
        raise SourceError(
            _("Enter the address of a feed or of a site that has one."), code="required"
        )
    try:
        fetch.parse_target(url)
    except fetch.FetchError as exc:
        raise SourceError(exc.message, code=exc.code) from None
    source = feed_source_for_url(url)
    if source is not None:
        return source, None
    feed_url, result = _fetch_feed(url)
    try:
        parsed = clean_parsed(parse_feed(result.content, base_url=result.url))
    except FeedParseError as exc:
        raise SourceError(
            _("This address does not serve a readable feed: %(error)s") % {"error": exc}
        ) from None
    source = feed_source_for_url(feed_url)
    if source is not None:
        return source, None
    source, created = Source.objects.get_or_create(
        type=Source.Type.FEED,
        config_hash=config_hash(Source.Type.FEED, {"url": feed_url}),
        defaults={"config": {"url": feed_url}, "url": feed_url, "title": parsed.title},
    )
    refresh = (
        refresh_source(source, now=now, prefetched=result, preparsed=parsed) if created else None
    )
    return source, refresh


def add_feed_by_url(user, url: str, *, now: datetime, display_name: str = "") -> AddedSource:
    """Validate `url` by fetching it through the safe client, then add it to the library."""
    source, refresh = ensure_feed_source(url, now=now)
    return _link(user, source, display_name, refresh)


def ensure_file_source(path: Path, *, now: datetime) -> tuple[Source, RefreshOutcome]:
    """A feed read from a local file: an admin's command-line convenience (the `ingest` and
    `demo` commands), never reachable from the web or the API, never scheduled. The file is
    parsed before any row is written."""
    try:
        parsed = clean_parsed(parse_feed(read_feed_file(path)))
    except OSError as exc:
        raise SourceError(f"Cannot read {path}: {exc.strerror or exc}", field="path") from None
    except FeedParseError as exc:
        raise SourceError(f"{path} is not a readable feed: {exc}", field="path") from None
    resolved = str(path.resolve())
    source, _ = Source.objects.get_or_create(
        type=Source.Type.FEED,
        config_hash=config_hash(Source.Type.FEED, {"file": resolved}),
        defaults={"config": {"file": resolved}, "title": parsed.title or path.stem},
    )
    return source, refresh_source(source, now=now, preparsed=parsed)


def add_to_library(user, source: Source, display_name: str = "") -> UserSource:
    return _link(user, source, display_name, None).user_source


def _link(user, source: Source, display_name: str, refresh) -> AddedSource:
    with transaction.atomic():
        user_source, created = UserSource.objects.get_or_create(
            user=user,
            source=source,
            defaults={"display_name": (display_name or source.title or source.url)[:300]},
        )
        if created:
            refresh_users([user.pk])
    return AddedSource(user_source=user_source, created=created, refresh=refresh)


def remove_from_library(user, user_source_id: int) -> bool:
    """Remove a source from the user's library; the shared Source row stays for others."""
    with transaction.atomic():
        deleted, _ = UserSource.objects.filter(user=user, pk=user_source_id).delete()
        if deleted:
            refresh_users([user.pk])
    return bool(deleted)
