"""`crawl` sources (SPEC §4.6): a bounded, polite breadth-first walk of one site.

A round starts at the source's URL and follows links on the same site only (same host with a
leading "www." ignored, same port), within `max_depth` links of the start and at most `limit`
page fetches. Listing pages (the start page always, and pages that look like indexes) are only
followed; a page that looks like an article becomes a pool entry and is not followed further —
seed `000_…` §5.1.4: list pages for links, a few detail pages, never the whole site.

Politeness and bounds: every request goes through `ingest.fetching.fetch.fetch` (per-host
concurrency and interval live there); robots.txt is honoured (ingest/fetching/robots.py),
including a Crawl-delay longer than ours; a page answering 4xx is counted and skipped, never
retried within the round (nor for a day after: the cache remembers it);
a 429, or a run of server errors or of 401/403 refusals, ends the round; the round stops
starting fetches at ROUND_DEADLINE_SECONDS.

New pages only: the first round is a baseline (its pages are recorded, not news; a baseline cut
short by the limit or the deadline continues next round, noted in the cache), and later rounds
do not fetch detail pages this source has already seen — the reader reads, never writes, the
source's sightings for that.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from time import sleep
from urllib.parse import urljoin, urlsplit

import lxml.html
from django.core.cache import cache
from django.db import connections
from django.utils.translation import gettext as _
from lxml import etree
from readability import Document

from ingest.canonical import InvalidURL, canonicalize_url
from ingest.feeds.parse import parse_iso_time
from ingest.fetching import fetch
from ingest.fetching.robots import robots_for
from ingest.library.bulk_add import SourceSpec, add_sources_to_library
from ingest.library.input import SourceInputError, int_in_range, text_list
from ingest.models import ContentItemSource, Source, UserSource
from ingest.pool.entries import DESCRIPTION_MAX_CHARS, ParsedEntry, ParsedFeed
from ingest.refresh.outcome import Fetched
from ingest.text.extract import ExtractionError, extract_main_content
from ingest.text.sanitize import sanitize_html

logger = logging.getLogger(__name__)
# readability logs "ruthless removal did not work" at INFO for ordinary pages: once per page.
logging.getLogger("readability.readability").setLevel(logging.WARNING)

DEFAULT_MAX_DEPTH = 2
MAX_DEPTH = 5
DEFAULT_PAGE_LIMIT = 50
MAX_PAGE_LIMIT = 500  # the hard cap on page fetches per round, whatever the config says
MIN_PAGE_LIMIT = 2  # the start page plus at least one more
# A refresh batch shares one task (timeout 300 s) with other sources: a round stops starting
# fetches after this long (one fetch may still take its own 30 s deadline).
ROUND_DEADLINE_SECONDS = 90.0
# A longer robots.txt Crawl-delay is capped: the round's deadline bounds the wait anyway.
MAX_CRAWL_DELAY_SECONDS = 10.0
# This many failed fetches in a row (5xx, timeouts), or 401/403 refusals in a row, and the site
# is left alone until the next round.
MAX_CONSECUTIVE_FAILURES = 5
MAX_PATTERNS = 20
MAX_PATTERN_CHARS = 200
MAX_QUEUE = 5000
MAX_KNOWN_URLS = 20_000
CONTENT_MAX_CHARS = 200_000
CRAWL_REFRESH_MINUTES = 120
# A first look that the page limit or the deadline cuts short continues as a baseline for up
# to this many rounds (a site whose index pages alone exceed the limit would never finish).
MAX_BASELINE_ROUNDS = 5
BASELINE_STATE_SECONDS = 30 * 86400
# Pages that answered 4xx are skipped by later rounds for this long (at most this many kept).
REFUSED_PAGES_SECONDS = 86400
MAX_REMEMBERED_REFUSALS = 1000
HTML_ACCEPT = "text/html, application/xhtml+xml;q=0.9, */*;q=0.1"

# Links to files that are never HTML pages are not worth a request.
_NOT_PAGES = re.compile(
    r"\.(?:jpe?g|png|gif|webp|svg|ico|bmp|tiff?|pdf|zip|gz|tgz|bz2|xz|7z|rar|tar|exe|dmg|"
    r"iso|mp[34]|m4a|ogg|wav|flac|webm|mov|avi|mkv|css|js|json|xml|rss|atom|woff2?|ttf|eot|"
    r"docx?|xlsx?|pptx?|csv)$",
    re.IGNORECASE,
)
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_SPACE = re.compile(r"\s+")
_ARTICLE_TYPES = {"article", "newsarticle", "blogposting", "reportagenewsarticle", "techarticle"}
# Main text at least this long, with this little of it inside links, reads as an article.
DETAIL_MIN_TEXT = 500
DETAIL_MAX_LINK_DENSITY = 0.3
# This many linked headlines in the main content make a page an index of articles.
LISTING_MIN_TEASERS = 3
MAX_MAIN_NODES = 50


# --- Configuration --------------------------------------------------------------------------


@dataclass(frozen=True)
class CrawlConfig:
    url: str
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    max_depth: int = DEFAULT_MAX_DEPTH
    limit: int = DEFAULT_PAGE_LIMIT

    @classmethod
    def of(cls, source: Source) -> CrawlConfig:
        config = source.config or {}
        return cls(
            url=source.url or config.get("url", ""),
            include=tuple(config.get("include") or ()),
            exclude=tuple(config.get("exclude") or ()),
            max_depth=min(int(config.get("max_depth") or DEFAULT_MAX_DEPTH), MAX_DEPTH),
            limit=min(int(config.get("limit") or DEFAULT_PAGE_LIMIT), MAX_PAGE_LIMIT),
        )

    def as_json(self) -> dict:
        return {
            "url": self.url,
            "include": list(self.include),
            "exclude": list(self.exclude),
            "max_depth": self.max_depth,
            "limit": self.limit,
        }


def _pattern_regex(pattern: str) -> re.Pattern:
    # A pattern is a path prefix in which "*" stands for any run of characters.
    return re.compile(
        "".join(".*" if part == "*" else re.escape(part) for part in re.split(r"(\*)", pattern))
    )


class PathRules:
    """include/exclude: a URL is followed when no exclude pattern matches its path (with query)
    and, if there are include patterns, one of them does. Exclude wins."""

    def __init__(self, include: tuple[str, ...], exclude: tuple[str, ...]):
        self.include = [_pattern_regex(p) for p in include]
        self.exclude = [_pattern_regex(p) for p in exclude]

    def allows(self, url: str) -> bool:
        parts = urlsplit(url)
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        if any(p.match(path) for p in self.exclude):
            return False
        return not self.include or any(p.match(path) for p in self.include)


def site_key(url: str) -> tuple[str, int | None]:
    """What "the same site" means: the host without a leading "www.", and the port when it is
    not the scheme's default (so http and https of one host are one site)."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower().rstrip(".")
    host = host.removeprefix("www.")
    port = parts.port
    if port == {"http": 80, "https": 443}.get(parts.scheme.lower()):
        port = None
    return host, port


