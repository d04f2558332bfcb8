"""/api/v1/ for the user and their Inbox: the same listing, actions and counts as the
console's Inbox pages (inbox.listing, inbox.states)."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.errors import APIInputError
from config.api.fields import (
    HTTPS_URL_PATTERN,
    HttpUrlField,
    IdField,
    QueryDateField,
    QueryIdField,
    StrictCharField,
    StrictChoiceField,
    StrictListField,
)
from config.api.pagination import (
    CURSOR_PARAM,
    PAGE_PARAMS,
    OffsetCursorPagination,
    cursor_page_response,
    invalid_cursor,
    page_of,
    read_limit,
)
from config.api.responses import created as created_response
from config.api.schema import ERROR_RESPONSE
from config.api.serializers import ResponseSerializer, StrictSerializer, read_body, read_query
from config.api.sync import updated_since_field
from digests.models import RunItem
from digests.narrative.reasons import why_selected
from inbox.listing import (
    SHOW_CHOICES,
    SHOWN_FIELDS,
    Cursor,
    InboxFilter,
    inbox_page_rows,
    inbox_stats,
)
from inbox.models import UserPreference
from inbox.page_cache import cached_api_page
from inbox.push_devices import devices_of, push_enabled, register_device, remove_device
from inbox.states import (
    ACTIONS,
    MAX_BULK_ITEMS,
    BulkActionError,
    UnknownAction,
    apply_action,
    apply_bulk_action,
)

INBOX_PAGE_MAX = 100
INBOX_PAGE_DEFAULT = 30


class InboxItemSerializer(ResponseSerializer):
    """A delivered item with what the user did with it (`.state`, set by the listing)."""

    id = serializers.IntegerField(help_text="The Inbox item (a delivery); used by the actions.")
    run_id = serializers.IntegerField()
    subscription_id = serializers.IntegerField()
    subscription_name = serializers.CharField()
    title = serializers.CharField()
    url = serializers.CharField()
    summary = serializers.CharField()
    source_name = serializers.CharField()
    reason = serializers.SerializerMethodField(help_text="Why it was selected, in your language.")

    def get_reason(self, obj) -> str:
        return why_selected(obj)

    overall = serializers.IntegerField(help_text="Score, 0-100.")
    published_at = serializers.DateTimeField(allow_null=True)
    delivered_at = serializers.DateTimeField()
    read = serializers.SerializerMethodField()
    saved = serializers.SerializerMethodField()
    not_interested = serializers.SerializerMethodField()

    def get_read(self, obj) -> bool:
        return bool(obj.state and obj.state.read_at)

    def get_saved(self, obj) -> bool:
        return bool(obj.state and obj.state.saved_at)

    def get_not_interested(self, obj) -> bool:
        return bool(obj.state and obj.state.not_interested_at)


def inbox_items_json(rows: list[dict]) -> list[dict]:
    """What InboxItemSerializer(many=True) writes for rows of `inbox_page_rows`, key for key and
    value for value, without DRF's per-field work (30 rows × 15 fields was most of a page's
    time). The serializer stays the schema; tests/inbox/test_inbox_api.py holds the two to the
    same bytes."""
    zone = timezone.get_current_timezone()  # DateTimeField's, looked up once, not per value
    items = []
    for row in rows:
        item = {name: row[name] for name in SHOWN_FIELDS}
        item["published_at"] = _iso(row["published_at"], zone)
        item["delivered_at"] = _iso(row["delivered_at"], zone)
        item["read"] = row["read"]
        item["saved"] = row["saved"]
        item["not_interested"] = row["not_interested"]
        items.append(item)
    return items


def _iso(value, zone) -> str | None:
    """DRF's DateTimeField output (ISO 8601 in the current zone, UTC written as Z)."""
    if value is None:
        return None
    text = value.astimezone(zone).isoformat()
    return text.removesuffix("+00:00") + "Z" if text.endswith("+00:00") else text


def _validate_range(serializer, data):
    since, until = data.get("from"), data.get("to")
    if since and until and until < since:
        # Two valid dates that make no period (checked once each is valid): 422, as the admin
        # stats answer an empty period — no schema states it.
        raise APIInputError({"to": _("Must be on or after `from`.")}, code="empty_period")
    return data


InboxQuerySerializer = type(
    "InboxQuerySerializer",
    (StrictSerializer,),
    {
        "__doc__": "The Inbox's filters, the same as the console's.",
        "state": StrictChoiceField(
            choices=list(SHOW_CHOICES),
            default="all",
            help_text="all (everything but not-interested items), unread, saved, not_interested.",
        ),
        "subscription": QueryIdField(required=False, help_text="Only this subscription's items."),
        "run": QueryIdField(required=False, help_text="Only this run's items."),
        "q": StrictCharField(
            max_length=200, required=False, help_text="Text in the title or source name."
        ),
        "from": QueryDateField(
            required=False, help_text="First day, YYYY-MM-DD, in your time zone (preferences)."
        ),
        "to": QueryDateField(required=False, help_text="Last day, included."),
        "updated_since": updated_since_field(
            "An item changes when it is delivered and when it is marked or unmarked read, "
            "saved or not interested (a mark follows the item to all its deliveries). "
            "`state=all` leaves out items marked not interested: ask `state=not_interested` "
            "too to learn of those."
        ),
        "validate": _validate_range,
    },
)

