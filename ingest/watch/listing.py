"""Finding the items of a listing page: the links a watched list (`list` source) follows.

With a CSS selector (beautifulsoup4's `select`) the user says which elements are the items.
Without one, a heuristic finds the repeated item links: anchors are grouped by their DOM path
(tag names, with compatible class sets at every level), links inside navigation, page headers
and footers, sidebars, widgets and pagination are ignored, and the group with the most
same-site links to detail-looking addresses and title-like text wins.

What a watch reports as new is decided elsewhere (the pool's unique (item, source) sighting):
this module only has to find the same items again on every check, whatever else on the page
moved, and never mistake paging or navigation links for items.

Pure parsing: bytes in, plain-text entries out; no network and no database.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import parse_qsl, urljoin, urlsplit

import soupsieve
from bs4 import BeautifulSoup, Tag
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _

from ingest.canonical import InvalidURL, canonicalize_url
from ingest.pool.entries import ParsedEntry
from ingest.text.scores import word_count

MAX_ITEMS = 500
MAX_ANCHORS_SCANNED = 10_000
SELECTOR_MAX_CHARS = 300
TITLE_MAX_CHARS = 500
DESCRIPTION_MAX_CHARS = 500
# Headlines run to about this many words or more; names, counters and "Read more" fewer.
TITLE_WORDS = 5
# Above this many distinct class signatures on one tag path, grouping by tag path alone is
# close enough and keeps the pairwise comparison bounded.
MAX_SIGNATURES_PER_PATH = 64

_UNRENDERED_TAGS = ["script", "style", "noscript", "template", "svg", "iframe"]
_NOISE_TAGS = {"nav", "aside", "form", "menu", "dialog", "select"}
_NOISE_ROLES = {
    "navigation",
    "banner",
    "contentinfo",
    "complementary",
    "search",
    "menu",
    "menubar",
    "tablist",
    "dialog",
}
# Whole words of a class or id ("main-navigation" -> "main", "navigation").
_NOISE_WORDS = {
    "nav",
    "navbar",
    "navigation",
    "menu",
    "breadcrumb",
    "breadcrumbs",
    "pagination",
    "pager",
    "paging",
    "paginator",
    "sidebar",
    "widget",
    "widgets",
    "share",
    "sharing",
    "social",
    "related",
    "popular",
    "trending",
    "recommended",
    "cookie",
    "cookies",
    "banner",
    "advert",
    "advertisement",
    "ads",
    "sponsored",
    "promo",
    "skip",
    "toolbar",
    "masthead",
    "tagcloud",
    "newsletter",
    "subscribe",
    "comments",
    "comment",
}
# A page's header and footer are chrome; an item's own header or footer (inside an <article>
# or <li>, as WordPress writes them) is part of the item.
_PAGE_CHROME = {"header", "footer"}
_STATE_PREFIXES = {"has", "no", "with", "without", "is", "show", "hide", "js"}
_ITEM_TAGS = {"article", "li"}
_WORD_SPLIT = re.compile(r"[-_\s]+")
_DIGIT = re.compile(r"\d")
_SPACE = re.compile(r"\s+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_PAGINATION_TEXT = re.compile(
    r"^[\s«‹<←]*(?:next|prev|previous|older|newer|more|load more|show more|see more|view more|"
    r"first|last|next page|previous page|older posts|newer posts|older entries|newer entries|"
    r"page \d+|\d{1,4}|…|\.\.\.|다음|이전|더\s?보기|次へ|前へ|下一页|上一页|下一頁|上一頁|更多)"
    r"[\s»›>→]*$",
    re.IGNORECASE,
)
_ARROWS_ONLY = re.compile(r"^[\s«‹<←»›>→|]+$")
_PAGING_PARAMS = {
    "page",
    "paged",
    "pg",
    "pageno",
    "pagenum",
    "offset",
    "start",
    "cursor",
    "after",
    "before",
    "from",
}
_VIEW_PARAMS = _PAGING_PARAMS | {
    "sort",
    "sortby",
    "order",
    "orderby",
    "dir",
    "view",
    "display",
    "per_page",
    "limit",
    "lang",
    "_",
}
_PAGE_PATH = re.compile(r"/(?:page|p)/\d+/?$", re.IGNORECASE)
_NOT_DETAIL_PATH = re.compile(
    r"/(?:tags?|categor(?:y|ies)|topics?|authors?|users?|profile|members?|login|log-in|"
    r"signin|sign-in|signup|sign-up|register|search|about|contact|privacy|terms|feed|rss|"
    r"archives?|subscribe|cart|account)(?:/|$)",
    re.IGNORECASE,
)
_GENERIC_SECOND_LEVEL = {"co", "com", "net", "org", "ac", "go", "or", "ne", "gov", "edu"}


class ListingError(Exception):
    """No items could be read. `field` names the input the user should change."""

    def __init__(self, message: str, *, field: str = "url", code: str = "no_items"):
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code


@dataclass
class Listing:
    title: str
    entries: list[ParsedEntry]


@dataclass
class _Candidate:
    anchor: Tag
    url: str
    title: str
    container: Tag | None = None


def check_selector(selector: str) -> str:
    """The selector, stripped, or a ListingError naming the `selector` field."""
    selector = (selector or "").strip()
    if not selector:
        return ""
    if len(selector) > SELECTOR_MAX_CHARS:
        raise ListingError(
            _("The selector is longer than %(limit)d characters.") % {"limit": SELECTOR_MAX_CHARS},
            field="selector",
            code="invalid_selector",
        )
    try:
        soupsieve.compile(selector)
    except (soupsieve.SelectorSyntaxError, ValueError, NotImplementedError) as exc:
        detail = str(exc).splitlines()[0]
        raise ListingError(
            _("The selector %(selector)r is not valid CSS: %(detail)s")
            % {"selector": selector, "detail": detail},
            field="selector",
            code="invalid_selector",
        ) from None
    return selector


def extract_listing(
    content: bytes | str, *, base_url: str, selector: str = "", encoding: str | None = None
) -> Listing:
    """The items of a listing page, in page order: one entry per canonical URL.

    Raises ListingError when the selector is invalid or matches no links, or when the
    heuristic finds no list of links at all."""
    selector = check_selector(selector)
    soup = BeautifulSoup(features="lxml", **_markup(content, encoding))
    for element in soup(_UNRENDERED_TAGS):
        element.decompose()
    base = _base_url(soup, base_url)
    page_title = _clean(soup.title.get_text(" ") if soup.title else "")[:300]
    if selector:
        candidates = _selected(soup, selector, base)
        if not candidates:
            raise ListingError(
                _("The selector %(selector)r matched no links on the page.")
                % {"selector": selector},
                field="selector",
                code="no_match",
            )
    else:
        candidates = _heuristic(soup, base)
        if not candidates:
            raise ListingError(
                _(
                    "No list of links was found on the page. Give a CSS selector for its items, "
                    "or watch it with the browser if it needs JavaScript."
                ),
                code="no_items",
            )
    _assign_containers(candidates)
    return Listing(title=page_title, entries=[_entry(c) for c in candidates[:MAX_ITEMS]])


# --- text and URLs -------------------------------------------------------------------------


def _clean(text: str) -> str:
    return _SPACE.sub(" ", _CONTROL.sub("", text)).strip()


def _markup(content: bytes | str, encoding: str | None) -> dict:
    """Arguments for BeautifulSoup. Bytes that are valid UTF-8 are decoded here: without a
    known encoding bs4 would run chardet over the page first, which costs more than the rest
    of the extraction. Other bytes go to bs4, which reads a <meta charset> before guessing."""
    if isinstance(content, str):
        return {"markup": content}
    if encoding is None:
        try:
            return {"markup": content.decode("utf-8")}
        except UnicodeDecodeError:
            pass
    return {"markup": content, "from_encoding": encoding}


def _base_url(soup: BeautifulSoup, page_url: str) -> str:
    base = soup.find("base", href=True)
    if base is not None:
        try:
            candidate = urljoin(page_url, base["href"].strip())
        except ValueError:
            return page_url
        if urlsplit(candidate).scheme in ("http", "https"):
            return candidate
    return page_url


def _link_url(anchor: Tag, base: str) -> str | None:
    href = (anchor.get("href") or "").strip()
    if not href or href.startswith("#"):
        return None
    try:
        absolute = urljoin(base, href)
        return canonicalize_url(absolute)
    except (InvalidURL, ValueError):
        return None


def _anchor_title(anchor: Tag) -> str:
    text = _clean(anchor.get_text(" "))
    if not text:
        image = anchor.find("img", alt=True)
        text = _clean(
            anchor.get("title") or anchor.get("aria-label") or (image["alt"] if image else "")
        )
    return text[:TITLE_MAX_CHARS]


def _site(host: str) -> str:
    """Registrable-domain stand-in without a suffix list: news.example.com and www.example.com
    are one site; example.co.uk keeps three labels."""
    labels = host.lower().rstrip(".").removeprefix("www.").split(".")
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _GENERIC_SECOND_LEVEL:
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


def _query_keys(query: str) -> dict[str, str]:
    return dict(parse_qsl(query, keep_blank_values=True))


def _is_navigation(anchor: Tag, text: str, url: str, listing_url: str) -> bool:
    """Paging, sorting and links back to the listing itself: never items, whatever the group."""
    if url == listing_url:
        return True
    rel = {value.lower() for value in anchor.get("rel") or []}
    if rel & {"next", "prev", "previous", "first", "last"}:
        return True
    if text and (_PAGINATION_TEXT.match(text) or _ARROWS_ONLY.match(text)):
        return True
    link, listing = urlsplit(url), urlsplit(listing_url)
    if _PAGE_PATH.search(link.path):
        return True
    if link.netloc == listing.netloc and link.path == listing.path:
        ours, theirs = _query_keys(link.query), _query_keys(listing.query)
        changed = {k for k in ours.keys() | theirs.keys() if ours.get(k) != theirs.get(k)}
        return changed <= _VIEW_PARAMS
    return False


def _looks_like_detail(url: str) -> bool:
    parts = urlsplit(url)
    if _NOT_DETAIL_PATH.search(parts.path):
        return False
    segments = [segment for segment in parts.path.split("/") if segment]
    params = _query_keys(parts.query)
    if any(
        key.lower() not in _VIEW_PARAMS and (value.isdigit() or len(value) >= 6)
        for key, value in params.items()
    ):
        return True  # /item?id=123, /?p=4567, /view.php?article=abc123
    if not segments:
        return False
    return len(segments) >= 2 or bool(_DIGIT.search(parts.path)) or len(segments[-1]) >= 8


# --- the heuristic ---------------------------------------------------------------------------


def _words(element: Tag) -> set[str]:
    """Whole words of an element's classes and id ("main-navigation" -> main, navigation).
    State flags such as "has-sidebar" or "no-comments" describe the page, not the element."""
    names = list(element.get("class") or [])
    if element.get("id"):
        names.append(element["id"])
    words: set[str] = set()
    for name in names:
        parts = [word for word in _WORD_SPLIT.split(name.lower()) if word]
        if parts and parts[0] not in _STATE_PREFIXES:
            words.update(parts)
    return words


def _link_counts(anchors: list[Tag]) -> dict[int, int]:
    counts: dict[int, int] = defaultdict(int)
    for anchor in anchors:
        for parent in anchor.parents:
            counts[id(parent)] += 1
    return counts


def _in_page_chrome(anchor: Tag, link_counts: dict[int, int], total_links: int) -> bool:
    """Inside navigation, a sidebar, a widget, a form, or the page's own header or footer.

    An element holding half the page's links or more is not chrome whatever its name says
    (a "content-with-sidebar" wrapper around the whole listing)."""
    ancestors = [
        parent
        for parent in anchor.parents
        if isinstance(parent, Tag) and parent.name not in ("html", "body", "[document]")
    ]
    for depth, element in enumerate(ancestors):
        if link_counts.get(id(element), 0) * 2 >= total_links:
            break
        name = element.name
        if name in _NOISE_TAGS or (element.get("role") or "").lower() in _NOISE_ROLES:
            return True
        words = _words(element)
        if words & _NOISE_WORDS:
            return True
        if name in _PAGE_CHROME or words & _PAGE_CHROME:
            inside_item = any(above.name in _ITEM_TAGS for above in ancestors[depth + 1 :])
            if not inside_item:
                return True
    return False


def _signature(anchor: Tag) -> tuple[tuple[str, ...], tuple[frozenset[str], ...]]:
    """(tag path, class sets along it) from the document root down to the anchor. Class
    tokens with digits ("post-4711") name one item, not a kind of item, and are dropped."""
    chain = [anchor, *(p for p in anchor.parents if isinstance(p, Tag) and p.name != "[document]")]
    chain.reverse()
    names = tuple(element.name for element in chain)
    classes = tuple(
        frozenset(c.lower() for c in element.get("class") or [] if not _DIGIT.search(c))
        for element in chain
    )
    return names, classes


def _compatible_level(a: frozenset[str], b: frozenset[str]) -> bool:
    # "post" and "post featured" are one kind of item; "title" and "subtext" are not.
    if a <= b or b <= a:
        return True
    return len(a & b) / len(a | b) >= 0.5


def _compatible(a: tuple[frozenset[str], ...], b: tuple[frozenset[str], ...]) -> bool:
    return all(_compatible_level(x, y) for x, y in zip(a, b, strict=True))


def _cluster(signatures: list[tuple[frozenset[str], ...]]) -> dict[int, int]:
    """Union-find over signatures of one tag path: index -> cluster representative."""
    parent = list(range(len(signatures)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    if len(signatures) > MAX_SIGNATURES_PER_PATH:
        return dict.fromkeys(range(len(signatures)), 0)
    for i in range(len(signatures)):
        for j in range(i + 1, len(signatures)):
            if root(i) != root(j) and _compatible(signatures[i], signatures[j]):
                parent[root(j)] = root(i)
    return {i: root(i) for i in range(len(signatures))}


def _group_score(candidates: list[_Candidate], listing_site: str) -> float:
    """Same-site links to detail-looking addresses count fully; off-site ones (an aggregator's
    stories) a little less; links that look like section or profile pages little. Text that
    reads like a title ("Ferries resume on the north route") beats "12 comments" or a name."""
    seen: set[str] = set()
    weight = 0.0
    words: list[int] = []
    for candidate in candidates:
        if candidate.url in seen:
            continue
        seen.add(candidate.url)
        same_site = _site(urlsplit(candidate.url).hostname or "") == listing_site
        weight += (1.0 if same_site else 0.6) * (1.0 if _looks_like_detail(candidate.url) else 0.3)
        words.append(word_count(candidate.title))
    words.sort()
    median_words = words[len(words) // 2] if words else 0
    # Squared: a group of headlines beats a bigger group of names and counters.
    return weight * max(0.04, min(1.0, median_words / TITLE_WORDS) ** 2)


def _heuristic(soup: BeautifulSoup, base: str) -> list[_Candidate]:
    try:
        listing_url = canonicalize_url(base)
    except InvalidURL:
        listing_url = base
    by_path: dict[tuple[str, ...], dict[tuple, list[_Candidate]]] = defaultdict(dict)
    anchors = soup.find_all("a", href=True, limit=MAX_ANCHORS_SCANNED)
    link_counts = _link_counts(anchors)
    for anchor in anchors:
        url = _link_url(anchor, base)
        if url is None:
            continue
        title = _anchor_title(anchor)
        if _is_navigation(anchor, title, url, listing_url):
            continue
        if _in_page_chrome(anchor, link_counts, len(anchors)):
            continue
        names, classes = _signature(anchor)
        by_path[names].setdefault(classes, []).append(_Candidate(anchor, url, title))
    groups: list[list[_Candidate]] = []
    for signatures in by_path.values():
        keys = list(signatures)
        clusters: dict[int, list[_Candidate]] = defaultdict(list)
        for index, representative in _cluster(keys).items():
            clusters[representative].extend(signatures[keys[index]])
        groups.extend(clusters.values())
    if not groups:
        return []
    listing_site = _site(urlsplit(listing_url).hostname or "")
    order = {id(element): n for n, element in enumerate(soup.find_all(True))}
    for group in groups:
        group.sort(key=lambda c: order.get(id(c.anchor), 0))
    best = max(
        groups,
        key=lambda group: (
            _group_score(group, listing_site),
            -order.get(id(group[0].anchor), 0),
        ),
    )
    return _one_per_url(best)


def _one_per_url(candidates: list[_Candidate]) -> list[_Candidate]:
    """Keep page order; for a URL linked twice (an image and a headline), the longer text."""
    chosen: dict[str, _Candidate] = {}
    for candidate in candidates:
        kept = chosen.get(candidate.url)
        if kept is None:
            chosen[candidate.url] = candidate
        elif len(candidate.title) > len(kept.title):
            chosen[candidate.url] = _Candidate(kept.anchor, kept.url, candidate.title)
    return list(chosen.values())


# --- a selector ------------------------------------------------------------------------------


def _selected(soup: BeautifulSoup, selector: str, base: str) -> list[_Candidate]:
    try:
        listing_url = canonicalize_url(base)
    except InvalidURL:
        listing_url = base
    candidates: list[_Candidate] = []
    for element in soup.select(selector, limit=MAX_ANCHORS_SCANNED):
        anchors = [element] if element.name == "a" else element.find_all("a", href=True)
        found: list[_Candidate] = []
        for anchor in anchors:
            url = _link_url(anchor, base)
            if url is None:
                continue
            title = _anchor_title(anchor)
            if _is_navigation(anchor, title, url, listing_url):
                continue
            found.append(_Candidate(anchor, url, title, None if element is anchor else element))
        if found:
            # An item's headline is its first link with text; a bare image link is not.
            candidates.append(next((c for c in found if c.title), found[0]))
    return _one_per_url(candidates)


# --- entries ---------------------------------------------------------------------------------


def _assign_containers(candidates: list[_Candidate]) -> None:
    """Each item's container is the largest element around its link that holds no other item:
    its nearby text becomes the description."""
    owners: dict[int, set[str]] = defaultdict(set)
    for candidate in candidates:
        for parent in candidate.anchor.parents:
            owners[id(parent)].add(candidate.url)
    for candidate in candidates:
        if candidate.container is not None:
            continue
        container = candidate.anchor
        for parent in candidate.anchor.parents:
            if not isinstance(parent, Tag) or parent.name in ("body", "html", "[document]"):
                break
            if owners[id(parent)] != {candidate.url}:
                break
            container = parent
        candidate.container = container


def _published_at(container: Tag) -> datetime | None:
    stamp = container.find("time", datetime=True)
    if stamp is None:
        return None
    value = stamp["datetime"].strip()
    try:
        moment = parse_datetime(value)
        if moment is None:
            day = parse_date(value)
            moment = datetime(day.year, day.month, day.day, tzinfo=UTC) if day else None
    except ValueError:
        return None
    if moment is None:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _entry(candidate: _Candidate) -> ParsedEntry:
    container = candidate.container or candidate.anchor
    text = _clean(container.get_text(" "))
    if candidate.title:
        text = _clean(text.replace(candidate.title, " ", 1))
    return ParsedEntry(
        url=candidate.url,
        entry_id=candidate.url,
        title=candidate.title,
        description=text[:DESCRIPTION_MAX_CHARS],
        content_html="",
        author="",
        published_at=_published_at(container),
    )
