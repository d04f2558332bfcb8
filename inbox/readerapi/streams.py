"""What both reading-app protocols read and mark: the user's Inbox items, by stream.

An item is one delivery (a RunItem), as in the JSON API: its id is the RunItem id, which
only grows, so "since id" and "continuation after id" need no extra column. The selections are
inbox.listing's filters, so a reading app sees what the console's Inbox shows (not-interested
items are out of sight there too).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from django.db.models import Count, Exists, F, Max, OuterRef
from django.utils.translation import gettext as _

from inbox.listing import InboxFilter, filtered_items
from inbox.models import UserContentState
from inbox.readerapi import labels

STATE = "user/-/state/com.google/"
READING_LIST = STATE + "reading-list"
STARRED = STATE + "starred"
READ = STATE + "read"
KEPT_UNREAD = STATE + "kept-unread"
FEED = "feed/"
BRIEFS_FEED = FEED + "briefs"  # the briefs' own feed (inbox/readerapi/briefs.py)
LONG_ID = "tag:google.com,2005:reader/item/"
_USER = re.compile(r"^user/[0-9]+/")
_LONG_ID = re.compile(r"[0-9a-fA-F]{1,16}")
MAX_ID = 2**63 - 1


class ProtocolError(ValueError):
    """A request the protocol refuses (400), with a message naming the parameter."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def normalize(stream_id: str) -> str:
    """Clients write the user as "-" or as their user id: treat both alike."""
    return _USER.sub("user/-/", (stream_id or "").strip())


def _read_state(user) -> Exists:
    return Exists(
        UserContentState.objects.filter(
            user=user, canonical_url_hash=OuterRef("canonical_url_hash"), read_at__isnull=False
        )
    )


def stream_items(user, stream_id: str, *, param: str = "s"):
    """The RunItems of a stream (not ordered): the reading list, starred (saved), read, or one
    subscription ("feed/<id>"). Another user's subscription is an empty stream."""
    stream_id = normalize(stream_id)
    if stream_id == READING_LIST:
        return filtered_items(user, InboxFilter())
    if stream_id == STARRED:
        return filtered_items(user, InboxFilter(show="saved"))
    if stream_id == READ:
        return filtered_items(user, InboxFilter()).filter(_read_state(user))
    if stream_id == BRIEFS_FEED:
        return filtered_items(user, InboxFilter()).none()  # briefs only, no Inbox items
    name = labels.label_name(stream_id)
    if name is not None:
        # A folder: the subscriptions reading its sources (inbox/readerapi/labels.py).
        subscriptions = labels.subscription_ids(user, name=name)
        return filtered_items(user, InboxFilter()).filter(run__subscription_id__in=subscriptions)
    if stream_id.startswith((FEED + "http://", FEED + "https://")):
        # A source added by the app (subscription/quickadd): it delivers through the
        # subscriptions that read it, not as a stream of its own.
        return filtered_items(user, InboxFilter()).none()
    number = stream_id[len(FEED) :]
    if stream_id.startswith(FEED) and number.isascii() and number.isdigit():
        subscription_id = int(number)
        if subscription_id <= MAX_ID:
            return filtered_items(user, InboxFilter(subscription_id=subscription_id))
    raise ProtocolError(
        _(
            "%(param)s: unknown stream %(stream)s; "
            "use %(reading)s, %(starred)s, %(read)s, feed/<id> or user/-/label/<folder>."
        )
        % {
            "param": param,
            "stream": repr(stream_id[:100]),
            "reading": READING_LIST,
            "starred": STARRED,
            "read": READ,
        }
    )


def exclude_stream(user, items, stream_id: str):
    """`xt`: leave out the items of a state stream (apps send xt=read for "unread only")."""
    stream_id = normalize(stream_id)
    if stream_id == READ:
        return items.exclude(_read_state(user))
    return items.exclude(pk__in=stream_items(user, stream_id, param="xt").values("pk"))


def include_stream(user, items, stream_id: str):
    """`it`: keep only the items also in this stream."""
    stream_id = normalize(stream_id)
    if stream_id == READ:
        return items.filter(_read_state(user))
    return items.filter(pk__in=stream_items(user, stream_id, param="it").values("pk"))


def unread(user, items):
    return items.exclude(_read_state(user))


def with_subscription(items):
    return items.annotate(
        subscription_id=F("run__subscription_id"), subscription_name=F("run__subscription__name")
    )


def unread_counts(user) -> list[dict]:
    """Unread items per subscription and the newest one's delivery time: one query."""
    return list(
        unread(user, filtered_items(user, InboxFilter()))
        .values("run__subscription_id")
        .annotate(count=Count("id"), newest=Max("delivered_at"))
        .order_by("run__subscription_id")
    )


def parse_int(value: str, param: str, *, minimum: int = 0, maximum: int = MAX_ID) -> int:
    value = (value or "").strip()
    if not value.isascii() or not value.isdigit() or not minimum <= int(value) <= maximum:
        raise ProtocolError(
            _("%(param)s: a whole number from %(min)s to %(max)s, not %(value)s.")
            % {"param": param, "min": minimum, "max": maximum, "value": repr(value[:40])}
        )
    return int(value)


def parse_time(value: str, param: str, *, micro: bool = False) -> datetime:
    """A Unix time in seconds (microseconds when `micro`, as mark-all-as-read's `ts`)."""
    number = parse_int(value, param, maximum=253402300799 * (10**6 if micro else 1))
    return datetime.fromtimestamp(number / 10**6 if micro else number, tz=UTC)


def item_id(value: str, param: str = "i") -> int:
    """An item id in the long form (tag:google.com,2005:reader/item/<16 hex digits>) or the
    short one (the same number in decimal)."""
    value = (value or "").strip()
    if value.startswith(LONG_ID) and _LONG_ID.fullmatch(value[len(LONG_ID) :]):
        number = int(value[len(LONG_ID) :], 16)
        if number <= MAX_ID:
            return number
    elif value.isascii() and value.isdigit() and int(value) <= MAX_ID:
        return int(value)
    raise ProtocolError(
        _("%(param)s: an item id, %(long)s<16 hex digits> or a decimal number, not %(value)s.")
        % {"param": param, "long": LONG_ID, "value": repr(value[:80])}
    )


def long_id(pk: int) -> str:
    return f"{LONG_ID}{pk:016x}"
