"""NAVER News Search as a search provider — discovery only (seed 003 §2.2, §4).

`GET {NAVER_SEARCH_API_URL}/v1/search/news.json?query=…&display=100&start=1&sort=date` with the
headers `X-Naver-Client-Id` and `X-Naver-Client-Secret` of a NAVER Developers application
(NAVER_CLIENT_ID / NAVER_CLIENT_SECRET). The answer (the shape the tests' fake serves):

    {"lastBuildDate": "Fri, 20 Nov 2026 18:00:00 +0900", "total": 1520, "start": 1,
     "display": 100, "items": [{"title": "…<b>반도체</b>…", "originallink": "https://…",
     "link": "https://n.news.naver.com/mnews/article/…", "description": "…&quot;…",
     "pubDate": "Fri, 20 Nov 2026 17:58:00 +0900"}]}

Titles and descriptions carry `<b>` around the matched words and HTML entities; they become
plain text. An item's address is its `originallink` (the publisher's page) and only falls back
to `link`, which may be NAVER's own copy or a redirector. Results are canonicalized and upserted
like any search's; the pool then settles duplicates: a search never overwrites what a feed said
about an item, and the source's priority is below every feed's (the Korean pack gives it -1),
so the publisher's own RSS copy wins a cluster (seed 003 §6: khan > … > voa_ko > naver). The
article text always comes from the publisher's page (full text is extracted from the item's
address), never from NAVER.

Queries are the interests of the subscription whose run collects the source (at most
MAX_QUERIES_PER_RUN of them), else the source's own query. Each query is asked at most once per
QUERY_FLOOR (30 minutes: SPEC §4.8's floor, seed 003 §5's NAVER interval), whoever's run asks
(`ingest.models.SearchQueryPoll`). NAVER answers quota and rate problems with HTTP 429 (error
code 012; a day's quota is 25,000 calls per application) and bad credentials with 401; those
failures back the source off like any other source's failures.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ingest.canonical import InvalidURL, canonicalize_url
from ingest.fetching import fetch
from ingest.library.packs import publisher_name
from ingest.models import Source
from ingest.pool.entries import DESCRIPTION_MAX_CHARS, ParsedEntry, ParsedFeed
from ingest.refresh.outcome import Fetched
from ingest.search.providers.base import SearchProvider
from ingest.text.sanitize import html_to_text

KEY = "naver_news"
NEWS_PATH = "/v1/search/news.json"
RESULTS_PER_QUERY = 100  # NAVER's maximum `display`
MAX_QUERIES_PER_RUN = 5
MAX_QUERY_CHARS = 100
QUERY_FLOOR = timedelta(minutes=30)
MAX_RESPONSE_BYTES = 2 * 1024 * 1024
JSON_ACCEPT = "application/json"


class NaverResponseError(ValueError):
    pass


def configured() -> bool:
    return bool(settings.NAVER_CLIENT_ID and settings.NAVER_CLIENT_SECRET)


def off_reason() -> str:
    """What the pack, the Sources page and a refused search say when discovery is off."""
    return _(
        "NAVER News discovery is off on this server: NAVER_CLIENT_ID and NAVER_CLIENT_SECRET "
        "(a NAVER Developers application with the Search API) are not set."
    )


def news_url(base_url: str, query: str) -> str:
    params = {"query": query, "display": RESULTS_PER_QUERY, "start": 1, "sort": "date"}
    return f"{base_url.rstrip('/')}{NEWS_PATH}?" + urlencode(params)


def _plain(value, limit: int) -> str:
    """NAVER's <b> highlights and HTML entities gone: plain text, at most `limit` characters."""
    return html_to_text(value, limit=limit)[:limit] if isinstance(value, str) else ""


def _published(value) -> datetime | None:
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        published = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if published.tzinfo is None:
        return None
    return published.astimezone(UTC)


def _address(item: dict) -> tuple[str, str]:
    """(canonical URL, the address as NAVER gave it): originallink first, else link."""
    for key in ("originallink", "link"):
        raw = item.get(key)
        if isinstance(raw, str) and raw.strip():
            try:
                return canonicalize_url(raw.strip()), raw.strip()
            except InvalidURL:
                continue
    return "", ""


