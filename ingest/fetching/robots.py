"""robots.txt for crawls: fetched through the safe client, parsed from bytes, cached per origin.

RFC 9309's rules for an unreadable file: a 4xx answer means there are no rules (allow all); a
5xx answer, a timeout or a refused fetch means "do not crawl now" — this round is skipped and
nothing is cached, so the next round asks again. A file that was read (or a 4xx) is cached for
ROBOTS_CACHE_SECONDS in Django's cache (Redis when configured: shared by every worker).

Matching is urllib.robotparser's: the first rule of the group for our User-Agent (or `*`) whose
path is a prefix of the URL's path decides. It does not understand Google's `*` and `$`
wildcards inside paths; such a rule never matches.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from urllib.parse import urlsplit
from urllib.robotparser import RobotFileParser

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from ingest.fetching import fetch

ROBOTS_MAX_BYTES = 512 * 1024
ROBOTS_CACHE_SECONDS = 3600
ROBOTS_ACCEPT = "text/plain, */*;q=0.1"


@dataclass
class Robots:
    """The rules of one origin. `unavailable` (a reason) means: crawl nothing this round."""

    lines: list[str] = field(default_factory=list)
    unavailable: str = ""
    _parser: RobotFileParser | None = field(default=None, repr=False)

    @property
    def parser(self) -> RobotFileParser:
        if self._parser is None:
            self._parser = RobotFileParser()
            self._parser.parse(self.lines)
        return self._parser

    def allows(self, url: str) -> bool:
        if self.unavailable:
            return False
        return self.parser.can_fetch(settings.FETCH_USER_AGENT, url)

    def crawl_delay(self) -> float:
        if self.unavailable:
            return 0.0
        try:
            delay = self.parser.crawl_delay(settings.FETCH_USER_AGENT)
        except (TypeError, ValueError):  # a malformed Crawl-delay line
            return 0.0
        return float(delay or 0.0)


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def _cache_key(origin: str) -> str:
    return "robots:" + hashlib.sha256(origin.encode()).hexdigest()[:32]


def robots_for(url: str) -> Robots:
    """The robots.txt rules that apply to `url`, from the cache or fetched now."""
    origin = origin_of(url)
    key = _cache_key(origin)
    cached = cache.get(key)
    if cached is not None:
        return Robots(lines=cached)
    try:
        result = fetch.fetch(
            f"{origin}/robots.txt", max_bytes=ROBOTS_MAX_BYTES, accept=ROBOTS_ACCEPT
        )
    except fetch.HTTPStatusError as exc:
        if 400 <= exc.status < 500 and exc.status != 429:
            cache.set(key, [], ROBOTS_CACHE_SECONDS)
            return Robots()
        return Robots(
            unavailable=_("robots.txt answered HTTP %(status)d; the site is not crawled now.")
            % {"status": exc.status}
        )
    except fetch.FetchError as exc:
        return Robots(
            unavailable=_("robots.txt could not be read (%(reason)s); the site is not crawled now.")
            % {"reason": exc.message}
        )
    lines = result.content.decode("utf-8", errors="replace").splitlines()
    cache.set(key, lines, ROBOTS_CACHE_SECONDS)
    return Robots(lines=lines)
