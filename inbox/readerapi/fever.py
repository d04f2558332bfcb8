"""The Fever API at /api/fever/ (for the apps that speak only Fever: Reeder's Fever account,
Unread, FeedMe, ReadKit…).

Every request POSTs `api_key` = md5("email:app password") and names what it wants in the
query string (`?api&items&since_id=…`). Feeds are subscriptions plus "Briefs"; items are
deliveries, as in the Google Reader API, and briefs (inbox/readerapi/briefs.py). Each folder
is a group (its id + 1) holding the subscriptions that read its sources (labels.py); group 1,
"Tidings", holds the feeds in no folder and the Briefs feed. A wrong key answers `auth: 0`
(the protocol's way), a malformed parameter 400 with `error` naming it.

Every page keeps Fever's rules: `since_id` gives ids above it, ascending; `max_id` ids below
it, descending (0: from the newest, "or 0 initially" in Fever's documentation); `with_ids`
those ids. Briefs' ids are above every item's, so a client that walks `since_id` from an item
and keeps the highest id it saw would, once given a brief, skip every item that comes later:
a `since_id` below the briefs' ids walks the items only. Briefs come through `with_ids` (after
`unread_item_ids` / `saved_item_ids`, which list them) and `max_id`; a `since_id` that is a
brief's id walks the newer briefs (no item is above it).
"""

from __future__ import annotations

import math

from django.db import transaction
from django.http import JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, linebreaks
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from digests.models import Run, Subscription
from digests.narrative.reasons import reason_text
from inbox.listing import NO_MARKS, InboxFilter, filtered_items, marks_by_hash
from inbox.readerapi import auth, briefs, labels, streams
from inbox.readerapi.streams import ProtocolError
from inbox.states import BulkActionError, apply_bulk_action, apply_to_items
from inbox.tokens import authenticate_fever_key
from ingest.models import Folder

API_VERSION = 3
GROUP_ID = 1
# The Briefs feed's id: above any subscription's id, as brief item ids are above items'.
BRIEFS_FEED_ID = briefs.BASE
PAGE = 50
MARKS = {"read": "read", "unread": "unread", "saved": "save", "unsaved": "unsave"}


def _answer(body: dict, status: int = 200) -> JsonResponse:
    return JsonResponse(
        {"api_version": API_VERSION, "auth": 1, "last_refreshed_on_time": 0, **body},
        status=status,
    )


def _unix(moment) -> int:
    return int(moment.timestamp()) if moment else 0


def _ids(value: str, param: str) -> list[int]:
    parts = [p for p in (value or "").split(",") if p.strip()]
    if not parts or len(parts) > PAGE:
        raise ProtocolError(
            _("%(param)s: 1 to %(limit)s comma-separated ids.") % {"param": param, "limit": PAGE}
        )
    return [streams.parse_int(p, param) for p in parts]


def _group_id(folder_id: int) -> int:
    return folder_id + GROUP_ID  # group 1 is "Tidings"


def _groups(user) -> dict:
    """One group per folder with the subscriptions reading its sources, and "Tidings" with
    the rest and the Briefs feed: three queries whatever the number of feeds."""
    filed = labels.folders_by_subscription(user)
    members: dict[int, list[int]] = {GROUP_ID: []}
    groups = [{"id": GROUP_ID, "title": "Tidings"}]
    for folder in Folder.objects.filter(user=user):
        groups.append({"id": _group_id(folder.pk), "title": folder.name})
        members[_group_id(folder.pk)] = []
    for pk in Subscription.objects.filter(owner=user).order_by("pk").values_list("pk", flat=True):
        for folder_id, _name in filed.get(pk) or [(0, "")]:
            members[_group_id(folder_id)].append(pk)
    members[GROUP_ID].append(BRIEFS_FEED_ID)
    return {
        "groups": groups,
        "feeds_groups": [
            {"group_id": group, "feed_ids": ",".join(map(str, feed_ids))}
            for group, feed_ids in members.items()
            if feed_ids
        ],
    }