def parse_news(content: bytes, *, query: str) -> ParsedFeed:
    """NAVER's JSON answer as entries; items without a usable http(s) address are skipped."""
    try:
        data = json.loads(content)
    except (UnicodeDecodeError, ValueError):
        raise NaverResponseError(_("NAVER did not answer with JSON.")) from None
    items = data.get("items") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise NaverResponseError(_("NAVER's answer has no list of items."))
    parsed = ParsedFeed(title=f"NAVER News: {query}"[:300], site_url="", language="ko")
    for item in items[:RESULTS_PER_QUERY]:
        if not isinstance(item, dict):
            parsed.skipped += 1
            continue
        url, raw = _address(item)
        if not url:
            parsed.skipped += 1
            continue
        title = _plain(item.get("title"), 500)
        description = _plain(item.get("description"), DESCRIPTION_MAX_CHARS)
        parsed.entries.append(
            ParsedEntry(
                url=url,
                entry_id=raw[:2048],
                title=title or url[:500],
                description=description,
                content_html="",
                author="",
                published_at=_published(item.get("pubDate")),
                site_name=publisher_name(urlsplit(url).hostname or ""),
            )
        )
    return parsed


def _failure_message(exc: fetch.FetchError) -> str:
    status = getattr(exc, "status", None)
    if status == 401:
        return _(
            "NAVER refused the credentials (HTTP 401): check NAVER_CLIENT_ID and "
            "NAVER_CLIENT_SECRET."
        )
    if status == 403:
        return _(
            "NAVER refused the search (HTTP 403): the application behind NAVER_CLIENT_ID may "
            "not have the Search API enabled."
        )
    if status == 429 or isinstance(exc, fetch.HostCoolingDown):
        return _(
            "NAVER's Search API quota is used up or calls came too fast (HTTP 429); the "
            "source waits before asking again."
        )
    return _("NAVER News search failed: %(reason)s") % {"reason": exc.message}


def _merge(parts: list[ParsedFeed], title: str) -> ParsedFeed:
    merged = ParsedFeed(title=title[:300], site_url="", language="ko")
    seen: set[str] = set()
    for part in parts:
        merged.skipped += part.skipped
        for entry in part.entries:
            if entry.url not in seen:
                seen.add(entry.url)
                merged.entries.append(entry)
    return merged


class NaverNewsProvider(SearchProvider):
    key = KEY
    label = gettext_lazy("NAVER News")
    query_floor = QUERY_FLOOR

    def unavailable_reason(self) -> str:
        return "" if configured() else off_reason()

    def queries_for(self, source: Source, subscription=None) -> list[str]:
        """The subscription's interests (each a NAVER query), else the source's own query."""
        queries: list[str] = []
        for interest in getattr(subscription, "interests", None) or []:
            query = " ".join(str(interest).split())[:MAX_QUERY_CHARS]
            if query and query not in queries:
                queries.append(query)
        if not queries:
            query = " ".join(str((source.config or {}).get("query", "")).split())
            queries = [query[:MAX_QUERY_CHARS]] if query else []
        return queries[:MAX_QUERIES_PER_RUN]

    def read(self, source: Source, queries: list[str] | None = None) -> Fetched:
        fetched = Fetched()
        if not configured():
            fetched.error = off_reason()
            return fetched
        queries = self.queries_for(source) if queries is None else queries
        credentials = {
            "X-Naver-Client-Id": settings.NAVER_CLIENT_ID,
            "X-Naver-Client-Secret": settings.NAVER_CLIENT_SECRET,
        }
        parts: list[ParsedFeed] = []
        for query in queries:
            try:
                result = fetch.fetch(
                    news_url(settings.NAVER_SEARCH_API_URL, query),
                    max_bytes=MAX_RESPONSE_BYTES,
                    accept=JSON_ACCEPT,
                    credentials=credentials,
                )
            except fetch.FetchError as exc:
                # One failed query fails the collection: the back-off is the source's, and a
                # quota that is used up is used up for every query.
                fetched.fail(exc)
                fetched.error = _failure_message(exc)
                return fetched
            fetched.result = result
            fetched.http_status = result.status
            try:
                parts.append(parse_news(result.content, query=query))
            except NaverResponseError as exc:
                fetched.error = str(exc)
                return fetched
        fetched.parsed = _merge(parts, f"NAVER News: {', '.join(queries)}")
        return fetched
