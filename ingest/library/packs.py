"""Curated source packs, installable in one click (SPEC §4.9; seeds 002 and 003).

A pack is plain data: a key, a name, a description and its sources. Installing one adds its
sources to the user's library exactly as an OPML import does — shared `Source` rows found or
created due now, no fetching inside the request — and installing it again adds nothing.

The "korean-news" pack follows seed 003: six RSS main sources (khan, donga, hankyung, mk,
itdonga, voa_ko) in the seed's dedup priority order, and NAVER News Search as a discovery-only
supplement: a `search` source of the `naver_news` provider (ingest/search/providers/naver.py),
refreshed `on_run` with the interests of the subscription whose run collects it, priority -1
(below every feed, so a publisher's own copy wins a duplicate cluster). Without NAVER API
credentials (NAVER_CLIENT_ID / NAVER_CLIENT_SECRET) it is installed `disabled` and says plainly
that discovery is off; `sync_naver_status()` (run by the dispatcher tick) switches existing
NAVER sources on and off as the credentials appear and go.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ingest.library.bulk_add import SourceSpec, add_sources_to_library, library_keys
from ingest.models import Source, UserSource

NAVER_PROVIDER = "naver_news"
# Stored on the source (English, like every background error) while discovery is off.
NAVER_NEEDS_CREDENTIALS = (
    "Discovery is off: this server has no NAVER Search API credentials (NAVER_CLIENT_ID and "
    "NAVER_CLIENT_SECRET of a NAVER Developers application). Disabled until they are set."
)
NAVER_DISCOVERY_ON = _(
    "Discovery only: finds articles matching each subscription's interests; their text "
    "comes from the publisher's page."
)
NAVER_DISCOVERY_OFF = _(
    "Discovery is off: this server has no NAVER Search API credentials (NAVER_CLIENT_ID and "
    "NAVER_CLIENT_SECRET). The source is added disabled and starts once they are set."
)


def naver_configured() -> bool:
    """Both NAVER Search API credentials are set (ingest/search/providers/naver.py uses them)."""
    return bool(settings.NAVER_CLIENT_ID and settings.NAVER_CLIENT_SECRET)


class PackError(Exception):
    def __init__(self, message: str, *, field: str = "key", code: str = "unknown_pack"):
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code


@dataclass(frozen=True)
class PackSource:
    key: str
    title: str
    url: str = ""  # the feed address, canonical form
    type: str = Source.Type.FEED
    query: str = ""  # search sources
    provider: str = ""  # search sources
    refresh_mode: str = Source.RefreshMode.SCHEDULED
    status: str = Source.Status.ACTIVE
    priority: int = 0
    refresh_interval_minutes: int = 60
    note: str = ""

    @property
    def config(self) -> dict:
        if self.type == Source.Type.SEARCH:
            return {"provider": self.provider, "query": self.query}
        return {"url": self.url}

    @property
    def discovery_only(self) -> bool:
        return self.type == Source.Type.SEARCH

    @property
    def is_naver(self) -> bool:
        return self.type == Source.Type.SEARCH and self.provider == NAVER_PROVIDER

    @property
    def current_status(self) -> str:
        if self.is_naver:
            return Source.Status.ACTIVE if naver_configured() else Source.Status.DISABLED
        return self.status

    @property
    def current_note(self) -> str:
        """What the pack page and API say about the source on this server, now."""
        if self.is_naver:
            return str(NAVER_DISCOVERY_ON if naver_configured() else NAVER_DISCOVERY_OFF)
        return str(self.note)

    def spec(self) -> SourceSpec:
        status = self.current_status
        disabled_note = NAVER_NEEDS_CREDENTIALS if self.is_naver else self.note
        return SourceSpec(
            type=self.type,
            config=self.config,
            url=self.url,
            title=self.title,
            refresh_mode=self.refresh_mode,
            status=status,
            priority=self.priority,
            refresh_interval_minutes=self.refresh_interval_minutes,
            last_error=disabled_note if status == Source.Status.DISABLED else "",
        )


@dataclass(frozen=True)
class Pack:
    key: str
    name: str | Promise
    description: str | Promise
    language: str
    sources: tuple[PackSource, ...] = field(default=())

    @property
    def feed_count(self) -> int:
        return sum(1 for source in self.sources if source.type == Source.Type.FEED)


def _feed(key: str, title: str, url: str, **extra) -> PackSource:
    return PackSource(key=key, title=title, url=url, **extra)


PACKS: tuple[Pack, ...] = (
    Pack(
        key="ai",
        name=_("AI"),
        description=_("Research labs and practitioners writing about machine learning and AI."),
        language="en",
        sources=(
            _feed("openai", "OpenAI News", "https://openai.com/news/rss.xml"),
            _feed("deepmind", "Google DeepMind Blog", "https://deepmind.google/blog/rss.xml"),
            _feed("google_research", "Google Research Blog", "https://research.google/blog/rss/"),
            _feed("huggingface", "Hugging Face Blog", "https://huggingface.co/blog/feed.xml"),
            _feed(
                "bair",
                "Berkeley AI Research (BAIR) Blog",
                "https://bair.berkeley.edu/blog/feed.xml",
            ),
            _feed(
                "simonwillison",
                "Simon Willison's Weblog",
                "https://simonwillison.net/atom/everything/",
            ),
            _feed("thegradient", "The Gradient", "https://thegradient.pub/rss/"),
        ),
    ),
    Pack(
        key="engineering",
        name=_("Engineering"),
        description=_("Engineering blogs of companies and people who run software at scale."),
        language="en",
        sources=(
            _feed("cloudflare", "The Cloudflare Blog", "https://blog.cloudflare.com/rss/"),
            _feed("netflix", "Netflix TechBlog", "https://netflixtechblog.com/feed"),
            _feed(
                "github", "The GitHub Blog: Engineering", "https://github.blog/engineering/feed/"
            ),
            _feed("meta", "Engineering at Meta", "https://engineering.fb.com/feed/"),
            _feed("martinfowler", "Martin Fowler", "https://martinfowler.com/feed.atom"),
            _feed("jvns", "Julia Evans", "https://jvns.ca/atom.xml"),
            _feed("dropbox", "Dropbox Tech Blog", "https://dropbox.tech/feed"),
        ),
    ),
    Pack(
        key="security",
        name=_("Security"),
        description=_("Security news, vulnerability research and official advisories."),
        language="en",
        sources=(
            _feed("krebs", "Krebs on Security", "https://krebsonsecurity.com/feed/"),
            _feed("schneier", "Schneier on Security", "https://www.schneier.com/feed/atom/"),
            _feed("bleepingcomputer", "BleepingComputer", "https://www.bleepingcomputer.com/feed/"),
            _feed(
                "thehackernews", "The Hacker News", "https://feeds.feedburner.com/TheHackersNews"
            ),
            _feed(
                "projectzero",
                "Google Project Zero",
                "https://googleprojectzero.blogspot.com/feeds/posts/default",
            ),
            _feed(
                "cisa",
                "CISA Cybersecurity Advisories",
                "https://www.cisa.gov/cybersecurity-advisories/all.xml",
            ),
            _feed("troyhunt", "Troy Hunt", "https://www.troyhunt.com/rss/"),
        ),
    ),
    Pack(
        key="korean-news",
        name=_("Korean news"),
        description=_(
            "Six Korean newspapers and broadcasters by RSS, plus NAVER News Search for "
            "discovery (needs NAVER API credentials; disabled until configured)."
        ),
        language="ko",
        sources=(
            # Seed 003 §5 asks for 10-20 minute polling; 30 minutes is our floor per feed URL
            # (SPEC §4.8). Priorities follow the seed's dedup order: khan wins ties.
            _feed(
                "khan",
                "경향신문",
                "https://www.khan.co.kr/rss/rssdata/total_news.xml",
                priority=6,
                refresh_interval_minutes=30,
            ),
            _feed(
                "donga",
                "동아일보",
                "https://rss.donga.com/total.xml",
                priority=5,
                refresh_interval_minutes=30,
            ),
            _feed(
                "hankyung",
                "한국경제",
                "https://www.hankyung.com/feed/all-news",
                priority=4,
                refresh_interval_minutes=30,
            ),
            _feed(
                "mk",
                "매일경제",
                "https://www.mk.co.kr/rss/40300001/",
                priority=3,
                refresh_interval_minutes=30,
            ),
            _feed(
                "itdonga",
                "IT동아",
                "https://it.donga.com/feeds/rss/",
                priority=2,
                refresh_interval_minutes=30,
            ),
            _feed(
                "voa_ko",
                "VOA 한국어",
                "https://www.voakorea.com/api/zoikol-vomx-tpepgjp",
                priority=1,
                refresh_interval_minutes=30,
            ),
            PackSource(
                key="naver_news_search",
                title="NAVER News Search",
                type=Source.Type.SEARCH,
                provider=NAVER_PROVIDER,
                # Asked when a run has no interests to ask (NAVER's "breaking news").
                query="속보",
                refresh_mode=Source.RefreshMode.ON_RUN,
                # Lowest of all (seed 003 §6: naver last): below feeds added by hand too.
                priority=-1,
            ),
        ),
    ),
)
PACKS_BY_KEY: dict[str, Pack] = {pack.key: pack for pack in PACKS}

# Publishers of the Korean pack by site, for items found elsewhere (a NAVER result names its
# publisher, not NAVER). The longest matching domain wins (it.donga.com before donga.com).
PUBLISHERS = {
    "khan.co.kr": "경향신문",
    "donga.com": "동아일보",
    "it.donga.com": "IT동아",
    "hankyung.com": "한국경제",
    "mk.co.kr": "매일경제",
    "voakorea.com": "VOA 한국어",
}


def publisher_name(host: str) -> str:
    """The publisher of an address's host: a Korean pack title, else the host itself."""
    host = (host or "").lower().rstrip(".")
    labels = host.split(".")
    for start in range(len(labels) - 1):
        name = PUBLISHERS.get(".".join(labels[start:]))
        if name:
            return name
    return host.removeprefix("www.")