# --- Reading pages ----------------------------------------------------------------------------


# lxml refuses text with NUL or other C0 control characters (a ValueError out of the middle of
# classification, found by the property tests); a page's are never text.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def decode_html(result: fetch.FetchResult) -> str:
    return _CONTROL.sub("", _decoded(result))


def _decoded(result: fetch.FetchResult) -> str:
    declared = ""
    for param in result.headers.get("content-type", "").split(";")[1:]:
        name, _sep, value = param.partition("=")
        if name.strip().lower() == "charset":
            declared = value.strip().strip("\"'")
    if not declared:
        match = _CHARSET.search(result.content[:4096])
        declared = match.group(1).decode("ascii") if match else "utf-8"
    try:
        return result.content.decode(declared, errors="replace")
    except LookupError:
        return result.content.decode("utf-8", errors="replace")


def _is_html(result: fetch.FetchResult) -> bool:
    if result.content_type in ("text/html", "application/xhtml+xml"):
        return True
    head = result.content[:1024].lstrip().lower()
    return not result.content_type and head.startswith((b"<!doctype html", b"<html"))


def _text(value: str) -> str:
    return _SPACE.sub(" ", value or "").strip()


def _meta(doc, *names: str) -> str:
    for name in names:
        for element in doc.xpath(
            "//meta[@property=$n or @name=$n or @itemprop=$n][@content]", n=name
        ):
            value = _text(element.get("content"))
            if value:
                return value
    return ""


