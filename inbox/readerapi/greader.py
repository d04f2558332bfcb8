"""The Google Reader–compatible API under /api/greader/ (the dialect FreshRSS and Miniflux
serve, which NetNewsWire, Reeder, ReadYou, FeedMe, Fluent Reader and others speak).

Log in with `accounts/ClientLogin` (Email + an app password); the answer's `Auth=` value is the
app password itself, which the app sends back as `Authorization: GoogleLogin auth=…`. Feeds are
the user's subscriptions (feed/<id>), items their deliveries; read and starred (= saved) are
the Inbox's own states, changed through inbox.states. The folders of the user's sources are
labels (labels.py), and each brief's narrative is an item of the feed "Briefs" (briefs.py).
Errors: 401 "Unauthorized!" (with X-Reader-Google-Bad-Token), 400 with a plain-text message
naming the parameter, 429 after too many bad passwords — never a 500 for bad input.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from dataclasses import dataclass
from functools import wraps

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Max, Q, QuerySet
from django.http import HttpResponse, JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, linebreaks
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from digests.models import RunItem, Subscription
from digests.narrative.reasons import reason_text
from inbox.listing import NO_MARKS, marks_by_hash
from inbox.readerapi import auth, briefs, labels, streams
from inbox.readerapi.streams import ProtocolError
from inbox.states import MAX_BULK_ITEMS, BulkActionError, apply_bulk_action, apply_to_items
from inbox.tokens import authenticate_app_password
from ingest.library.folders import (
    FolderError,
    delete_folder,
    folder_named,
    move_source,
    rename_folder,
)
from ingest.library.sources import SourceError, add_feed_by_url
from ingest.models import Folder, UserSource

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


def _feed(feed_id: str, title: str, url: str, categories: list[dict]) -> dict:
    return {
        "id": feed_id,
        "title": title,
        "categories": categories,
        "url": url,
        "htmlUrl": url,
        "iconUrl": "",
    }


def _category(name: str) -> dict:
    return {"id": labels.label_id(name), "label": name}


@_authenticated
def subscription_list(request, user):
    """The subscriptions, each in the folders of its sources, then the Briefs feed."""
    folders = labels.folders_by_subscription(user)
    subscriptions = Subscription.objects.filter(owner=user).order_by("name", "id")
    feeds = [
        _feed(
            f"{streams.FEED}{s.pk}",
            s.name,
            request.build_absolute_uri(reverse("digests:detail", args=[s.pk])),
            [_category(name) for _id, name in folders.get(s.pk, [])],
        )
        for s in subscriptions
    ]
    inbox = request.build_absolute_uri(reverse("inbox:index"))
    feeds.append(_feed(briefs.FEED, briefs.title(), inbox, []))
    return JsonResponse({"subscriptions": feeds})


@_authenticated
def tag_list(request, user):
    folders = Folder.objects.filter(user=user).values_list("name", flat=True)
    tags = [{"id": streams.STARRED}, {"id": streams.READ}]
    tags += [{"id": labels.label_id(name), "type": "folder"} for name in folders]
    return JsonResponse({"tags": tags})


def _usec(moment) -> str:
    return str(int(moment.timestamp() * 1_000_000)) if moment else "0"


@_authenticated
def unread_count(request, user):
    """Unread items per subscription, unread briefs, and their sum: two queries."""
    rows = [
        {**row, "id": f"{streams.FEED}{row['run__subscription_id']}"}
        for row in streams.unread_counts(user)
    ]
    unread_briefs = briefs.unread(briefs.all_briefs(user))
    rows.append(
        {"id": briefs.FEED, **unread_briefs.aggregate(count=Count("id"), newest=Max("finished_at"))}
    )
    counts = [
        {"id": row["id"], "count": row["count"], "newestItemTimestampUsec": _usec(row["newest"])}
        for row in rows
        if row["count"]
    ]
    newest = max((row["newest"] for row in rows if row["newest"]), default=None)
    counts.append(
        {
            "id": streams.READING_LIST,
            "count": sum(row["count"] for row in rows),
            "newestItemTimestampUsec": _usec(newest),
        }
    )
    return JsonResponse({"max": MAX_N_IDS, "unreadcounts": counts})


@dataclass
class _Selection:
    """A stream's Inbox items and briefs after the filters, in the walk's order, from the
    continuation on. Newest first, the briefs (the higher ids) come before the items."""

    items: QuerySet
    briefs: QuerySet
    n: int
    oldest_first: bool

    def page(self, item_rows, brief_rows) -> tuple[list, str | None]:
        """`n` rows and the continuation: `item_rows(qs, k)` and `brief_rows(qs, k)` give up to
        k (id, row) pairs. Both are always asked (for one row at least), so a page costs the
        same two queries wherever it falls."""
        parts = [(self.items, item_rows), (self.briefs, brief_rows)]
        if not self.oldest_first:
            parts.reverse()
        rows: list = []
        for queryset, fetch in parts:
            rows += fetch(queryset, max(1, self.n + 1 - len(rows)))
        more = len(rows) > self.n
        rows = rows[: self.n]
        return rows, (str(rows[-1][0]) if more else None)


def _selection(request, user, stream_id: str, *, max_n: int) -> _Selection:
    """A stream's items and briefs after the filters (xt, it, ot, nt), `n` of them from the
    continuation `c`, newest first (oldest first with r=o)."""
    items = streams.stream_items(user, stream_id)
    runs = briefs.in_stream(user, stream_id)
    for excluded in _params(request, "xt"):
        items = streams.exclude_stream(user, items, excluded)
        runs = briefs.exclude_stream(user, runs, excluded)
    for included in _params(request, "it"):
        items = streams.include_stream(user, items, included)
        runs = briefs.include_stream(user, runs, included)
    if _param(request, "ot"):
        since = streams.parse_time(_param(request, "ot"), "ot")
        items = items.filter(delivered_at__gte=since)
        runs = briefs.delivered_between(runs, since=since)
    if _param(request, "nt"):
        before = streams.parse_time(_param(request, "nt"), "nt")
        items = items.filter(delivered_at__lt=before)
        runs = briefs.delivered_between(runs, before=before)
    n = streams.parse_int(_param(request, "n", str(DEFAULT_N)), "n", minimum=1, maximum=max_n)
    oldest_first = _param(request, "r") == "o"
    if _param(request, "r") not in ("", "o", "n", "d"):
        raise ProtocolError(_("r: o (oldest first) or n (newest first)."))
    if _param(request, "c"):
        after = streams.parse_int(_param(request, "c"), "c")
        items = items.filter(Q(pk__gt=after) if oldest_first else Q(pk__lt=after))
        runs = briefs.after(runs, after, oldest_first=oldest_first)
    order = "pk" if oldest_first else "-pk"
    return _Selection(items.order_by(order), runs.order_by(order), n, oldest_first)


@_authenticated
def stream_item_ids(request, user):
    selection = _selection(request, user, _param(request, "s"), max_n=MAX_N_IDS)
    rows, continuation = selection.page(
        lambda items, k: [(pk, at) for pk, at in items.values_list("pk", "delivered_at")[:k]],
        lambda runs, k: [
            (briefs.BASE + pk, at) for pk, at in runs.values_list("pk", "finished_at")[:k]
        ],
    )
    body = {
        "itemRefs": [
            {"id": str(pk), "directStreamIds": [], "timestampUsec": _usec(at)} for pk, at in rows
        ]
    }
    if continuation:
        body["continuation"] = continuation
    return JsonResponse(body)


# A page's items as plain rows and their marks as tuples (as inbox.listing.inbox_page_rows
# serves the JSON API): a model instance per item and per state was most of a page's time.
ITEM_FIELDS = (
    "id",
    "subscription_id",
    "subscription_name",
    "title",
    "source_name",
    "summary",
    "why",
    "reason",
    "url",
    "canonical_url_hash",
    "published_at",
    "delivered_at",
)


def _item(row: dict, marks: dict, folders: dict, feed_urls: dict) -> dict:
    read_at, saved_at, _not_interested_at = marks.get(row["canonical_url_hash"], NO_MARKS)
    subscription_id = row["subscription_id"]
    feed = f"{streams.FEED}{subscription_id}"
    categories = [streams.READING_LIST, feed]
    categories += [labels.label_id(name) for _id, name in folders.get(subscription_id, [])]
    if read_at:
        categories.append(streams.READ)
    if saved_at:
        categories.append(streams.STARRED)
    delivered_at = row["delivered_at"]
    published = row["published_at"] or delivered_at
    content = format_html(
        "{}<p><em>{}</em></p>",
        linebreaks(row["summary"], autoescape=True),
        reason_text(row["why"], row["reason"]),
    )
    return {
        "id": streams.long_id(row["id"]),
        "crawlTimeMsec": str(int(delivered_at.timestamp() * 1000)),
        "timestampUsec": _usec(delivered_at),
        "published": int(published.timestamp()),
        "updated": int(delivered_at.timestamp()),
        "title": row["title"],
        "canonical": [{"href": row["url"]}],
        "alternate": [{"href": row["url"], "type": "text/html"}],
        "categories": categories,
        "origin": {
            "streamId": feed,
            "title": row["subscription_name"],
            "htmlUrl": feed_urls[subscription_id],
        },
        "summary": {"direction": "ltr", "content": str(content)},
        "author": row["source_name"],
    }


def _brief(request, run) -> dict:
    """A brief as one item: its narrative as the content, the run's page as the link."""
    link = briefs.link(request, run)
    categories = [streams.READING_LIST, briefs.FEED]
    if run.narrative_read_at:
        categories.append(streams.READ)
    if run.narrative_saved_at:
        categories.append(streams.STARRED)
    return {
        "id": streams.long_id(briefs.item_id(run)),
        "crawlTimeMsec": str(int(run.finished_at.timestamp() * 1000)),
        "timestampUsec": _usec(run.finished_at),
        "published": int(run.finished_at.timestamp()),
        "updated": int(run.finished_at.timestamp()),
        "title": briefs.heading(run),
        "canonical": [{"href": link}],
        "alternate": [{"href": link, "type": "text/html"}],
        "categories": categories,
        "origin": {
            "streamId": briefs.FEED,
            "title": briefs.title(),
            "htmlUrl": request.build_absolute_uri(reverse("inbox:index")),
        },
        "summary": {"direction": "ltr", "content": briefs.html(run, link)},
        "author": "Tidings",
    }


