"""`page` sources and the reading list (SPEC §4.6; seed 004 UC1 "snapshot").

A user saves a link "for tomorrow 08:00" (or any one-off time): the page is fetched and
extracted once, at once — so a bad address is refused while the user is still there, and the
brief can be named after the page — and its item goes into the pool with its full text. A
one-off subscription whose only source is that page then delivers it once into the Inbox at
the chosen time, after which the runner marks the subscription `completed` (it can be run again
by hand, or rescheduled).

Pieces:
- `read_page(source, prefetched)` — the reader of `page` sources (ingest/refresh/readers.py): fetch,
  extract, one ParsedEntry. Network only, no database writes.
- `refresh_page(source, fetched, now=…)` — the store half: the generic `store_refresh` (upsert,
  FetchLog) followed by the full text of the page's item. A saved page is a snapshot: it is
  never put on the refresh schedule (`next_refresh_at` stays empty).
- `save_for_later(user, url, …)` — the service behind the console form and
  `POST /api/v1/sources/pages`.

A reading-list subscription is built so that its page is always picked: no interests (every
item of its source is relevant), `min_score` 0, one item, the longest content window, and a
one-day cooldown so that saving the same page again for a later day delivers it again.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from ingest.canonical import InvalidURL, canonicalize_url, url_hash
from ingest.fetching import fetch
from ingest.library.sources import add_to_library
from ingest.models import ContentItem, ContentItemSource, Source, UserSource, config_hash
from ingest.pool.entries import DESCRIPTION_MAX_CHARS, ParsedEntry, ParsedFeed
from ingest.pool.full_text import HTML_CONTENT_TYPES, PAGE_ACCEPT, store_text
from ingest.refresh.outcome import Fetched
from ingest.refresh.pipeline import MIN_REFRESH_INTERVAL, fetch_and_parse, store_refresh
from ingest.text.extract import Extracted, ExtractionError, extract_main_content
from ingest.text.sanitize import sanitize_html

logger = logging.getLogger(__name__)

URL_MAX_CHARS = 2048
DEFAULT_TIME = time(8, 0)
# How far ahead a link may be saved: within the longest content window a subscription may have
# (90 days), with room to spare.
MAX_AHEAD = timedelta(days=30)
READING_LIST_WINDOW_HOURS = 24 * 90
READING_LIST_COOLDOWN_DAYS = 1
NAME_MAX_CHARS = 200
# Translated where it is shown (the Chinese examples are Chinese phrases parse_when accepts).
WHEN_EXAMPLES = gettext_noop(
    '"tomorrow 08:00", "today 18:30", "08:00", "in 3 hours" or "2026-12-24 08:00"'
)

# The same phrases in Chinese, rewritten to the English ones before matching: 明天 08:00,
# 今天18:30, 3小时后, 30 分钟后, 2天后 (a full-width colon too).
_ZH_WORDS = (("明天", "tomorrow "), ("今天", "today "), ("：", ":"))
_ZH_IN = re.compile(r"^(?P<count>\d{1,4})\s*(?P<unit>分钟|小时|个小时|天)\s*后$")
_ZH_UNITS = {"分钟": "minutes", "小时": "hours", "个小时": "hours", "天": "days"}

_CLOCK = r"(?P<hour>\d{1,2})(?::(?P<minute>\d{2}))?"
_WHEN_DAY = re.compile(rf"^(?P<day>today|tomorrow)(?:\s+(?:at\s+)?{_CLOCK})?$")
_WHEN_CLOCK = re.compile(rf"^(?:at\s+)?{_CLOCK}$")
_WHEN_IN = re.compile(r"^in\s+(?P<count>\d{1,4})\s*(?P<unit>minutes?|mins?|hours?|h|days?|d)$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days"}
_DATE_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class ReadingListError(Exception):
    """Refused input; `errors` maps each field to what is wrong with it."""

    def __init__(self, errors: dict[str, str], *, code: str = "invalid"):
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors
        self.code = code


@dataclass
class PageFetched(Fetched):
    """A page reader's result: the generic fields plus the extraction, for the store half."""

    extracted: Extracted | None = None