_PAGE_PARAMETERS = [
    OpenApiParameter(
        CURSOR_PARAM,
        # What inbox.listing.Cursor writes: the run's id and the item's rank.
        {"type": "string", "pattern": r"^[0-9]{1,18}\.[0-9]{1,5}$"},
        description="The cursor of a `next` link.",
    ),
    OpenApiParameter(
        "limit",
        # The server's bounds (config/api/pagination.read_limit), so the schema says them too.
        {"type": "integer", "minimum": 1, "maximum": INBOX_PAGE_MAX},
        description=f"Items per page, 1 to {INBOX_PAGE_MAX} (default {INBOX_PAGE_DEFAULT}).",
    ),
]


def _user_zone(user) -> str:
    zone = UserPreference.objects.filter(user=user).values_list("timezone", flat=True).first()
    return zone or "UTC"


class InboxItemListView(APIView):
    @extend_schema(
        # A list, named as one (the generated client's `v1_inbox_items_list`).
        operation_id="v1_inbox_items_list",
        parameters=[InboxQuerySerializer, *_PAGE_PARAMETERS],
        responses={200: page_of(InboxItemSerializer), 422: ERROR_RESPONSE},
        description="Delivered items, newest brief first and in the brief's order inside it. "
        "Read forward with `next` (`previous` is always null). A `to` before `from` is 422 "
        "`empty_period`.",
    )
    def get(self, request):
        query = read_query(InboxQuerySerializer, request, also=PAGE_PARAMS)
        limit = read_limit(request, INBOX_PAGE_DEFAULT, INBOX_PAGE_MAX)
        after = None
        if CURSOR_PARAM in request.query_params:
            after = Cursor.parse(request.query_params[CURSOR_PARAM])
            if after is None:
                raise invalid_cursor()
        inbox_filter = InboxFilter(
            show=query["state"],
            subscription_id=query.get("subscription"),
            run_id=query.get("run"),
            text=query.get("q", "").strip(),
            since=query.get("from"),
            until=query.get("to"),
            changed_since=query.get("updated_since"),
        )
        dated = "from" in query or "to" in query

        def build() -> tuple[list[dict], str | None]:
            page = inbox_page_rows(
                request.user,
                inbox_filter,
                after=after,
                # The zone only places the date filters' local days: no query without them.
                zone=_user_zone(request.user) if dated else "UTC",
                page_size=limit,
            )
            return (
                inbox_items_json(page.items),
                str(page.next_cursor) if page.next_cursor else None,
            )

        # While the user's Inbox has not changed, a page is answered from the cache
        # (inbox/page_cache.py); date filters depend on the time zone, so those are built.
        items, next_cursor = cached_api_page(request, build, cacheable=not dated)
        return cursor_page_response(request, items, next_cursor=next_cursor)


class InboxActionSerializer(StrictSerializer):
    action = StrictChoiceField(choices=list(ACTIONS))


class InboxItemActionView(APIView):
    @extend_schema(request=InboxActionSerializer, responses=InboxItemSerializer)
    def post(self, request, run_item_id: int):
        action = read_body(InboxActionSerializer, request)["action"]
        run_item = get_object_or_404(
            RunItem.objects.select_related("run__subscription"),
            pk=run_item_id,
            run__user=request.user,
        )
        try:
            run_item.state = apply_action(request.user, run_item, action, now=timezone.now())
        except UnknownAction as exc:
            raise APIInputError({"action": str(exc)}) from None
        run_item.subscription_id = run_item.run.subscription_id
        run_item.subscription_name = run_item.run.subscription.name
        return Response(InboxItemSerializer(run_item).data)


class BulkActionSerializer(StrictSerializer):
    action = StrictChoiceField(choices=list(ACTIONS))
    ids = StrictListField(
        child=IdField(),
        min_length=1,
        max_length=MAX_BULK_ITEMS,
        help_text=f"Inbox item ids (`id` of /api/v1/inbox/items), 1 to {MAX_BULK_ITEMS}.",
    )


class BulkActionResultSerializer(ResponseSerializer):
    action = serializers.CharField()
    count = serializers.IntegerField(help_text="Items changed (each id once).")
    ids = serializers.ListField(child=serializers.IntegerField())