def _json_ld(doc) -> list[dict]:
    found: list[dict] = []
    for script in doc.xpath("//script[@type='application/ld+json']"):
        try:
            data = json.loads(script.text or "")
        except ValueError:
            continue
        stack = [data]
        while stack and len(found) < 50:
            node = stack.pop()
            if isinstance(node, list):
                stack.extend(node)
            elif isinstance(node, dict):
                found.append(node)
                stack.extend(v for k, v in node.items() if k == "@graph")
    return found


def _ld_types(node: dict) -> set[str]:
    kind = node.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    return {k.lower() for k in kinds if isinstance(k, str)}


def main_content(html: str, url: str) -> tuple[str, str]:
    """readability-lxml's main content of a page as (HTML, plain text): what classification
    reads. Its output starts with a copy of the element it chose, which `_main_node` finds in
    the page again. Never fetches anything."""
    try:
        content = Document(html, url=url).summary(html_partial=True)
    except Exception:  # readability raises bare Exceptions on documents it cannot read
        return "", ""
    return content, _text(_fragment(content).text_content())


def _article_body(html: str, page_url: str, fallback_html: str, fallback_text: str):
    """(sanitized content HTML, lead text) of an article page: the shared extractor's
    (ingest/text/extract.py, trafilatura, measured the better of the two), else readability's."""
    try:
        extracted = extract_main_content(html, url=page_url)
    except ExtractionError:
        return sanitize_html(fallback_html, base_url=page_url), fallback_text[:500]
    return extracted.html, extracted.lead


def _fragment(content_html: str):
    """readability's content as one element. lxml asserts (AssertionError) on a "fragment" that
    is a whole document without a body, e.g. "<html><head><base></head></html>" (found by the
    property tests): such content is no content."""
    try:
        return lxml.html.fragment_fromstring(content_html or "<div></div>", create_parent="div")
    except (etree.ParserError, ValueError, AssertionError):
        return lxml.html.fragment_fromstring("<div></div>", create_parent="div")


# Linked headlines both ways round: <h2><a href> and <a href><h3> (cards).
_HEADLINE_LINKS = (
    ".//h1//a[@href] | .//h2//a[@href] | .//h3//a[@href] | .//h4//a[@href] | "
    ".//a[@href][.//h1 or .//h2 or .//h3 or .//h4]"
)


def _source_element(doc, copy):
    """The element of `doc` that `copy` (from readability's output) was made from: same tag,
    class and id, and its text begins with the copy's."""
    probe = _text(copy.text_content())[:80]
    if not probe:
        return None
    for element in doc.iter(copy.tag):
        if (
            element.get("class") == copy.get("class")
            and element.get("id") == copy.get("id")
            and probe in _text(element.text_content())
        ):
            return element
    return None


def _main_nodes(doc, content_html: str) -> list:
    """The elements of `doc` readability took the main content from: its output wraps copies
    of them (the best candidate, and siblings it judged part of the same content, as on an
    index of teasers) in divs without class or id."""
    level = [_fragment(content_html)]
    while len(level) == 1 and level[0].tag == "div" and not level[0].attrib:
        level = [child for child in level[0] if isinstance(child.tag, str)]
    nodes = []
    for copy in level[:MAX_MAIN_NODES]:
        element = _source_element(doc, copy)
        if element is not None and element not in nodes:
            nodes.append(element)
    return nodes


def _linked_headlines(nodes) -> int:
    """Headlines that link to another page (not "#section" permalinks)."""
    return sum(
        1
        for node in nodes
        for a in node.xpath(_HEADLINE_LINKS)
        if not (a.get("href") or "").strip().startswith("#")
    )


def looks_like_detail(doc, content_html: str, text: str) -> bool:
    """Is this page one article (an entry) rather than an index of them (to follow)?

    Markup that says "article" decides first. Otherwise the main content does: an index's is a
    run of linked headlines (counted in the page itself: extractors drop linked headings) or
    short or mostly link text; an article's is long prose. Linked headlines elsewhere on the
    page (related stories, sidebars) do not count."""
    if _meta(doc, "og:type").lower() == "article" or _meta(doc, "article:published_time"):
        return True
    if any(_ld_types(node) & _ARTICLE_TYPES for node in _json_ld(doc)):
        return True
    if len(text) < DETAIL_MIN_TEXT:
        return False
    if _linked_headlines(_main_nodes(doc, content_html)) >= LISTING_MIN_TEASERS:
        return False
    linked = sum(len(_text(a.text_content())) for a in _fragment(content_html).iter("a"))
    return linked / len(text) < DETAIL_MAX_LINK_DENSITY