@dataclass
class SavedPage:
    subscription: object  # digests.models.Subscription
    source: Source
    user_source: UserSource
    item: ContentItem | None


# --- the reader --------------------------------------------------------------------------------


def page_config(url: str) -> dict:
    return {"url": url}


def _origin(url: str) -> str:
    match = re.match(r"^(https?://[^/?#]+)", url)
    return f"{match.group(1)}/" if match else ""


def _entry_for(extracted: Extracted, final_url: str, requested: str) -> ParsedEntry:
    try:
        url = extracted.canonical_url or canonicalize_url(final_url)
    except InvalidURL:
        url = requested
    return ParsedEntry(
        url=url,
        entry_id=requested[:2048],
        title=(extracted.title or url)[:500],
        description=extracted.lead[:DESCRIPTION_MAX_CHARS],
        content_html=sanitize_html(extracted.html, base_url=final_url),
        author="",
        # A saved page is news when it is saved: its own date (often years old) would put it
        # outside the brief's content window.
        published_at=None,
    )


def read_page(source: Source, prefetched: fetch.FetchResult | None = None) -> Fetched:
    """The reader of `page` sources: fetch the page (10 MB cap), extract its main content and
    return it as one entry (title, lead as summary, content). No database access."""
    fetched = PageFetched()
    try:
        result = prefetched or fetch.fetch(
            source.url,
            max_bytes=fetch.PAGE_MAX_BYTES,
            accept=PAGE_ACCEPT,
            etag=source.etag,
            last_modified=source.last_modified,
        )
        fetched.result = result
        fetched.http_status = result.status
        if not result.not_modified:
            if result.content_type not in HTML_CONTENT_TYPES:
                raise ExtractionError(
                    _("This address is not a web page (it serves %(type)s).")
                    % {"type": result.content_type}
                )
            extracted = extract_main_content(
                result.content, url=result.url, content_type=result.headers.get("content-type", "")
            )
            fetched.extracted = extracted
            fetched.parsed = ParsedFeed(
                # The source's title, and so its items' site name: the site, not the page.
                title=extracted.site_name,
                site_url=_origin(result.url),
                language=extracted.language,
                entries=[_entry_for(extracted, result.url, source.url)],
            )
    except fetch.ResponseTooLarge:
        fetched.error = _("The page is larger than 10 MB; Tidings does not keep pages that big.")
    except fetch.FetchError as exc:
        fetched.fail(exc)
    except ExtractionError as exc:
        fetched.error = exc.message
    return fetched


# --- the store half ----------------------------------------------------------------------------


def refresh_page(source: Source, fetched: Fetched, *, now: datetime) -> ContentItem | None:
    """Store a page reader's result: upsert the entry and log (store_refresh, as for every
    source type), then the item's full text, which the reader already extracted. Returns the
    page's item (None when the fetch failed). A page is a snapshot, never refreshed on a
    schedule."""
    outcome = store_refresh(source, fetched, now=now)
    # store_refresh schedules the next check (or a back-off retry): not for a snapshot.
    Source.objects.filter(pk=source.pk).update(next_refresh_at=None)
    source.next_refresh_at = None
    extracted = getattr(fetched, "extracted", None)
    if not outcome.ok:
        return None
    if fetched.parsed is not None and fetched.parsed.entries:
        item = ContentItem.objects.filter(
            canonical_url_hash=url_hash(fetched.parsed.entries[0].url)
        ).first()
    else:  # 304 Not Modified: the snapshot is the one already stored
        item = _current_item(source)
    if item is None:
        return None
    # Saved again after a while: this sighting is new again, so it falls inside the window of
    # the brief that delivers it.
    ContentItemSource.objects.filter(item=item, source=source).update(first_seen_at=now)
    if extracted is not None:
        try:
            store_text(item, extracted, now=now)
        except Exception:  # the item and its summary are there; the text can come later
            logger.exception("storing the text of page item %s failed", item.pk)
    _link_cluster_winner(item, source, now=now)
    return item


