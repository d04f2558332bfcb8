"""SearXNG (self-hosted metasearch) as a search provider, through its JSON API:
`GET {SEARXNG_URL}/search?q=…&format=json`.

The instance must allow the JSON format (`search.formats: [html, json]` in its settings.yml);
otherwise it answers 403. Like every outbound request this goes through
`ingest.fetching.fetch`, so the instance has to be reachable at a public address: the fetch
policy refuses private networks.
Results become pool entries with canonical URLs and plain-text titles and descriptions.
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ingest.canonical import InvalidURL, canonicalize_url
from ingest.feeds.parse import parse_iso_time
from ingest.fetching import fetch
from ingest.models import Source
from ingest.pool.entries import DESCRIPTION_MAX_CHARS, ParsedEntry, ParsedFeed
from ingest.refresh.outcome import Fetched
from ingest.search.providers.base import SearchProvider
from ingest.text.sanitize import html_to_text

MAX_RESPONSE_BYTES = 2 * 1024 * 1024
MAX_RESULTS = 100
JSON_ACCEPT = "application/json"


class SearxngResponseError(ValueError):
    pass


def search_url(base_url: str, query: str) -> str:
    return f"{base_url.rstrip('/')}/search?" + urlencode({"q": query, "format": "json"})


def _plain(value, limit: int) -> str:
    return html_to_text(value)[:limit] if isinstance(value, str) else ""


def parse_results(content: bytes, *, query: str) -> ParsedFeed:
    """SearXNG's JSON answer as entries; results without a usable http(s) URL are skipped."""
    try:
        data = json.loads(content)
    except (ValueError, RecursionError):  # RecursionError: nested too deeply to decode
        raise SearxngResponseError(_("SearXNG did not answer with JSON.")) from None
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, list):
        raise SearxngResponseError(_("SearXNG's answer has no list of results."))
    parsed = ParsedFeed(title=f"SearXNG: {query}"[:300], site_url="", language="")
    for result in results[:MAX_RESULTS]:
        link = result.get("url") if isinstance(result, dict) else None
        try:
            url = canonicalize_url(link) if isinstance(link, str) else ""
        except InvalidURL:
            url = ""
        if not url:
            parsed.skipped += 1
            continue
        parsed.entries.append(
            ParsedEntry(
                url=url,
                entry_id=link[:2048],
                title=_plain(result.get("title"), 500) or url[:500],
                description=_plain(result.get("content"), DESCRIPTION_MAX_CHARS),
                content_html="",
                author=_plain(result.get("author"), 300),
                published_at=parse_iso_time(result.get("publishedDate")),
            )
        )
    return parsed


class SearxngProvider(SearchProvider):
    key = "searxng"
    label = gettext_lazy("SearXNG")

    def unavailable_reason(self) -> str:
        if not settings.SEARXNG_URL:
            return _(
                "The SearXNG search provider is not configured on this server "
                "(SEARXNG_URL is not set)."
            )
        return ""

    def read(self, source: Source, queries: list[str] | None = None) -> Fetched:
        fetched = Fetched()
        query = source.config.get("query", "")
        try:
            result = fetch.fetch(
                search_url(settings.SEARXNG_URL, query),
                max_bytes=MAX_RESPONSE_BYTES,
                accept=JSON_ACCEPT,
            )
        except fetch.FetchError as exc:
            fetched.fail(exc)  # keeps the status and Retry-After the back-off reads
            if getattr(exc, "status", None) == 403:
                fetched.error = _(
                    "SearXNG refused the search (HTTP 403). Its JSON output may be switched "
                    "off: add json to search.formats in the instance's settings.yml."
                )
            else:
                fetched.error = _("SearXNG search failed: %(reason)s") % {"reason": exc.message}
            return fetched
        fetched.result = result
        fetched.http_status = result.status
        try:
            fetched.parsed = parse_results(result.content, query=query)
        except SearxngResponseError as exc:
            fetched.error = str(exc)
        return fetched