def _contents(request, stream_id: str, rows: list, continuation: str | None):
    """Items and briefs (mixed, in order) as Reader items: a page's states and folders are
    read once each, whatever its length."""
    user = request.reader_token.user
    item_rows = [row for row in rows if isinstance(row, dict)]
    marks = marks_by_hash(user, {row["canonical_url_hash"] for row in item_rows})
    folders = labels.folders_by_subscription(user)
    # Each feed's page once, not once per item.
    feed_urls = {
        pk: request.build_absolute_uri(reverse("digests:detail", args=[pk]))
        for pk in {row["subscription_id"] for row in item_rows}
    }
    body = {
        "id": stream_id,
        "updated": int(timezone.now().timestamp()),
        "items": [
            _item(row, marks, folders, feed_urls) if isinstance(row, dict) else _brief(request, row)
            for row in rows
        ],
    }
    if continuation:
        body["continuation"] = continuation
    return JsonResponse(body)


@_authenticated
def stream_contents(request, user, stream_id: str = ""):
    stream_id = stream_id or _param(request, "s")
    selection = _selection(request, user, stream_id, max_n=MAX_N_CONTENTS)
    rows, continuation = selection.page(
        lambda items, k: [
            (r["id"], r) for r in streams.with_subscription(items).values(*ITEM_FIELDS)[:k]
        ],
        lambda runs, k: [(briefs.item_id(r), r) for r in runs.select_related("subscription")[:k]],
    )
    return _contents(
        request, streams.normalize(stream_id), [row for _id, row in rows], continuation
    )


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
        r["id"]: r
        for r in streams.with_subscription(
            RunItem.objects.filter(run__user=user, pk__in=wanted)
        ).values(*ITEM_FIELDS)
    }
    # Always asked, so a request costs the same queries whatever mix of ids it names.
    runs = briefs.all_briefs(user).filter(pk__in=[i - briefs.BASE for i in wanted])
    found.update({briefs.item_id(run): run for run in runs.select_related("subscription")})
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
    brief_ids = [i for i in ids if briefs.is_brief(i)]
    item_ids = [i for i in ids if not briefs.is_brief(i)]
    now = timezone.now()
    try:
        with transaction.atomic():
            for action in actions:
                if item_ids:
                    apply_bulk_action(user, item_ids, action, now=now)
                if brief_ids:
                    briefs.mark(user, brief_ids, action, now=now)
    except BulkActionError as exc:
        raise ProtocolError("i: " + exc.errors.get("ids", str(exc))) from None
    return _text("OK")