def _link_cluster_winner(item: ContentItem, source: Source, *, now: datetime) -> None:
    """A page whose item is a (soft or near) duplicate of another item is filtered, and runs
    skip filtered items. The reading list must still deliver it: the page source then also
    "saw" the item that represents the cluster, which has the same content."""
    item.refresh_from_db(fields=["status", "cluster_id"])
    if item.status != ContentItem.Status.FILTERED or item.cluster_id is None:
        return
    winner = (
        ContentItem.objects.filter(
            Q(pk=item.cluster_id) | Q(cluster_id=item.cluster_id), status=ContentItem.Status.ACTIVE
        )
        .exclude(pk=item.pk)
        .order_by("first_seen_at", "pk")
        .first()
    )
    if winner is not None:
        ContentItemSource.objects.update_or_create(
            item=winner, source=source, defaults={"first_seen_at": now, "baseline": False}
        )


# --- saving a link for later -------------------------------------------------------------------


def _clean_url(url: str) -> str:
    url = (url or "").strip()
    if not url:
        raise ReadingListError(
            {"url": _("Enter the address of the page to save.")}, code="required"
        )
    if len(url) > URL_MAX_CHARS:
        raise ReadingListError(
            {
                "url": _("The address is longer than %(limit)d characters.")
                % {"limit": URL_MAX_CHARS}
            },
            code="too_long",
        )
    try:
        fetch.parse_target(url)
        return canonicalize_url(url)
    except fetch.FetchError as exc:
        raise ReadingListError({"url": exc.message}, code=exc.code) from None
    except InvalidURL as exc:
        raise ReadingListError(
            {"url": _("This is not a web address: %(why)s") % {"why": exc}}
        ) from None


def user_timezone(user) -> str:
    from inbox.models import UserPreference

    zone = UserPreference.objects.filter(user=user).values_list("timezone", flat=True).first()
    return zone or "UTC"


def _wall_clock_instant(wall: datetime, zone_name: str) -> datetime:
    """The real instant of a local wall-clock time, by the scheduler's own rules: a time skipped
    by spring-forward is the first instant after the gap, a repeated one the first of the two."""
    from digests.schedules.next_run import next_run_after

    cron = f"{wall.minute} {wall.hour} {wall.day} {wall.month} *"
    start = (wall - timedelta(days=1)).replace(tzinfo=ZoneInfo(zone_name))
    return next_run_after(cron, zone_name, start)


def _clock(match: re.Match) -> time:
    hour, minute = int(match.group("hour")), int(match.group("minute") or 0)
    if hour > 23 or minute > 59:
        raise ValueError
    return time(hour, minute)


def _english_phrase(phrase: str) -> str:
    """A Chinese phrase as its English twin (one grammar below, whatever the UI language)."""
    if match := _ZH_IN.match(phrase):
        return f"in {match.group('count')} {_ZH_UNITS[match.group('unit')]}"
    for chinese, english in _ZH_WORDS:
        phrase = phrase.replace(chinese, english)
    return " ".join(phrase.split())


def parse_when(when: str, *, zone_name: str, now: datetime) -> datetime:
    """A delivery time typed by a person, in their time zone, as an aware UTC instant. Raises
    ValueError when the phrase is not understood."""
    phrase = _english_phrase(" ".join((when or "").strip().lower().split())) or "tomorrow"
    zone = ZoneInfo(zone_name)
    today = now.astimezone(zone).date()
    if match := _WHEN_DAY.match(phrase):
        day = today + timedelta(days=1 if match.group("day") == "tomorrow" else 0)
        clock = _clock(match) if match.group("hour") else DEFAULT_TIME
        return _wall_clock_instant(datetime.combine(day, clock), zone_name)
    if match := _WHEN_CLOCK.match(phrase):
        clock = _clock(match)
        instant = _wall_clock_instant(datetime.combine(today, clock), zone_name)
        if instant <= now:
            instant = _wall_clock_instant(
                datetime.combine(today + timedelta(days=1), clock), zone_name
            )
        return instant
    if match := _WHEN_IN.match(phrase):
        unit = _UNITS[match.group("unit")[0]]
        return now + timedelta(**{unit: int(match.group("count"))})
    if _DATE_ONLY.match(phrase):
        return _wall_clock_instant(
            datetime.combine(date.fromisoformat(phrase), DEFAULT_TIME), zone_name
        )
    moment = datetime.fromisoformat(phrase.upper().replace(" ", "T", 1))
    if moment.tzinfo is not None:
        return moment
    return _wall_clock_instant(moment.replace(second=0, microsecond=0), zone_name)