def _same_site_url(candidate: str, base: str, site: tuple) -> str:
    if not candidate:
        return ""
    try:
        url = canonicalize_url(urljoin(base, candidate))
    except (InvalidURL, ValueError):
        return ""
    return url if site_key(url) == site else ""


def detail_entry(
    doc, html: str, content_html: str, text: str, *, page_url: str, requested: str, site: tuple
) -> ParsedEntry:
    """An article page as a pool entry. `content_html`/`text`: readability's main content,
    already computed for classification (the fallback body)."""
    ld = next((n for n in _json_ld(doc) if _ld_types(n) & _ARTICLE_TYPES), {})
    canonical = doc.xpath("//link[@rel='canonical']/@href")
    # rel=canonical / og:url only when they stay on the site: a page cannot move its item to
    # someone else's address (SPEC §4.3, no poisoning).
    url = (
        _same_site_url(canonical[0] if canonical else "", page_url, site)
        or _same_site_url(_meta(doc, "og:url"), page_url, site)
        or canonicalize_url(page_url)
    )
    title = (
        _meta(doc, "og:title")
        or _text(str(ld.get("headline") or ""))
        or _text(" ".join(doc.xpath("//title//text()")))
        or _text(" ".join(doc.xpath("//h1[1]//text()")))
    )
    body_html, lead = _article_body(html, page_url, content_html, text)
    description = _meta(doc, "description", "og:description") or lead
    author = _meta(doc, "author", "article:author")
    if author.startswith(("http://", "https://")):
        author = ""
    published = (
        parse_iso_time(_meta(doc, "article:published_time", "datePublished"))
        or parse_iso_time(str(ld.get("datePublished") or ""))
        or parse_iso_time(next(iter(doc.xpath("//time[@datetime]/@datetime")), ""))
    )
    if len(body_html) > CONTENT_MAX_CHARS:
        body_html = ""
    return ParsedEntry(
        url=url,
        entry_id=requested,
        title=title[:500],
        description=description[:DESCRIPTION_MAX_CHARS],
        content_html=body_html,
        author=author[:300],
        published_at=published,
    )


def page_links(doc, base_url: str) -> list[str]:
    base = next(iter(doc.xpath("//base/@href")), "")
    # <base href="http://[::1">: no base, as a browser would ignore it.
    with contextlib.suppress(ValueError):
        base_url = urljoin(base_url, base) if base else base_url
    links: list[str] = []
    for anchor in doc.xpath("//a[@href]"):
        href = (anchor.get("href") or "").strip()
        if not href or href.startswith(("#", "mailto:", "javascript:", "tel:", "data:")):
            continue
        try:
            absolute = urljoin(base_url, href)
        except ValueError:
            continue
        links.append(absolute)
    return links


# --- A round ----------------------------------------------------------------------------------


@dataclass
class CrawlStats:
    fetched: int = 0
    entries: int = 0
    client_errors: int = 0  # 4xx: skipped, never retried this round
    failed: int = 0  # 5xx, timeouts, refused addresses
    robots_disallowed: int = 0
    known: int = 0  # detail pages this source already has: not fetched again
    off_site: int = 0
    not_html: int = 0
    stopped: str = ""
    statuses: dict[int, int] = field(default_factory=dict)


def _known_urls(source: Source) -> set[str]:
    """Canonical URLs (fetched and canonical) of pages this source has already seen. Reads
    only; on a refresh worker thread it closes the connection it opened."""
    if source.pk is None:
        return set()
    connection = connections["default"]
    opened_here = connection.connection is None
    try:
        rows = ContentItemSource.objects.filter(source_id=source.pk).order_by("-first_seen_at")
        known: set[str] = set()
        for entry_id, item_url in rows.values_list("entry_id", "item__canonical_url")[
            :MAX_KNOWN_URLS
        ]:
            known.update(u for u in (entry_id, item_url) if u)
        return known
    finally:
        if opened_here and not connection.in_atomic_block:
            connection.close()