@_authenticated
def mark_all_as_read(request, user):
    """Everything unread in the stream, delivered at or before `ts` (microseconds) if given."""
    if request.method != "POST":
        return _text(_("POST s (the stream) and optionally ts."), status=405)
    stream_id = _param(request, "s")
    items = streams.unread(user, streams.stream_items(user, stream_id))
    runs = briefs.in_stream(user, stream_id)
    if _param(request, "ts"):
        until = streams.parse_time(_param(request, "ts"), "ts", micro=True)
        items = items.filter(delivered_at__lte=until)
        runs = runs.filter(finished_at__lte=until)
    now = timezone.now()
    with transaction.atomic():
        apply_to_items(user, items, "read", now=now)
        briefs.mark_read(runs, now=now)
    return _text("OK")


def _label(request, value: str, param: str) -> str:
    """The folder name of a label a= or r= names (user/-/label/NAME, or user/<id>/…)."""
    name = labels.label_name(streams.normalize(value))
    if name is None:
        raise ProtocolError(
            _("%(param)s: a folder, %(label)s<name>, not %(value)s.")
            % {"param": param, "label": labels.LABEL, "value": repr(value[:100])}
        )
    return name


def _file(user, entry, request, *, now) -> None:
    """Apply the request's a= (into that folder, made if new) and r= (out of it) labels to a
    library entry. A source is in one folder at most: the last a= wins."""
    for value in _params(request, "r"):
        name = _label(request, value, "r")
        if entry.folder_id and entry.folder.name == name:
            entry = move_source(user, entry.pk, None)
    for value in _params(request, "a"):
        folder = folder_named(user, _label(request, value, "a"), now=now, field="a")
        entry = move_source(user, entry.pk, folder.pk)


