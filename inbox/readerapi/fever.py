"""The Fever API at /api/fever/ (for the apps that speak only Fever: Reeder's Fever account,
Unread, FeedMe, ReadKit…).

Every request POSTs `api_key` = md5("email:app password") and names what it wants in the
query string (`?api&items&since_id=…`). Tidings has one group, "Tidings", holding every feed
(subscription); items are deliveries, as in the Google Reader API. A wrong key answers
`auth: 0` (the protocol's way), a malformed parameter 400 with `error` naming it.
"""

from __future__ import annotations

import math

from django.http import JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, linebreaks
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from digests.models import Subscription
from digests.narrative.reasons import why_selected
from inbox.listing import InboxFilter, filtered_items, with_states
from inbox.readerapi import auth, streams
from inbox.readerapi.streams import ProtocolError
from inbox.states import BulkActionError, apply_bulk_action, apply_to_items
from inbox.tokens import authenticate_fever_key

API_VERSION = 3
GROUP_ID = 1
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


def _groups(user) -> dict:
    feed_ids = ",".join(
        str(pk) for pk in Subscription.objects.filter(owner=user).values_list("pk", flat=True)
    )
    return {
        "groups": [{"id": GROUP_ID, "title": "Tidings"}],
        "feeds_groups": [{"group_id": GROUP_ID, "feed_ids": feed_ids}],
    }


def _feeds(request, user) -> dict:
    return {
        "feeds": [
            {
                "id": s.pk,
                "favicon_id": 0,
                "title": s.name,
                "url": request.build_absolute_uri(reverse("digests:detail", args=[s.pk])),
                "site_url": request.build_absolute_uri(reverse("digests:detail", args=[s.pk])),
                "is_spark": 0,
                "last_updated_on_time": 0,
            }
            for s in Subscription.objects.filter(owner=user).order_by("name", "id")
        ]
    }


def _items(request, user) -> dict:
    """50 items: after `since_id` (oldest first), before `max_id` (newest first), or those
    of `with_ids`; the oldest 50 without any."""
    query = request.GET
    items = filtered_items(user, InboxFilter())
    if "with_ids" in query:
        items = items.filter(pk__in=_ids(query["with_ids"], "with_ids")).order_by("pk")
    elif "max_id" in query:
        items = items.filter(pk__lt=streams.parse_int(query["max_id"], "max_id")).order_by("-pk")
    elif "since_id" in query:
        items = items.filter(pk__gt=streams.parse_int(query["since_id"], "since_id"))
        items = items.order_by("pk")
    else:
        items = items.order_by("pk")
    rows = with_states(user, list(streams.with_subscription(items)[:PAGE]))
    return {
        "total_items": filtered_items(user, InboxFilter()).count(),
        "items": [
            {
                "id": r.pk,
                "feed_id": r.subscription_id,
                "title": r.title,
                "author": r.source_name,
                "html": str(
                    format_html(
                        "{}<p><em>{}</em></p>",
                        linebreaks(r.summary, autoescape=True),
                        why_selected(r),
                    )
                ),
                "url": r.url,
                "is_saved": int(bool(r.state and r.state.saved_at)),
                "is_read": int(bool(r.state and r.state.read_at)),
                "created_on_time": _unix(r.delivered_at),
            }
            for r in rows
        ],
    }


def _id_list(items) -> str:
    return ",".join(str(pk) for pk in items.order_by("pk").values_list("pk", flat=True))


def _mark(request, user) -> None:
    data = {**request.GET.dict(), **request.POST.dict()}
    kind, verb = data.get("mark", ""), data.get("as", "")
    target = streams.parse_int(data.get("id", ""), "id")
    now = timezone.now()
    if kind == "item":
        if verb not in MARKS:
            raise ProtocolError(_("as: read, unread, saved or unsaved."))
        try:
            apply_bulk_action(user, [target], MARKS[verb], now=now)
        except BulkActionError as exc:
            raise ProtocolError("id: " + exc.errors.get("ids", str(exc))) from None
        return
    if kind not in ("feed", "group") or verb != "read":
        raise ProtocolError(
            _("mark: item (as read, unread, saved, unsaved), feed or group (as read).")
        )
    items = streams.unread(user, filtered_items(user, InboxFilter()))
    if kind == "feed":
        items = items.filter(run__subscription_id=target)
    elif target not in (0, GROUP_ID):  # 0 is Fever's "Kindling", every feed
        return
    if "before" in data:
        items = items.filter(delivered_at__lte=streams.parse_time(data["before"], "before"))
    apply_to_items(user, items, "read", now=now)


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
            body["unread_item_ids"] = _id_list(items)
        if "saved_item_ids" in query:
            body["saved_item_ids"] = _id_list(filtered_items(user, InboxFilter(show="saved")))
    except ProtocolError as exc:
        return _answer({"error": exc.message}, status=400)
    return _answer(body)