def _wait_for_crawl_delay(delay: float, last_start: float | None, deadline: float) -> bool:
    """Sleep out robots.txt's Crawl-delay; False when that would pass the round's deadline."""
    if not delay or last_start is None:
        return True
    wait = min(delay, MAX_CRAWL_DELAY_SECONDS) - (time.monotonic() - last_start)
    if wait <= 0:
        return True
    if time.monotonic() + wait > deadline:
        return False
    sleep(wait)
    return True


def read_site(source: Source, prefetched: fetch.FetchResult | None = None) -> Fetched:
    """The reader of `crawl` sources (ingest/refresh/readers.py): one round, no database writes."""
    fetched = Fetched()
    config = CrawlConfig.of(source)
    started = time.monotonic()
    deadline = started + ROUND_DEADLINE_SECONDS
    stats = CrawlStats()
    try:
        start_url = canonicalize_url(config.url)
    except InvalidURL as exc:
        fetched.error = _("The crawl's start address is not valid: %(reason)s") % {"reason": exc}
        return fetched

    robots = robots_for(start_url)
    if robots.unavailable:
        fetched.error = robots.unavailable
        return fetched
    if not robots.allows(start_url):
        fetched.error = _("The site's robots.txt does not allow Tidings to read %(url)s.") % {
            "url": start_url
        }
        return fetched
    try:
        start = prefetched or fetch.fetch(
            start_url, max_bytes=fetch.PAGE_MAX_BYTES, accept=HTML_ACCEPT
        )
    except fetch.FetchError as exc:
        fetched.fail(exc)
        return fetched
    fetched.result = start
    fetched.http_status = start.status
    if not _is_html(start):
        fetched.error = _("The start page is not an HTML page (%(type)s).") % {
            "type": start.content_type or _("unknown type")
        }
        return fetched
    stats.fetched = 1
    # http -> https and example.com -> www.example.com stay on the site; anything else would
    # crawl a site nobody added.
    site = site_key(start.url)
    if site != site_key(start_url):
        fetched.error = _(
            "The start page now redirects to another site (%(url)s); add that site instead."
        ) % {"url": start.url}
        return fetched
    try:
        start_doc = lxml.html.document_fromstring(decode_html(start))
    except (etree.ParserError, ValueError):
        fetched.error = _("The start page could not be read as HTML.")
        return fetched

    known = _known_urls(source)
    unfinished_key = f"crawl:unfinished-baseline:{source.pk}"
    unfinished = cache.get(unfinished_key) if source.pk else None
    refused_key = f"crawl:refused-pages:{source.pk}"
    refused_before = set(cache.get(refused_key) or ()) if source.pk else set()
    refused_now: list[str] = []
    baseline = not known or (unfinished is not None and unfinished < MAX_BASELINE_ROUNDS)
    rules = PathRules(config.include, config.exclude)
    # Pages that answered 4xx in an earlier round are not asked again for a while either.
    seen = {start_url, canonicalize_url(start.url), *refused_before}
    queue: deque[tuple[str, int]] = deque()
    entries: list[ParsedEntry] = []
    delay = robots.crawl_delay()
    last_start: float | None = time.monotonic()
    consecutive_failures = refusals = 0

    title = _text(" ".join(start_doc.xpath("//title//text()")))
    language = (start_doc.get("lang") or "")[:16]

    def enqueue_links(doc, base_url: str, depth: int) -> None:
        if depth >= config.max_depth:
            return
        for link in page_links(doc, base_url):
            try:
                url = canonicalize_url(link)
            except InvalidURL:
                continue
            if url in seen:
                continue
            seen.add(url)
            if site_key(url) != site:
                stats.off_site += 1
            elif _NOT_PAGES.search(urlsplit(url).path) or not rules.allows(url):
                continue
            elif url in known:
                stats.known += 1
            elif len(queue) < MAX_QUEUE:
                queue.append((url, depth + 1))

    enqueue_links(start_doc, start.url, 0)
    while queue:
        if stats.fetched >= config.limit:
            stats.stopped = "limit"
            break
        if time.monotonic() >= deadline:
            stats.stopped = "deadline"
            break
        url, depth = queue.popleft()
        if not robots.allows(url):
            stats.robots_disallowed += 1
            continue
        if not _wait_for_crawl_delay(delay, last_start, deadline):
            stats.stopped = "deadline"
            break
        last_start = time.monotonic()
        stats.fetched += 1
        try:
            page = fetch.fetch(url, max_bytes=fetch.PAGE_MAX_BYTES, accept=HTML_ACCEPT)
        except fetch.HostCoolingDown:
            stats.stopped = "rate_limited"
            break
        except fetch.HTTPStatusError as exc:
            stats.statuses[exc.status] = stats.statuses.get(exc.status, 0) + 1
            if exc.status == 429:
                stats.stopped = "rate_limited"
                break
            if 400 <= exc.status < 500:
                stats.client_errors += 1
                refused_now.append(url)
                # 404/410 is a dead link; 401/403 in a row means the site is shutting us out.
                refusals += exc.status in (401, 403)
            else:
                stats.failed += 1
                consecutive_failures += 1
        except fetch.FetchRefused:
            stats.failed += 1
        except fetch.FetchError:
            stats.failed += 1
            consecutive_failures += 1
        else:
            consecutive_failures = refusals = 0
            final = canonicalize_url(page.url)
            seen.add(final)
            if site_key(final) != site:
                stats.off_site += 1
                continue
            if not _is_html(page):
                stats.not_html += 1
                continue
            html = decode_html(page)
            try:
                doc = lxml.html.document_fromstring(html)
            except (etree.ParserError, ValueError):
                stats.not_html += 1
                continue
            content_html, text = main_content(html, page.url)
            if looks_like_detail(doc, content_html, text):
                if final in known:
                    stats.known += 1
                    continue
                entries.append(
                    detail_entry(
                        doc,
                        html,
                        content_html,
                        text,
                        page_url=page.url,
                        requested=url,
                        site=site,
                    )
                )
                stats.entries += 1
            else:
                enqueue_links(doc, page.url, depth)
            continue
        if consecutive_failures >= MAX_CONSECUTIVE_FAILURES:
            stats.stopped = "failures"
            break
        if refusals >= MAX_CONSECUTIVE_FAILURES:
            stats.stopped = "refused"
            break

    if refused_now:
        remembered = [*refused_before, *refused_now][-MAX_REMEMBERED_REFUSALS:]
        cache.set(refused_key, remembered, REFUSED_PAGES_SECONDS)
    if baseline and source.pk:
        # A baseline cut short (page limit, deadline) goes on next round: the pages it did not
        # reach yet are as old as the rest, not news.
        if queue:
            cache.set(unfinished_key, (unfinished or 0) + 1, BASELINE_STATE_SECONDS)
        else:
            cache.delete(unfinished_key)
    logger.info("crawl of source %s: %s", source.pk, stats)
    fetched.parsed = ParsedFeed(
        title=title[:300],
        site_url=f"{urlsplit(start.url).scheme}://{urlsplit(start.url).netloc}/",
        language=language,
        entries=entries,
        skipped=stats.client_errors + stats.failed,
        baseline=baseline,
    )
    return fetched