class InboxBulkActionView(APIView):
    @extend_schema(
        request=BulkActionSerializer,
        responses=BulkActionResultSerializer,
        description=f"One action on up to {MAX_BULK_ITEMS} items, all or nothing: if any id "
        "is not an item of your Inbox the request is refused (400, naming them) and nothing "
        "changes.",
    )
    def post(self, request):
        data = read_body(BulkActionSerializer, request)
        try:
            ids = apply_bulk_action(request.user, data["ids"], data["action"], now=timezone.now())
        except BulkActionError as exc:
            raise APIInputError(exc.errors, code=exc.code) from None
        return Response({"action": data["action"], "count": len(ids), "ids": ids})


class SubscriptionCountsSerializer(ResponseSerializer):
    subscription_id = serializers.IntegerField(
        allow_null=True, help_text="Null for items whose run is gone."
    )
    name = serializers.CharField()
    delivered = serializers.IntegerField()
    unread = serializers.IntegerField()
    saved = serializers.IntegerField()
    not_interested = serializers.IntegerField()


class InboxStatsSerializer(ResponseSerializer):
    delivered = serializers.IntegerField(help_text="Distinct items ever delivered.")
    unread = serializers.IntegerField(help_text="Delivered, not read, not dismissed.")
    saved = serializers.IntegerField()
    not_interested = serializers.IntegerField()
    by_subscription = SubscriptionCountsSerializer(many=True)


class InboxStatsView(APIView):
    @extend_schema(
        responses=InboxStatsSerializer,
        description="The Inbox's counts (the console's badges), and per subscription: each "
        "item under the subscription that delivered it last, so the parts add up.",
    )
    def get(self, request):
        return Response(InboxStatsSerializer(inbox_stats(request.user)).data)


# --- Web Push devices ------------------------------------------------------------------------


class PushConfigSerializer(ResponseSerializer):
    enabled = serializers.BooleanField(help_text="False when the server has no VAPID keys.")
    public_key = serializers.CharField(
        allow_blank=True,
        help_text="The VAPID public key (base64url): the applicationServerKey to subscribe with.",
    )
    service_worker = serializers.CharField(help_text="The service worker's URL (scope /).")


class PushConfigView(APIView):
    @extend_schema(responses=PushConfigSerializer)
    def get(self, request):
        return Response(
            PushConfigSerializer(
                {
                    "enabled": push_enabled(),
                    "public_key": settings.TIDINGS_VAPID_PUBLIC_KEY if push_enabled() else "",
                    "service_worker": "/push-sw.js",
                }
            ).data
        )


class PushKeysSerializer(StrictSerializer):
    # What inbox/push_devices.register_device decodes: 65 bytes starting with 0x04, and 16.
    p256dh = StrictCharField(
        max_length=200,
        schema_pattern=r"^B[A-P][A-Za-z0-9_-]{85}=?$",
        help_text="The browser's uncompressed P-256 key (65 bytes), base64url.",
    )
    auth = StrictCharField(
        max_length=100,
        schema_pattern=r"^[A-Za-z0-9_-]{22}(==)?$",
        help_text="The 16-byte auth secret, base64url.",
    )


class PushDeviceInputSerializer(StrictSerializer):
    """A browser's `PushSubscription.toJSON()`, with an optional label."""

    endpoint = HttpUrlField(
        schema_pattern=HTTPS_URL_PATTERN, help_text="The push service's https URL."
    )
    keys = PushKeysSerializer()
    expirationTime = serializers.IntegerField(
        required=False, allow_null=True, help_text="Sent by browsers; ignored."
    )
    label = StrictCharField(
        max_length=100, required=False, allow_blank=True, default="", help_text="Your name for it."
    )


class PushDeviceSerializer(ResponseSerializer):
    id = serializers.IntegerField()
    label = serializers.CharField()
    endpoint = serializers.CharField()
    created_at = serializers.DateTimeField()
    last_sent_at = serializers.DateTimeField(allow_null=True)


class PushDeviceListView(ListAPIView):
    """The reader's browsers registered for Web Push, oldest first, as every list: a page."""

    serializer_class = PushDeviceSerializer
    pagination_class = OffsetCursorPagination

    def get_queryset(self):
        return devices_of(self.request.user)

    @extend_schema(
        request=PushDeviceInputSerializer,
        responses={
            201: PushDeviceSerializer,
            200: OpenApiResponse(PushDeviceSerializer, description="Already registered."),
        },
        description="Register a browser for Web Push. Refused when the server has no VAPID "
        "keys, or when the endpoint or keys are not what a browser gives (400 naming the field).",
    )
    def post(self, request):
        data = read_body(PushDeviceInputSerializer, request)
        device, created = register_device(
            request.user,
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
            label=data["label"],
            now=timezone.now(),
        )
        return created_response(
            request,
            PushDeviceSerializer(device).data,
            "api-push-device",
            new=created,
            device_id=device.pk,
        )


class PushDeviceDetailView(APIView):
    @extend_schema(responses={204: None})
    def delete(self, request, device_id: int):
        if not remove_device(request.user, device_id):
            raise Http404
        return Response(status=204)