def _source_stream(entry) -> str:
    return f"{streams.FEED}{entry.source.url}"


def _add_source(request, user, url: str, param: str) -> JsonResponse:
    """A feed URL from the app joins the user's source library through the console's own
    service (fetched and checked by the safe client), in the folder a= names if any. Its
    items reach the app through the subscriptions that read it, so its stream (feed/<url>)
    is empty on its own."""
    url = url.strip().removeprefix(streams.FEED)
    if not url:
        raise ProtocolError(_("%(param)s: give the feed's URL.") % {"param": param})
    for value in _params(request, "a"):
        _label(request, value, "a")  # refused before anything is fetched or added
    now = timezone.now()
    try:
        added = add_feed_by_url(user, url, now=now, display_name=_param(request, "t")[:300])
        _file(user, added.user_source, request, now=now)
    except SourceError as exc:
        raise ProtocolError(f"{param}: {exc.message}") from None
    except FolderError as exc:
        raise ProtocolError(f"{exc.field}: {exc.message}") from None
    return JsonResponse(
        {
            "query": url,
            "numResults": 1,
            "streamId": _source_stream(added.user_source),
            "streamName": str(added.user_source.display_name),
        }
    )


@_authenticated
def subscription_quickadd(request, user):
    if request.method != "POST":
        return _text(_("POST quickadd (a feed URL)."), status=405)
    return _add_source(request, user, _param(request, "quickadd"), "quickadd")


def _library_entry(user, stream_id: str):
    """The library entry a feed/<url> stream names (None when it names a subscription)."""
    url = streams.normalize(stream_id).removeprefix(streams.FEED)
    if not url.startswith(("http://", "https://")):
        return None
    entry = UserSource.objects.filter(user=user, source__url=url).select_related("folder").first()
    if entry is None:
        raise ProtocolError(
            _("s: no source with that address in your library, %(value)s.")
            % {"value": repr(stream_id[:100])}
        )
    return entry


@_authenticated
def subscription_edit(request, user):
    """ac=subscribe adds a source as quickadd does; ac=edit files a library source (s=feed/
    <its URL>) into a folder (a=user/-/label/NAME) or out of one (r=). A subscription is in
    the folders of its sources, so it is not filed itself; renaming and unsubscribing are
    Tidings' business, done in Tidings itself."""
    if request.method != "POST":
        return _text(_("POST ac and s."), status=405)
    action = _param(request, "ac")
    if action == "subscribe":
        return _add_source(request, user, _param(request, "s"), "s")
    if action == "edit" and (_params(request, "a") or _params(request, "r")):
        entry = _library_entry(user, _param(request, "s"))
        if entry is None:
            raise ProtocolError(
                _(
                    "s: a subscription is shown in the folders of its sources; put those in "
                    "folders on Tidings' Sources page, or give a source's feed/<URL>."
                )
            )
        try:
            with transaction.atomic():
                _file(user, entry, request, now=timezone.now())
        except FolderError as exc:
            raise ProtocolError(f"{exc.field}: {exc.message}") from None
        return _text("OK")
    raise ProtocolError(
        _(
            "ac: subscribe, or edit with a or r (a folder); rename or remove subscriptions "
            "on Tidings' Subscriptions page."
        )
    )


def _folder_of(user, request, param: str):
    name = _label(request, _param(request, param), param)
    folder = Folder.objects.filter(user=user, name=name).first()
    if folder is None:
        raise ProtocolError(
            _("%(param)s: you have no folder named %(name)s.") % {"param": param, "name": name}
        )
    return folder


@_authenticated
def rename_tag(request, user):
    """Rename a folder: s (the label) to dest (the new label)."""
    if request.method != "POST":
        return _text(_("POST s and dest."), status=405)
    folder = _folder_of(user, request, "s")
    try:
        rename_folder(
            user, folder.pk, _label(request, _param(request, "dest"), "dest"), field="dest"
        )
    except FolderError as exc:
        raise ProtocolError(f"{exc.field}: {exc.message}") from None
    return _text("OK")


@_authenticated
def disable_tag(request, user):
    """Delete a folder (s, the label); its sources stay in the library."""
    if request.method != "POST":
        return _text(_("POST s."), status=405)
    delete_folder(user, _folder_of(user, request, "s").pk)
    return _text("OK")