def _check_range(instant: datetime, field: str, now: datetime) -> datetime:
    # A well-formed time that is past or too far ahead depends on the clock, not on the
    # request's form: `invalid_time`, HTTP 422 in the API.
    if instant <= now:
        raise ReadingListError({field: _("Must be in the future.")}, code="invalid_time")
    if instant > now + MAX_AHEAD:
        raise ReadingListError(
            {field: _("Must be within the next %(days)d days.") % {"days": MAX_AHEAD.days}},
            code="invalid_time",
        )
    return instant


def delivery_time(
    *, when: str, deliver_at: datetime | str | None, zone_name: str, now: datetime
) -> datetime:
    """When to deliver: `deliver_at` (an exact instant) wins over `when` (words)."""
    if deliver_at not in (None, ""):
        if isinstance(deliver_at, str):
            try:
                deliver_at = datetime.fromisoformat(deliver_at.strip())
            except ValueError:
                raise ReadingListError(
                    {"deliver_at": _("Must be an ISO 8601 date and time with a UTC offset.")}
                ) from None
        if not isinstance(deliver_at, datetime) or deliver_at.tzinfo is None:
            raise ReadingListError(
                {"deliver_at": _("Must include a UTC offset, e.g. 2026-12-24T08:00:00+01:00.")}
            )
        return _check_range(deliver_at, "deliver_at", now)
    try:
        instant = parse_when(when, zone_name=zone_name, now=now)
    except ValueError:
        # Words the server reads (no schema can list them): HTTP 422 in the API.
        raise ReadingListError(
            {
                "when": _("Not a time Tidings understands; use %(examples)s.")
                % {"examples": _(WHEN_EXAMPLES)}
            },
            code="invalid_time",
        ) from None
    return _check_range(instant, "when", now)


def page_source_for(url: str) -> Source | None:
    return Source.objects.filter(
        type=Source.Type.PAGE, config_hash=config_hash(Source.Type.PAGE, page_config(url))
    ).first()


def _fresh_enough(source: Source, now: datetime) -> bool:
    return (
        source.last_refresh_at is not None
        and source.consecutive_failures == 0
        and now - source.last_refresh_at < MIN_REFRESH_INTERVAL
    )


def _current_item(source: Source) -> ContentItem | None:
    sighting = (
        ContentItemSource.objects.filter(source=source, item__status=ContentItem.Status.ACTIVE)
        .select_related("item")
        .order_by("-first_seen_at", "-pk")
        .first()
    )
    return sighting.item if sighting else None


def _subscription_data(*, name: str, deliver_at: datetime, zone_name: str) -> dict:
    return {
        "name": name,
        "topic": "",
        "interests": [],
        "min_score": 0,
        "max_items": 1,
        "content_window_hours": READING_LIST_WINDOW_HOURS,
        "redelivery": "cooldown",
        "cooldown_days": READING_LIST_COOLDOWN_DAYS,
        "run_at": deliver_at,
        "timezone": zone_name,
        "narrative_enabled": False,
    }