# --- Adding a crawl source --------------------------------------------------------------------


def _patterns(value, field_name: str, errors: dict[str, str]) -> tuple[str, ...]:
    patterns = text_list(value, field_name, errors)
    if field_name in errors:
        return ()
    if len(patterns) > MAX_PATTERNS:
        errors[field_name] = _("At most %(count)d patterns.") % {"count": MAX_PATTERNS}
    for pattern in patterns:
        if not pattern.startswith("/"):
            errors[field_name] = _(
                "Each pattern is a path that starts with “/”, e.g. /blog/ or /news/*/2026; "
                "got %(pattern)s."
            ) % {"pattern": pattern[:80]}
        elif len(pattern) > MAX_PATTERN_CHARS or any(ch.isspace() for ch in pattern):
            errors[field_name] = _(
                "Each pattern is at most %(count)d characters, without spaces."
            ) % {"count": MAX_PATTERN_CHARS}
    return tuple(sorted(patterns))


def clean_crawl_input(
    url, *, include=(), exclude=(), max_depth=DEFAULT_MAX_DEPTH, limit=DEFAULT_PAGE_LIMIT
) -> CrawlConfig:
    """Validate a crawl's settings (no network); raise SourceInputError naming every field."""
    errors: dict[str, str] = {}
    url = str(url or "").strip()
    start = ""
    if not url:
        errors["url"] = _("Enter the address of the site (the page to start from).")
    else:
        try:
            fetch.parse_target(url)
            start = canonicalize_url(url)
        except fetch.FetchError as exc:
            errors["url"] = exc.message
        except InvalidURL as exc:
            errors["url"] = _("Not a usable web address: %(reason)s") % {"reason": exc}
    include_patterns = _patterns(include, "include", errors)
    exclude_patterns = _patterns(exclude, "exclude", errors)
    depth = int_in_range(
        DEFAULT_MAX_DEPTH if max_depth in (None, "") else max_depth,
        "max_depth",
        1,
        MAX_DEPTH,
        errors,
    )
    pages = int_in_range(
        DEFAULT_PAGE_LIMIT if limit in (None, "") else limit,
        "limit",
        MIN_PAGE_LIMIT,
        MAX_PAGE_LIMIT,
        errors,
    )
    if errors:
        raise SourceInputError(errors)
    return CrawlConfig(start, include_patterns, exclude_patterns, depth, pages)