def _feed(feed_id: int, title: str, url: str) -> dict:
    return {
        "id": feed_id,
        "favicon_id": 0,
        "title": title,
        "url": url,
        "site_url": url,
        "is_spark": 0,
        "last_updated_on_time": 0,
    }


def _feeds(request, user) -> dict:
    feeds = [
        _feed(s.pk, s.name, request.build_absolute_uri(reverse("digests:detail", args=[s.pk])))
        for s in Subscription.objects.filter(owner=user).order_by("name", "id")
    ]
    inbox = request.build_absolute_uri(reverse("inbox:index"))
    return {"feeds": [*feeds, _feed(BRIEFS_FEED_ID, briefs.title(), inbox)]}


# A page's items as plain rows (as inbox.listing.inbox_page_rows serves the JSON API): a
# model instance per item and per state was most of a page's server time.
ITEM_FIELDS = (
    "id",
    "subscription_id",
    "title",
    "source_name",
    "summary",
    "why",
    "reason",
    "url",
    "canonical_url_hash",
    "delivered_at",
)


def _item(row: dict, marks: dict) -> dict:
    read_at, saved_at, _not_interested_at = marks.get(row["canonical_url_hash"], NO_MARKS)
    why = reason_text(row["why"], row["reason"])
    return {
        "id": row["id"],
        "feed_id": row["subscription_id"],
        "title": row["title"],
        "author": row["source_name"],
        "html": str(
            format_html("{}<p><em>{}</em></p>", linebreaks(row["summary"], autoescape=True), why)
        ),
        "url": row["url"],
        "is_saved": int(bool(saved_at)),
        "is_read": int(bool(read_at)),
        "created_on_time": _unix(row["delivered_at"]),
    }


def _brief(request, run) -> dict:
    link = briefs.link(request, run)
    return {
        "id": briefs.item_id(run),
        "feed_id": BRIEFS_FEED_ID,
        "title": briefs.heading(run),
        "author": "Tidings",
        "html": briefs.html(run, link),
        "url": link,
        "is_saved": int(bool(run.narrative_saved_at)),
        "is_read": int(bool(run.narrative_read_at)),
        "created_on_time": _unix(run.finished_at),
    }


def _items(request, user) -> dict:
    """50 items: after `since_id` (oldest first; items only below the briefs' ids, briefs only
    from one), before `max_id` (newest first: briefs, then items; 0 from the newest), or those
    of `with_ids`; the oldest 50 items without any."""
    query = request.GET
    # The user's runs as a subquery too (the same rows): SQLite then walks the items in id
    # order from since_id instead of sorting all the user's items on every page.
    items = filtered_items(user, InboxFilter()).filter(
        run_id__in=Run.objects.filter(user=user).values("pk")
    )
    runs = briefs.all_briefs(user).none()
    if "with_ids" in query:
        wanted = _ids(query["with_ids"], "with_ids")
        items = items.filter(pk__in=wanted).order_by("pk")
        runs = briefs.all_briefs(user).filter(pk__in=[i - briefs.BASE for i in wanted])
        runs = runs.order_by("pk")
    elif "max_id" in query:
        before = streams.parse_int(query["max_id"], "max_id")
        items, runs = items.order_by("-pk"), briefs.all_briefs(user).order_by("-pk")
        if before:  # 0: "the lowest id of locally cached items (or 0 initially)", the newest
            items = items.filter(pk__lt=before)
            runs = briefs.after(runs, before, oldest_first=False)
    elif "since_id" in query:
        since = streams.parse_int(query["since_id"], "since_id")
        if briefs.is_brief(since):
            items = items.none()
            runs = briefs.after(briefs.all_briefs(user), since, oldest_first=True)
            runs = runs.order_by("pk")
        else:
            items = items.filter(pk__gt=since).order_by("pk")
    else:
        items = items.order_by("pk")
    newest_first = "max_id" in query and "with_ids" not in query
    rows = list(runs.select_related("subscription")[:PAGE]) if newest_first else []
    item_rows = list(streams.with_subscription(items).values(*ITEM_FIELDS)[: PAGE - len(rows)])
    marks = marks_by_hash(user, {row["canonical_url_hash"] for row in item_rows})
    rows += item_rows
    if not newest_first and len(rows) < PAGE:
        rows += list(runs.select_related("subscription")[: PAGE - len(rows)])
    return {
        "total_items": filtered_items(user, InboxFilter()).count()
        + briefs.all_briefs(user).count(),
        "items": [_brief(request, r) if isinstance(r, Run) else _item(r, marks) for r in rows],
    }


