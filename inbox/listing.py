"""What the Inbox shows: a user's delivered items, newest brief first, filtered, one page at a
time with a keyset cursor, plus the unread and saved counts of the nav.

State (read / saved / not interested) lives on UserContentState, keyed by (user, canonical
hash), so it follows an item across runs; the filters join it with EXISTS so one page costs the
same few queries whatever the page size or the size of the Inbox.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db.models import Case, Count, Exists, F, OuterRef, Q, Subquery, When

from config.compiled_query import PLACEHOLDER_ID, CompiledQuery, placeholder_id
from digests.models import Run, RunItem
from digests.narrative.reasons import reason_text
from inbox.models import UserContentState
from inbox.states import states_by_hash

PAGE_SIZE = 30
# A run id (at most 18 digits: below a BigAutoField's limit) and a rank.
_CURSOR = re.compile(r"([0-9]{1,18})\.([0-9]{1,5})")
SHOW_CHOICES = ("all", "unread", "saved", "not_interested")


@dataclass(frozen=True)
class InboxFilter:
    show: str = "all"
    subscription_id: int | None = None
    run_id: int | None = None
    text: str = ""
    since: date | None = None  # first local day included
    until: date | None = None  # last local day included
    # Only items delivered, or whose marks changed, at or after this moment (API sync).
    changed_since: datetime | None = None


@dataclass(frozen=True)
class Cursor:
    """Where the previous page ended: the last item's run and its rank inside that run. The
    run's scheduled time, the first sort key, is looked up again (one query): URLs stay short
    and a cursor cannot be forged to reach another user's rows."""

    run_id: int
    rank: int

    def __str__(self) -> str:
        return f"{self.run_id}.{self.rank}"

    @classmethod
    def parse(cls, value: str) -> Cursor | None:
        """The cursor written by __str__, or None (ASCII digits only, in the ids' range)."""
        found = _CURSOR.fullmatch(value or "")
        return cls(int(found[1]), int(found[2])) if found else None


@dataclass
class InboxPage:
    items: list  # RunItems with .state (inbox_page) or dicts (inbox_page_rows)
    next_cursor: Cursor | None


def _local_midnight(day: date, zone: str) -> datetime:
    return datetime.combine(day, time.min, tzinfo=ZoneInfo(zone))


# Views of what the user marked list each marked item once, at its latest delivery.
MARKED = {"saved": "saved_at", "not_interested": "not_interested_at"}


def _latest_deliveries(user, marked_field: str) -> Exists:
    """True for the RunItem that last delivered an item the user marked. Correlated on the
    unique (run, hash) key, so the database can start from the user's few marked states
    instead of testing every delivery the user ever had."""
    return Exists(
        UserContentState.objects.filter(
            user=user,
            last_run_id=OuterRef("run_id"),
            canonical_url_hash=OuterRef("canonical_url_hash"),
            **{f"{marked_field}__isnull": False},
        )
    )


def filtered_items(user, inbox_filter: InboxFilter, *, zone: str = "UTC"):
    """The user's RunItems matching the filter (not yet ordered or cut)."""
    items = RunItem.objects.filter(run__user=user)
    state = UserContentState.objects.filter(
        user=user, canonical_url_hash=OuterRef("canonical_url_hash")
    )
    show = inbox_filter.show
    if show in MARKED:
        items = items.filter(_latest_deliveries(user, MARKED[show]))
    else:
        # Not interested means "out of my sight": only its own view (and Saved, where the
        # user put it on purpose) still shows it.
        items = items.exclude(Exists(state.filter(not_interested_at__isnull=False)))
    if show == "unread":
        items = items.exclude(Exists(state.filter(read_at__isnull=False)))
    if inbox_filter.subscription_id is not None:
        items = items.filter(run__subscription_id=inbox_filter.subscription_id)
    if inbox_filter.run_id is not None:
        items = items.filter(run_id=inbox_filter.run_id)
    if inbox_filter.text:
        # Title and source, as the Inbox search promises: matching summaries too would read
        # every delivery's longest column on every search.
        text = inbox_filter.text
        items = items.filter(Q(title__icontains=text) | Q(source_name__icontains=text))
    # Dates are the user's local days: "from 3 May" starts at local midnight, not UTC's.
    if inbox_filter.since is not None:
        items = items.filter(delivered_at__gte=_local_midnight(inbox_filter.since, zone))
    if inbox_filter.until is not None:
        end = _local_midnight(inbox_filter.until + timedelta(days=1), zone)
        items = items.filter(delivered_at__lt=end)
    if inbox_filter.changed_since is not None:
        since = inbox_filter.changed_since
        marked = state.filter(updated_at__gte=since)
        items = items.filter(Q(delivered_at__gte=since) | Exists(marked))
    return items


