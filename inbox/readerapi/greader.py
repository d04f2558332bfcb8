"""The Google Reader–compatible API under /api/greader/ (the dialect FreshRSS and Miniflux
serve, which NetNewsWire, Reeder, ReadYou, FeedMe, Fluent Reader and others speak).

Log in with `accounts/ClientLogin` (Email + an app password); the answer's `Auth=` value is the
app password itself, which the app sends back as `Authorization: GoogleLogin auth=…`. Feeds are
the user's subscriptions (feed/<id>), items their deliveries; read and starred (= saved) are
the Inbox's own states, changed through inbox.states. Errors: 401 "Unauthorized!" (with
X-Reader-Google-Bad-Token), 400 with a plain-text message naming the parameter, 429 after too
many bad passwords — never a 500 for bad input.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from functools import wraps

from django.conf import settings
from django.db.models import Q
from django.http import HttpResponse, JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, linebreaks
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from digests.models import RunItem, Subscription
from digests.narrative.reasons import why_selected
from inbox.listing import with_states
from inbox.readerapi import auth, streams
from inbox.readerapi.streams import ProtocolError
from inbox.states import MAX_BULK_ITEMS, BulkActionError, apply_bulk_action, apply_to_items
from inbox.tokens import authenticate_app_password
from ingest.library.sources import SourceError, add_feed_by_url

DEFAULT_N = 20
MAX_N_IDS = 10_000
MAX_N_CONTENTS = 1_000
MAX_IDS_PER_REQUEST = MAX_BULK_ITEMS  # and below Django's 1,000 form fields
# edit-tag: which inbox.states action adding (a) or removing (r) a state tag means.
EDIT_ACTIONS = {
    ("a", streams.READ): "read",
    ("r", streams.READ): "unread",
    ("a", streams.KEPT_UNREAD): "unread",
    ("r", streams.KEPT_UNREAD): "read",
    ("a", streams.STARRED): "save",
    ("r", streams.STARRED): "unsave",
}


def _text(body: str, status: int = 200) -> HttpResponse:
    return HttpResponse(body, status=status, content_type="text/plain; charset=utf-8")


def _refused(refusal) -> HttpResponse:
    response = _text(_("Too many failed logins; try again later."), status=429)
    response["Retry-After"] = str(refusal.retry_after)
    return response


def _params(request, name: str) -> list[str]:
    """A parameter from the query string and the form body (apps use either)."""
    return request.GET.getlist(name) + request.POST.getlist(name)


def _param(request, name: str, default: str = "") -> str:
    values = _params(request, name)
    return values[0] if values else default


def _authenticated(view):
    """The app password from `Authorization: GoogleLogin auth=…` sets request.reader_token."""

    @csrf_exempt
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        now = timezone.now()
        scheme, _space, value = request.headers.get("Authorization", "").partition(" ")
        clear = value.strip().removeprefix("auth=") if scheme == "GoogleLogin" else ""
        token = authenticate_app_password(clear, now=now) if clear else None
        if token is None:
            refusal = auth.failed(request, "", now=now) if clear else None
            if refusal is not None:
                return _refused(refusal)
            response = _text("Unauthorized!", status=401)
            response["X-Reader-Google-Bad-Token"] = "true"
            return response
        wait = auth.wait_before_request(request, token)
        if wait is not None:
            response = _text(_("Too many requests; try again later."), status=429)
            response["Retry-After"] = str(math.ceil(wait))
            return response
        request.reader_token = token
        try:
            return view(request, token.user, *args, **kwargs)
        except ProtocolError as exc:
            return _text(exc.message, status=400)

    return wrapped


@csrf_exempt
def client_login(request):
    if request.method != "POST" and not request.GET:
        return _text(_("POST Email and Passwd."), status=405)
    email = _param(request, "Email").strip()
    password = _param(request, "Passwd").strip()
    if not email or not password:
        return _text("Error=BadAuthentication\n" + _("Email and Passwd are required."), 401)
    now = timezone.now()
    refusal = auth.before_password(request, email, now=now)
    if refusal is not None:
        return _refused(refusal)
    token = authenticate_app_password(password, now=now)
    if token is None or token.user.email.lower() != email.lower():
        return _text("Error=BadAuthentication\n", status=401)
    auth.succeeded(request, email, now=now)
    if _param(request, "output") == "json":
        return JsonResponse({"SID": password, "LSID": password, "Auth": password})
    return _text(f"SID={password}\nLSID={password}\nAuth={password}\n")


@_authenticated
def token(request, user):
    """A write token ("T") for the edit calls. Apps send it back; the Authorization header is
    what authenticates (no cookie, so no cross-site forgery to guard against)."""
    key = f"greader-t:{request.reader_token.pk}".encode()
    return _text(hmac.new(settings.SECRET_KEY.encode(), key, hashlib.sha256).hexdigest()[:57])


@_authenticated
def user_info(request, user):
    return JsonResponse(
        {
            "userId": str(user.pk),
            "userName": user.email,
            "userProfileId": str(user.pk),
            "userEmail": user.email,
        }
    )


@_authenticated
def subscription_list(request, user):
    subscriptions = Subscription.objects.filter(owner=user).order_by("name", "id")
    return JsonResponse(
        {
            "subscriptions": [
                {
                    "id": f"{streams.FEED}{s.pk}",
                    "title": s.name,
                    "categories": [],
                    "url": request.build_absolute_uri(reverse("digests:detail", args=[s.pk])),
                    "htmlUrl": request.build_absolute_uri(reverse("digests:detail", args=[s.pk])),
                    "iconUrl": "",
                }
                for s in subscriptions
            ]
        }
    )


@_authenticated
def tag_list(request, user):
    return JsonResponse({"tags": [{"id": streams.STARRED}, {"id": streams.READ}]})


def _usec(moment) -> str:
    return str(int(moment.timestamp() * 1_000_000)) if moment else "0"


@_authenticated
def unread_count(request, user):
    rows = streams.unread_counts(user)
    counts = [
        {
            "id": f"{streams.FEED}{row['run__subscription_id']}",
            "count": row["count"],
            "newestItemTimestampUsec": _usec(row["newest"]),
        }
        for row in rows
    ]
    newest = max((row["newest"] for row in rows), default=None)
    counts.append(
        {
            "id": streams.READING_LIST,
            "count": sum(row["count"] for row in rows),
            "newestItemTimestampUsec": _usec(newest),
        }
    )
    return JsonResponse({"max": MAX_N_IDS, "unreadcounts": counts})


def _selection(request, user, stream_id: str, *, max_n: int):
    """A stream's items after the filters (xt, it, ot, nt), one page of `n` from the
    continuation `c`, newest first (oldest first with r=o). Returns (items, continuation)."""
    items = streams.stream_items(user, stream_id)
    for excluded in _params(request, "xt"):
        items = streams.exclude_stream(user, items, excluded)
    for included in _params(request, "it"):
        items = streams.include_stream(user, items, included)
    if _param(request, "ot"):
        items = items.filter(delivered_at__gte=streams.parse_time(_param(request, "ot"), "ot"))
    if _param(request, "nt"):
        items = items.filter(delivered_at__lt=streams.parse_time(_param(request, "nt"), "nt"))
    n = streams.parse_int(_param(request, "n", str(DEFAULT_N)), "n", minimum=1, maximum=max_n)
    oldest_first = _param(request, "r") == "o"
    if _param(request, "r") not in ("", "o", "n", "d"):
        raise ProtocolError(_("r: o (oldest first) or n (newest first)."))
    if _param(request, "c"):
        after = streams.parse_int(_param(request, "c"), "c")
        items = items.filter(Q(pk__gt=after) if oldest_first else Q(pk__lt=after))
    return items.order_by("pk" if oldest_first else "-pk"), n


def _page(items, n: int) -> tuple[list, str | None]:
    rows = list(items[: n + 1])
    more = len(rows) > n
    rows = rows[:n]
    return rows, (str(rows[-1].pk) if more else None)


@_authenticated
def stream_item_ids(request, user):
    stream_id = _param(request, "s")
    items, n = _selection(request, user, stream_id, max_n=MAX_N_IDS)
    rows = list(items.values_list("pk", "delivered_at")[: n + 1])
    more = len(rows) > n
    rows = rows[:n]
    body = {
        "itemRefs": [
            {"id": str(pk), "directStreamIds": [], "timestampUsec": _usec(at)} for pk, at in rows
        ]
    }
    if more:
        body["continuation"] = str(rows[-1][0])
    return JsonResponse(body)


def _item(request, run_item) -> dict:
    state = run_item.state
    categories = [streams.READING_LIST, f"{streams.FEED}{run_item.subscription_id}"]
    if state and state.read_at:
        categories.append(streams.READ)
    if state and state.saved_at:
        categories.append(streams.STARRED)
    published = run_item.published_at or run_item.delivered_at
    content = format_html(
        "{}<p><em>{}</em></p>",
        linebreaks(run_item.summary, autoescape=True),
        why_selected(run_item),
    )
    return {
        "id": streams.long_id(run_item.pk),
        "crawlTimeMsec": str(int(run_item.delivered_at.timestamp() * 1000)),
        "timestampUsec": _usec(run_item.delivered_at),
        "published": int(published.timestamp()),
        "updated": int(run_item.delivered_at.timestamp()),
        "title": run_item.title,
        "canonical": [{"href": run_item.url}],
        "alternate": [{"href": run_item.url, "type": "text/html"}],
        "categories": categories,
        "origin": {
            "streamId": f"{streams.FEED}{run_item.subscription_id}",
            "title": run_item.subscription_name,
            "htmlUrl": request.build_absolute_uri(
                reverse("digests:detail", args=[run_item.subscription_id])
            ),
        },
        "summary": {"direction": "ltr", "content": str(content)},
        "author": run_item.source_name,
    }


def _contents(request, stream_id: str, run_items: list, continuation: str | None):
    body = {
        "id": stream_id,
        "updated": int(timezone.now().timestamp()),
        "items": [_item(request, r) for r in with_states(request.reader_token.user, run_items)],
    }
    if continuation:
        body["continuation"] = continuation
    return JsonResponse(body)


@_authenticated
def stream_contents(request, user, stream_id: str = ""):
    stream_id = stream_id or _param(request, "s")
    items, n = _selection(request, user, stream_id, max_n=MAX_N_CONTENTS)
    run_items, continuation = _page(streams.with_subscription(items), n)
    return _contents(request, streams.normalize(stream_id), run_items, continuation)


def _item_ids(request) -> list[int]:
    values = _params(request, "i")
    if not values:
        raise ProtocolError(_("i: give at least one item id."))
    if len(values) > MAX_IDS_PER_REQUEST:
        raise ProtocolError(
            _("i: at most %(limit)s item ids per request.") % {"limit": MAX_IDS_PER_REQUEST}
        )
    return list(dict.fromkeys(streams.item_id(v) for v in values))


@_authenticated
def stream_items_contents(request, user):
    """The items asked for (i=…, repeated), in that order; ids that are not the user's are
    left out, as a Reader server does for items it does not have."""
    wanted = _item_ids(request)
    found = {
        r.pk: r
        for r in streams.with_subscription(RunItem.objects.filter(run__user=user, pk__in=wanted))
    }
    return _contents(request, streams.READING_LIST, [found[i] for i in wanted if i in found], None)


@_authenticated
def edit_tag(request, user):
    if request.method != "POST":
        return _text(_("POST i with a (tag to add) and/or r (tag to remove)."), status=405)
    ids = _item_ids(request)
    actions = []
    for verb in ("a", "r"):
        for tag in _params(request, verb):
            action = EDIT_ACTIONS.get((verb, streams.normalize(tag)))
            if action is None:
                raise ProtocolError(
                    _("%(param)s: Tidings keeps only read, kept-unread and starred, not %(tag)s.")
                    % {"param": verb, "tag": repr(tag[:100])}
                )
            actions.append(action)
    if not actions:
        raise ProtocolError(_("a or r: give a tag to add or remove."))
    try:
        for action in actions:
            apply_bulk_action(user, ids, action, now=timezone.now())
    except BulkActionError as exc:
        raise ProtocolError("i: " + exc.errors.get("ids", str(exc))) from None
    return _text("OK")


@_authenticated
def mark_all_as_read(request, user):
    """Everything unread in the stream, delivered at or before `ts` (microseconds) if given."""
    if request.method != "POST":
        return _text(_("POST s (the stream) and optionally ts."), status=405)
    items = streams.unread(user, streams.stream_items(user, _param(request, "s")))
    if _param(request, "ts"):
        items = items.filter(
            delivered_at__lte=streams.parse_time(_param(request, "ts"), "ts", micro=True)
        )
    apply_to_items(user, items, "read", now=timezone.now())
    return _text("OK")


def _add_source(request, user, url: str, param: str) -> JsonResponse:
    """A feed URL from the app joins the user's source library through the console's own
    service (fetched and checked by the safe client). Its items reach the app through the
    subscriptions that read it, so its stream (feed/<url>) is empty on its own."""
    url = url.strip().removeprefix(streams.FEED)
    if not url:
        raise ProtocolError(_("%(param)s: give the feed's URL.") % {"param": param})
    try:
        added = add_feed_by_url(user, url, now=timezone.now())
    except SourceError as exc:
        raise ProtocolError(f"{param}: {exc.message}") from None
    return JsonResponse(
        {
            "query": url,
            "numResults": 1,
            "streamId": f"{streams.FEED}{url}",
            "streamName": str(added.user_source.display_name),
        }
    )


@_authenticated
def subscription_quickadd(request, user):
    if request.method != "POST":
        return _text(_("POST quickadd (a feed URL)."), status=405)
    return _add_source(request, user, _param(request, "quickadd"), "quickadd")


@_authenticated
def subscription_edit(request, user):
    """ac=subscribe adds a source as quickadd does; renaming, moving and unsubscribing are
    Tidings subscriptions' business, done in Tidings itself."""
    if request.method != "POST":
        return _text(_("POST ac and s."), status=405)
    if _param(request, "ac") == "subscribe":
        return _add_source(request, user, _param(request, "s"), "s")
    raise ProtocolError(
        _("ac: only subscribe; rename or remove subscriptions on Tidings' Subscriptions page.")
    )