def _id_list(items, runs) -> str:
    ids = list(items.order_by("pk").values_list("pk", flat=True))
    ids += [briefs.BASE + pk for pk in runs.order_by("pk").values_list("pk", flat=True)]
    return ",".join(map(str, ids))


def _mark(request, user) -> None:
    data = {**request.GET.dict(), **request.POST.dict()}
    kind, verb = data.get("mark", ""), data.get("as", "")
    target = streams.parse_int(data.get("id", ""), "id")
    now = timezone.now()
    if kind == "item":
        if verb not in MARKS:
            raise ProtocolError(_("as: read, unread, saved or unsaved."))
        try:
            if briefs.is_brief(target):
                briefs.mark(user, [target], MARKS[verb], now=now)
            else:
                apply_bulk_action(user, [target], MARKS[verb], now=now)
        except BulkActionError as exc:
            raise ProtocolError("id: " + exc.errors.get("ids", str(exc))) from None
        return
    if kind not in ("feed", "group") or verb != "read":
        raise ProtocolError(
            _("mark: item (as read, unread, saved, unsaved), feed or group (as read).")
        )
    items = streams.unread(user, filtered_items(user, InboxFilter()))
    runs = briefs.all_briefs(user)
    if kind == "feed":
        items = items.filter(run__subscription_id=target)
        if target != BRIEFS_FEED_ID:
            runs = runs.none()
    elif target == GROUP_ID:  # "Tidings": the feeds in no folder, and the briefs
        items = items.exclude(run__subscription_id__in=labels.subscription_ids(user))
    elif target != 0:  # 0 is Fever's "Kindling", every feed
        items = items.filter(
            run__subscription_id__in=labels.subscription_ids(user, folder_id=target - GROUP_ID)
        )
        runs = runs.none()
    if "before" in data:
        before = streams.parse_time(data["before"], "before")
        items = items.filter(delivered_at__lte=before)
        runs = runs.filter(finished_at__lte=before)
    with transaction.atomic():
        apply_to_items(user, items, "read", now=now)
        briefs.mark_read(runs, now=now)


@csrf_exempt
def fever(request):
    now = timezone.now()
    api_key = request.POST.get("api_key") or request.GET.get("api_key", "")
    token = authenticate_fever_key(api_key, now=now)
    if token is None:
        refusal = auth.failed(request, "", now=now) if api_key else None
        response = JsonResponse({"api_version": API_VERSION, "auth": 0}, status=200)
        if refusal is not None:
            response.status_code = 429
            response["Retry-After"] = str(refusal.retry_after)
        return response
    wait = auth.wait_before_request(request, token)
    if wait is not None:
        response = _answer({"error": _("Too many requests; try again later.")}, status=429)
        response["Retry-After"] = str(math.ceil(wait))
        return response
    user, query, body = token.user, request.GET, {}
    try:
        if "mark" in query or "mark" in request.POST:
            _mark(request, user)
        if "groups" in query:
            body.update(_groups(user))
        if "feeds" in query:
            body.update(_feeds(request, user))
            body["feeds_groups"] = _groups(user)["feeds_groups"]
        if "favicons" in query:
            body["favicons"] = []
        if "links" in query:
            body["links"] = []
        if "items" in query:
            body.update(_items(request, user))
        if "unread_item_ids" in query:
            items = streams.unread(user, filtered_items(user, InboxFilter()))
            runs = briefs.unread(briefs.all_briefs(user))
            body["unread_item_ids"] = _id_list(items, runs)
        if "saved_item_ids" in query:
            items = filtered_items(user, InboxFilter(show="saved"))
            runs = briefs.in_stream(user, streams.STARRED)
            body["saved_item_ids"] = _id_list(items, runs)
    except ProtocolError as exc:
        return _answer({"error": exc.message}, status=400)
    return _answer(body)
