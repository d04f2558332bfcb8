"""Watched lists (`list` sources, SPEC §4.6; seed 004 "watch for updates" / list_diff).

A list source is a listing page (a blog index, a news section, a changelog) plus an optional
CSS selector for its items and a render mode (`http`, or `browser` for pages that build their
list with JavaScript). Each check reads the page's item links (ingest/watch/listing.py) and hands
them to the pool like any feed's entries.

What is new is decided by the pool, not by comparing page versions: an item is news the first
time this source links to its canonical URL (the unique (item, source) sighting). So
reordering, paging links, timestamps and "updated 3 minutes ago" churn never make news, an
item that drops off the page and comes back is not news again, and items that disappear are
simply gone. The first check records a baseline (ParsedFeed.baseline): everything already on
the page is seen, none of it is news (ingest/pool/recent.py leaves baseline sightings out).
"""

from __future__ import annotations

import re
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from ingest.canonical import InvalidURL, canonicalize_url
from ingest.feeds.parse import looks_like_html
from ingest.fetching import browser, fetch
from ingest.library.source_sets import refresh_users
from ingest.library.sources import AddedSource, SourceError
from ingest.models import Source, UserSource, config_hash
from ingest.pool.entries import ParsedFeed
from ingest.refresh.outcome import Fetched
from ingest.refresh.pipeline import refresh_source
from ingest.watch.listing import ListingError, check_selector, extract_listing

RENDER_MODES = ("http", "browser")
LIST_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"
HTML_TYPES = {"text/html", "application/xhtml+xml"}
URL_MAX_CHARS = 2048
_CHARSET = re.compile(r"charset\s*=\s*[\"']?([\w.:-]+)", re.IGNORECASE)


def is_first_look(source: Source) -> bool:
    """True until a check of this list has been stored successfully.

    The network half of a refresh runs on worker threads, where a query would wait on the
    storing thread's transaction (SQLite), so this reads the row in memory: `site_url` is
    written by the first successful store (refresh._apply_parsed keeps the listing's address
    there) and by nothing else for a list. `last_refresh_at` would not do: a failed check sets
    it too, and a first success after failures would then flood the Inbox with the whole
    page. Erring the other way (an admin blanks `site_url`) costs one check's news, never a
    flood."""
    return not source.site_url


def list_config(url: str, selector: str = "", render: str = "http") -> dict:
    return {"url": url, "selector": selector, "render": render}


def parse_list_page(result: fetch.FetchResult, *, selector: str, baseline: bool) -> ParsedFeed:
    """A fetched (or rendered) listing page as entries. Raises ListingError."""
    content_type = result.content_type
    if content_type and content_type not in HTML_TYPES and not looks_like_html(result.content):
        raise ListingError(
            _("The address serves %(type)s, not an HTML page.") % {"type": content_type},
            code="not_html",
        )
    charset = _CHARSET.search(result.headers.get("content-type", ""))
    listing = extract_listing(
        result.content,
        base_url=result.url,
        selector=selector,
        encoding=charset.group(1) if charset else None,
    )
    return ParsedFeed(
        title=listing.title,
        site_url=result.url,
        language="",
        entries=listing.entries,
        baseline=baseline,
    )


def _rendered_result(page: browser.RenderedPage) -> fetch.FetchResult:
    # page.content() serializes the DOM as text: the bytes are UTF-8 whatever the page's
    # <meta charset> still says.
    return fetch.FetchResult(
        url=page.url,
        status=200,
        headers={"content-type": "text/html; charset=utf-8"},
        content=page.html,
    )


def fetch_listing(source_url: str, render: str, *, etag: str = "", last_modified: str = ""):
    """The page as a FetchResult: through the safe client, or rendered by the browser (whose
    every request goes through the same client; no conditional GET there)."""
    if render == "browser":
        return _rendered_result(browser.render_page(source_url))
    return fetch.fetch(
        source_url,
        max_bytes=fetch.PAGE_MAX_BYTES,
        accept=LIST_ACCEPT,
        etag=etag,
        last_modified=last_modified,
    )