# Whether the user read, saved or dismissed each row's item, asked in the page's own query
# (inbox_page_rows): a round trip fewer than asking for the page's marks after it. One
# subquery, cut to one row, so the database looks up the few rows of the page (three EXISTS
# were planned as hashes of every state the user has).
MARK_FIELDS = ("marks",)
_READ, _SAVED, _NOT_INTERESTED = 1, 2, 4


def _marks(user) -> dict[str, Subquery]:
    def bit(field: str, value: int) -> Case:
        return Case(When(**{f"{field}__isnull": False}, then=value), default=0)

    state = UserContentState.objects.filter(
        user=user, canonical_url_hash=OuterRef("canonical_url_hash")
    )
    bits = (
        bit("read_at", _READ) + bit("saved_at", _SAVED) + bit("not_interested_at", _NOT_INTERESTED)
    )
    return {"marks": Subquery(state.annotate(bits=bits).values("bits")[:1])}


def _asks_marks(fields) -> bool:
    return any(name in MARK_FIELDS for name in fields)


# Newest brief first (by the run's scheduled time, ties by run id), and inside a brief its own
# order (best first). The first two keys follow the run_user_recent_idx index (user,
# -scheduled_at) on both databases, so a page reads a few runs, not the whole Inbox.
ORDER = ("-run__scheduled_at", "run_id", "rank")


def _page_items(
    user, inbox_filter: InboxFilter, *, after: Cursor | None, zone: str, marks: bool = False
):
    """The page's rows in order, after the cursor; None for a cursor that names no run of
    this user. With `marks`, each row also says whether the user read, saved or dismissed the
    item (`marks`: MARK_FIELDS), in the same query."""
    items = filtered_items(user, inbox_filter, zone=zone).annotate(
        subscription_id=F("run__subscription_id"), subscription_name=F("run__subscription__name")
    )
    if marks:
        items = items.annotate(**_marks(user))
    if after is not None:
        scheduled_at = (
            Run.objects.filter(pk=after.run_id, user=user)
            .values_list("scheduled_at", flat=True)
            .first()
        )
        if scheduled_at is None:
            return None
        items = items.filter(
            Q(run__scheduled_at__lt=scheduled_at)
            | Q(run__scheduled_at=scheduled_at, run_id__gt=after.run_id)
            | Q(run__scheduled_at=scheduled_at, run_id=after.run_id, rank__gt=after.rank)
        )
    return items.order_by(*ORDER)


def _cut_page(
    user, inbox_filter: InboxFilter, *, after, zone: str, page_size: int, fields=()
) -> tuple[list, bool]:
    """The page's RunItems (or, given `fields`, dicts of them) and whether more follow; none
    after a cursor that names no run of this user."""
    first_page = _first_page_query(inbox_filter, page_size + 1, fields) if after is None else None
    if first_page is not None:
        page = first_page.all(*_first_page_values(user, inbox_filter))
        return page[:page_size], len(page) > page_size
    items = _page_items(user, inbox_filter, after=after, zone=zone, marks=_asks_marks(fields))
    if items is None:
        return [], False
    if fields:
        items = items.values(*fields)
    page = list(items[: page_size + 1])
    return page[:page_size], len(page) > page_size


# The first page of a tab, with or without a subscription or a run picked — the Inbox as a
# reader opens it, the JSON API's list as a client first reads it — is a query of a fixed shape:
# compiled once per shape (config/compiled_query.py); the ORM built and compiled it in about
# as long as the database ran it. Text, dates and cursors take the ORM's way.
_FIRST_PAGES: dict[tuple, CompiledQuery] = {}