def sync_naver_status() -> int:
    """Switch NAVER search sources on when the credentials are set and off when they are not;
    returns how many changed. Only sources disabled for want of credentials are switched on
    (one an admin disabled stays off)."""
    naver = Source.objects.filter(type=Source.Type.SEARCH, config__provider=NAVER_PROVIDER)
    if naver_configured():
        return naver.filter(
            status=Source.Status.DISABLED, last_error=NAVER_NEEDS_CREDENTIALS
        ).update(status=Source.Status.ACTIVE, last_error="", consecutive_failures=0)
    return naver.exclude(status=Source.Status.DISABLED).update(
        status=Source.Status.DISABLED, last_error=NAVER_NEEDS_CREDENTIALS
    )


@dataclass
class PackState:
    pack: Pack
    in_library: int  # how many of its sources the user already has

    @property
    def total(self) -> int:
        return len(self.pack.sources)

    @property
    def installed(self) -> bool:
        return self.in_library == self.total


@dataclass
class PackInstall:
    pack: Pack
    added: list[UserSource]
    already_in_library: list[UserSource]


def get_pack(key: str) -> Pack:
    try:
        return PACKS_BY_KEY[key]
    except (KeyError, TypeError):
        choices = ", ".join(PACKS_BY_KEY)
        raise PackError(
            _("Unknown source pack %(key)s. Choose one of %(choices)s.")
            % {"key": repr(key), "choices": choices}
        ) from None


def pack_states(user) -> list[PackState]:
    """Every pack with how much of it is in the user's library: one query."""
    have = library_keys(user)
    return [
        PackState(pack=pack, in_library=sum(1 for s in pack.sources if s.spec().key in have))
        for pack in PACKS
    ]


def install_pack(user, key: str, *, now: datetime) -> PackInstall:
    """Add every source of pack `key` to the user's library; a second install adds nothing."""
    pack = get_pack(key)
    additions = add_sources_to_library(
        user, [(source.spec(), source.title) for source in pack.sources], now=now
    )
    return PackInstall(
        pack=pack,
        added=[a.user_source for a in additions if a.created],
        already_in_library=[a.user_source for a in additions if not a.created],
    )