def read_list(source: Source, prefetched: fetch.FetchResult | None = None) -> Fetched:
    """The reader of `list` sources (ingest/refresh/readers.py): a conditional GET (or a browser
    render) and the page's item links. No database access."""
    fetched = Fetched()
    config = source.config or {}
    try:
        result = prefetched or fetch_listing(
            source.url or config.get("url", ""),
            config.get("render", "http"),
            etag=source.etag,
            last_modified=source.last_modified,
        )
        fetched.result = result
        fetched.http_status = result.status
        if not result.not_modified:
            fetched.parsed = parse_list_page(
                result, selector=config.get("selector", ""), baseline=is_first_look(source)
            )
    except fetch.FetchError as exc:
        fetched.fail(exc)
    except ListingError as exc:
        fetched.error = exc.message
    return fetched


# --- adding a watch ----------------------------------------------------------------------------


def _clean_url(url: str) -> str:
    url = (url or "").strip()
    if not url:
        raise SourceError(_("Enter the address of the page to watch."), code="required")
    if len(url) > URL_MAX_CHARS:
        raise SourceError(
            _("The address is longer than %(limit)d characters.") % {"limit": URL_MAX_CHARS},
            code="too_long",
        )
    try:
        fetch.parse_target(url)
        return canonicalize_url(url)
    except fetch.FetchError as exc:
        raise SourceError(exc.message, code=exc.code) from None
    except InvalidURL as exc:
        raise SourceError(_("This is not a web address: %(why)s") % {"why": exc}) from None


def _clean_render(render: str) -> str:
    render = (render or "http").strip()
    if render not in RENDER_MODES:
        raise SourceError(
            _("Choose how to fetch the page: 'http' or 'browser', not %(value)r.")
            % {"value": render},
            field="render",
            code="invalid_choice",
        )
    if render == "browser" and not browser.available():
        raise SourceError(
            _("Browser fetching is not available on this server."),
            field="render",
            code="browser_unavailable",
        )
    return render


def add_list_watch(
    user,
    url: str,
    *,
    selector: str = "",
    render: str = "http",
    now: datetime,
    display_name: str = "",
    notify: list[str] | None = None,
    check_interval_minutes: int | None = None,
) -> AddedSource:
    """Watch a listing page for new links: validate the input, fetch the page once and find
    its items, then create the shared list Source, add it to the user's library with the
    watch's notifier (digests/watches/notifiers.py: `notify` channels, default the Inbox, and
    `check_interval_minutes`, default an hour) and run its first (baseline) refresh from the
    same response.

    Refused input raises SourceError naming the field (`url`, `selector`, `render`), or
    digests.watches.notifiers.WatchSettingsError / billing.limits.TierLimitError (`notify`,
    `check_interval_minutes`), and writes nothing. A list somebody already watches with the
    same address, selector and render mode is shared: it is linked without fetching, and its
    baseline stays as it is."""
    from digests.watches import notifiers as watches

    watches.check_input(
        user, channels=notify, check_interval_minutes=check_interval_minutes, now=now
    )
    url = _clean_url(url)
    try:
        selector = check_selector(selector)
    except ListingError as exc:
        raise SourceError(exc.message, field=exc.field, code=exc.code) from None
    render = _clean_render(render)
    config = list_config(url, selector, render)
    digest = config_hash(Source.Type.LIST, config)
    source = Source.objects.filter(type=Source.Type.LIST, config_hash=digest).first()
    result = None
    title = ""
    if source is None:
        try:
            result = fetch_listing(url, render)
            title = parse_list_page(result, selector=selector, baseline=True).title
        except fetch.FetchError as exc:
            raise SourceError(exc.message, code=exc.code) from None
        except ListingError as exc:
            raise SourceError(exc.message, field=exc.field, code=exc.code) from None
    with transaction.atomic():
        if source is None:
            # Due now: if the baseline below never runs (a crash), the next tick takes it.
            source, created = Source.objects.get_or_create(
                type=Source.Type.LIST,
                config_hash=digest,
                defaults={
                    "config": config,
                    "url": url,
                    "title": title[:300],
                    "next_refresh_at": now,
                },
            )
        else:
            created = False
        user_source, linked = UserSource.objects.get_or_create(
            user=user,
            source=source,
            defaults={"display_name": (display_name or source.title or url)[:300]},
        )
        if linked:
            refresh_users([user.pk])
        # Settings not given stay as they are (a new watch: the Inbox, an hour).
        watches.set_watch_notifications(
            user,
            source,
            now=now,
            channels=notify,
            check_interval_minutes=check_interval_minutes,
            name=user_source.display_name,
        )
    refresh = refresh_source(source, now=now, prefetched=result) if created else None
    return AddedSource(user_source=user_source, created=linked, refresh=refresh)