def _first_page_query(inbox_filter: InboxFilter, rows: int, fields) -> CompiledQuery | None:
    # Only the page size everyone reads: a query is kept per shape, and an API client choosing
    # its `limit` would otherwise add one per limit.
    if rows != PAGE_SIZE + 1 or not fields:
        return None
    if inbox_filter.text or inbox_filter.since or inbox_filter.until:
        return None
    if inbox_filter.changed_since is not None:
        return None
    picked = (inbox_filter.subscription_id is not None, inbox_filter.run_id is not None)
    shape = (inbox_filter.show, picked, rows, tuple(fields))
    compiled = _FIRST_PAGES.get(shape)
    if compiled is None:
        placeholders = [placeholder_id(n) for n in range(1 + sum(picked))]
        compiled = _FIRST_PAGES[shape] = CompiledQuery(
            lambda user_id, *ids: _shaped_page(
                inbox_filter.show, picked, user_id, ids, rows, fields
            ),
            *placeholders,
        )
    return compiled


def _shaped_page(show: str, picked: tuple[bool, bool], user_id, ids, rows: int, fields):
    ids = iter(ids)
    shaped = InboxFilter(
        show=show,
        subscription_id=next(ids) if picked[0] else None,
        run_id=next(ids) if picked[1] else None,
    )
    marks = _asks_marks(fields)
    return _page_items(user_id, shaped, after=None, zone="UTC", marks=marks).values(*fields)[:rows]


def _first_page_values(user, inbox_filter: InboxFilter) -> list[int]:
    picked = (inbox_filter.subscription_id, inbox_filter.run_id)
    return [user.pk, *(value for value in picked if value is not None)]


def inbox_page(
    user,
    inbox_filter: InboxFilter,
    *,
    after: Cursor | None = None,
    zone: str = "UTC",
    page_size: int = PAGE_SIZE,
) -> InboxPage:
    """One page of the Inbox. Each item gets `.state` (its UserContentState or None) and
    `.subscription_name`; two queries whatever the page size (three after a cursor)."""
    page, has_more = _cut_page(user, inbox_filter, after=after, zone=zone, page_size=page_size)
    page = with_states(user, page)
    next_cursor = Cursor(page[-1].run_id, page[-1].rank) if has_more else None
    return InboxPage(page, next_cursor)


# The columns of a page of plain rows (the JSON API's list and the Inbox page): the
# delivery's own and its subscription's, which an API client reads as they are (`reason`
# written out in the active language first) ...
SHOWN_FIELDS = (
    "id",
    "run_id",
    "subscription_id",
    "subscription_name",
    "title",
    "url",
    "summary",
    "source_name",
    "reason",
    "overall",
)
# ... then the times, what the cursor and the marks' lookup need, what the Inbox page shows
# besides, and the reason's parts.
ROW_FIELDS = (
    *SHOWN_FIELDS,
    "published_at",
    "delivered_at",
    "rank",
    "canonical_url_hash",
    "summary_generator",
    "redelivered",
    "why",
)
NO_MARKS = (None, None, None)  # read_at, saved_at, not_interested_at of an item never marked


def inbox_page_rows(
    user,
    inbox_filter: InboxFilter,
    *,
    after: Cursor | None = None,
    zone: str = "UTC",
    page_size: int = PAGE_SIZE,
) -> InboxPage:
    """inbox_page as plain dicts of ROW_FIELDS (but `why`: `reason` is written out in the
    active language) plus `read`, `saved` and `not_interested` (booleans, from the row's
    `marks`): one query (two after a cursor), without a model instance per row and per state,
    which were most of a JSON page's server time."""
    rows, has_more = _cut_page(
        user,
        inbox_filter,
        after=after,
        zone=zone,
        page_size=page_size,
        fields=(*ROW_FIELDS, *MARK_FIELDS),
    )
    for row in rows:
        row["reason"] = reason_text(row.pop("why"), row["reason"])
        marks = row.pop("marks") or 0
        row["read"] = bool(marks & _READ)
        row["saved"] = bool(marks & _SAVED)
        row["not_interested"] = bool(marks & _NOT_INTERESTED)
    next_cursor = Cursor(rows[-1]["run_id"], rows[-1]["rank"]) if has_more else None
    return InboxPage(rows, next_cursor)