def _check_start_page(config: CrawlConfig) -> tuple[str, str]:
    """Fetch robots.txt and the start page once, so a site that cannot be crawled is refused
    now rather than failing in the background. Returns (final URL, page title)."""
    try:
        fetch.resolve_checked(fetch.parse_target(config.url))
    except fetch.FetchError as exc:
        raise SourceInputError({"url": exc.message}, code=exc.code) from None
    robots = robots_for(config.url)
    if robots.unavailable:
        raise SourceInputError({"url": robots.unavailable}, code="robots_unavailable")
    if not robots.allows(config.url):
        raise SourceInputError(
            {"url": _("The site's robots.txt does not allow Tidings to read this page.")},
            code="robots_disallowed",
        )
    try:
        result = fetch.fetch(config.url, max_bytes=fetch.PAGE_MAX_BYTES, accept=HTML_ACCEPT)
    except fetch.FetchError as exc:
        raise SourceInputError({"url": exc.message}, code=exc.code) from None
    if not _is_html(result):
        raise SourceInputError(
            {"url": _("This address does not serve an HTML page to start crawling from.")},
            code="not_html",
        )
    try:
        doc = lxml.html.document_fromstring(decode_html(result))
    except (etree.ParserError, ValueError):
        raise SourceInputError(
            {"url": _("This address does not serve an HTML page to start crawling from.")},
            code="not_html",
        ) from None
    return result.url, _text(" ".join(doc.xpath("//title//text()")))


def crawl_source_for(config: CrawlConfig) -> Source | None:
    spec = SourceSpec(type=Source.Type.CRAWL, config=config.as_json())
    return Source.objects.filter(type=spec.type, config_hash=spec.config_hash).first()


def add_site_crawl(
    user,
    url,
    *,
    include=(),
    exclude=(),
    max_depth=DEFAULT_MAX_DEPTH,
    limit=DEFAULT_PAGE_LIMIT,
    now: datetime,
) -> tuple[UserSource, bool]:
    """Add a site crawl to the user's library: validate the settings, check once that the
    start page can be read, then create (or reuse) the shared source, due at once — the next
    tick crawls it (a baseline round). Returns (library entry, created)."""
    config = clean_crawl_input(
        url, include=include, exclude=exclude, max_depth=max_depth, limit=limit
    )
    title = ""
    if crawl_source_for(config) is None:
        final_url, title = _check_start_page(config)
        if site_key(final_url) != site_key(config.url):
            raise SourceInputError(
                {
                    "url": _("This address redirects to another site (%(url)s); crawl that one.")
                    % {"url": final_url}
                },
                code="off_site_redirect",
            )
    spec = SourceSpec(
        type=Source.Type.CRAWL,
        config=config.as_json(),
        url=config.url,
        title=title or config.url,
        site_url=config.url,
        refresh_interval_minutes=CRAWL_REFRESH_MINUTES,
    )
    display_name = _("%(site)s (site crawl)") % {"site": title or urlsplit(config.url).netloc}
    (added,) = add_sources_to_library(user, [(spec, display_name)], now=now)
    return added.user_source, added.created