def _refuse_if_already_delivered(
    user, item: ContentItem | None, *, deliver_at: datetime, zone_name: str
) -> None:
    """A page (or the article it duplicates: its cluster's winner, which is what a run
    delivers) this reader was given less than the reading list's cooldown before `deliver_at`
    would be skipped then: the run would end empty and complete the subscription, and the
    reader would get nothing without a word. So they are told now, and nothing is written
    (nothing is charged either: no run is made)."""
    from config.moments import moment
    from inbox.models import UserContentState

    if item is None:
        return
    delivered_id = item.cluster_id if item.status == ContentItem.Status.FILTERED else item.pk
    last = (
        UserContentState.objects.filter(
            user=user, item_id=delivered_id or item.pk, delivered_count__gt=0
        )
        .values_list("last_delivered_at", flat=True)
        .first()
    )
    cooldown = timedelta(days=READING_LIST_COOLDOWN_DAYS)
    if last is None or deliver_at - last >= cooldown:
        return
    raise ReadingListError(
        {
            "url": _(
                "You were already given this page on %(when)s; it is in your Inbox. Save it "
                "for %(after)s or later to have it delivered again."
            )
            % {
                "when": moment(last, zone_name),
                "after": moment(last + cooldown, zone_name),
            }
        },
        code="already_delivered",
    )


def _brief_name(title: str, name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        name = _("Read later: %(title)s") % {"title": title}
    return name[:NAME_MAX_CHARS]


def save_for_later(
    user,
    url: str,
    *,
    now: datetime,
    deliver_at: datetime | str | None = None,
    when: str = "tomorrow 08:00",
    name: str = "",
) -> SavedPage:
    """Save `url` to `user`'s reading list, to be delivered once into their Inbox at
    `deliver_at` (an aware instant) or at `when` ("tomorrow 08:00", … in their time zone).

    Refusals raise ReadingListError naming the field (`url`, `when`, `deliver_at`, `name`) and
    change nothing. The page is fetched and extracted now, before anything is written."""
    from digests.subscriptions.service import (
        SubscriptionInputError,
        clean_input,
        create_subscription,
    )

    page_url = _clean_url(url)
    zone_name = user_timezone(user)
    instant = delivery_time(when=when, deliver_at=deliver_at, zone_name=zone_name, now=now)
    if len(" ".join((name or "").split())) > NAME_MAX_CHARS:
        raise ReadingListError(
            {"name": _("At most %(limit)d characters.") % {"limit": NAME_MAX_CHARS}}
        )
    # Checked now, before the page is fetched; the source it will have does not exist yet, so a
    # stand-in topic satisfies the "topic, interests or a source" rule.
    placeholder = _subscription_data(name=name or page_url, deliver_at=instant, zone_name=zone_name)
    try:
        clean_input({**placeholder, "topic": "reading list"}, user=user, now=now)
    except SubscriptionInputError as exc:
        raise ReadingListError(exc.errors) from None

    source = page_source_for(page_url)
    item = _current_item(source) if source is not None else None
    if source is None or item is None or not _fresh_enough(source, now):
        probe = source or Source(type=Source.Type.PAGE, url=page_url, config=page_config(page_url))
        fetched = fetch_and_parse(probe)
        if not fetched.ok:
            raise ReadingListError({"url": fetched.error}, code="fetch_failed")
        if source is None:
            source, _created = Source.objects.get_or_create(
                type=Source.Type.PAGE,
                config_hash=config_hash(Source.Type.PAGE, page_config(page_url)),
                defaults={"config": page_config(page_url), "url": page_url},
            )
        item = refresh_page(source, fetched, now=now) or _current_item(source)

    title = (item.title if item else "") or source.title or page_url
    _refuse_if_already_delivered(user, item, deliver_at=instant, zone_name=zone_name)
    data = _subscription_data(
        name=_brief_name(title, name), deliver_at=instant, zone_name=zone_name
    )
    try:
        with transaction.atomic():  # the library entry and the subscription, or neither
            user_source = add_to_library(user, source, display_name=title)
            subscription = create_subscription(user, {**data, "source_ids": [source.pk]}, now=now)
    except SubscriptionInputError as exc:  # e.g. a limit reached since the check above
        raise ReadingListError(exc.errors) from None
    return SavedPage(subscription=subscription, source=source, user_source=user_source, item=item)