def marks_by_hash(user, hashes) -> dict[str, tuple]:
    """(read_at, saved_at, not_interested_at) of the user's marked items among `hashes`, as
    plain tuples (NO_MARKS for the others): one query, no model instance per state."""
    hashes = sorted(hashes)
    if not hashes:
        return {}
    if len(hashes) > _COMPILED_MARKS_UP_TO:  # a reading app's long sync: the ORM's way
        rows = UserContentState.objects.filter(user=user, canonical_url_hash__in=hashes)
        return {row[0]: row[1:] for row in rows.values_list(*_MARK_COLUMNS)}
    query = _MARKS.get(len(hashes))
    if query is None:  # compiled once per number of hashes
        query = _MARKS[len(hashes)] = CompiledQuery(
            lambda user_id, *hashes: UserContentState.objects.filter(
                user=user_id, canonical_url_hash__in=hashes
            ).values(*_MARK_COLUMNS),
            PLACEHOLDER_ID,
            *(f"\x00hash{n}" for n in range(len(hashes))),
        )
    return {
        row["canonical_url_hash"]: (row["read_at"], row["saved_at"], row["not_interested_at"])
        for row in query.all(user.pk, *hashes)
    }


_MARK_COLUMNS = ("canonical_url_hash", "read_at", "saved_at", "not_interested_at")
# A page of the Inbox or of its JSON list at the usual size; longer lists take the ORM's way.
_COMPILED_MARKS_UP_TO = PAGE_SIZE
_MARKS: dict[int, CompiledQuery] = {}


def with_states(user, run_items: list[RunItem]) -> list[RunItem]:
    states = states_by_hash(user, {ri.canonical_url_hash for ri in run_items})
    for run_item in run_items:
        run_item.state = states.get(run_item.canonical_url_hash)
    return run_items


@dataclass(frozen=True)
class Badges:
    unread: int
    saved: int


# What the counts count: distinct delivered items (one state row each), wherever delivered.
UNREAD = Q(delivered_count__gt=0, read_at__isnull=True, not_interested_at__isnull=True)
SAVED = Q(saved_at__isnull=False)
NOT_INTERESTED = Q(not_interested_at__isnull=False)
DELIVERED = Q(delivered_count__gt=0)


def badge_counts(user) -> Badges:
    """Distinct delivered items not read yet (and not dismissed), and saved items: one query."""
    counts = UserContentState.objects.filter(user=user).aggregate(
        unread=Count("id", filter=UNREAD), saved=Count("id", filter=SAVED)
    )
    return Badges(unread=counts["unread"] or 0, saved=counts["saved"] or 0)


@dataclass(frozen=True)
class SubscriptionCounts:
    subscription_id: int | None
    name: str
    delivered: int
    unread: int
    saved: int
    not_interested: int


@dataclass(frozen=True)
class InboxStats:
    delivered: int
    unread: int
    saved: int
    not_interested: int
    by_subscription: list[SubscriptionCounts]


def inbox_stats(user) -> InboxStats:
    """The nav's counts, and the same per subscription — each item counted under the
    subscription that delivered it last, so the parts add up to the totals. One query."""
    rows = (
        UserContentState.objects.filter(user=user)
        .values("last_run__subscription_id", "last_run__subscription__name")
        .annotate(
            delivered=Count("id", filter=DELIVERED),
            unread=Count("id", filter=UNREAD),
            saved=Count("id", filter=SAVED),
            not_interested=Count("id", filter=NOT_INTERESTED),
        )
        .order_by("last_run__subscription__name", "last_run__subscription_id")
    )
    parts = [
        SubscriptionCounts(
            subscription_id=row["last_run__subscription_id"],
            name=row["last_run__subscription__name"] or "",
            delivered=row["delivered"],
            unread=row["unread"],
            saved=row["saved"],
            not_interested=row["not_interested"],
        )
        for row in rows
    ]
    return InboxStats(
        delivered=sum(p.delivered for p in parts),
        unread=sum(p.unread for p in parts),
        saved=sum(p.saved for p in parts),
        not_interested=sum(p.not_interested for p in parts),
        by_subscription=parts,
    )
