"""/api/v1/sources/lists: watch a listing page for new links (a `list` source)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.errors import APIInputError
from config.api.fields import (
    HttpUrlField,
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
    StrictListField,
)
from config.api.responses import created
from config.api.serializers import StrictSerializer, read_body
from digests.watches import notifiers as watches
from digests.watches.check_interval import MAX_CHECK_MINUTES, MIN_CHECK_MINUTES
from ingest.library.api import LibrarySourceSerializer
from ingest.library.sources import SourceError
from ingest.models import Source, UserSource
from ingest.watch.service import add_list_watch

NOTIFY_HELP = (
    "Where a change (links the page never had before) is told: 'inbox' (a short brief in the "
    "Inbox), plus 'email' and 'push' (Web Push to your registered devices) on top of it; [] "
    "for no notice (the watch still feeds briefs that use it). Each change is told once per "
    "channel."
)
INTERVAL_HELP = (
    f"How often the page is checked, {MIN_CHECK_MINUTES}-{MAX_CHECK_MINUTES} minutes, and at "
    "least your plan's minimum (free: 60)."
)


def _notify_field(**kwargs):
    return StrictListField(
        child=StrictChoiceField(choices=list(watches.NOTIFY_CHANNELS)),
        max_length=len(watches.NOTIFY_CHANNELS),
        unique_items=True,
        help_text=NOTIFY_HELP,
        **kwargs,
    )


def _interval_field(**kwargs):
    return StrictIntegerField(
        min_value=MIN_CHECK_MINUTES, max_value=MAX_CHECK_MINUTES, help_text=INTERVAL_HELP, **kwargs
    )


class ListWatchInputSerializer(StrictSerializer):
    url = HttpUrlField(help_text="The listing page to watch.")
    selector = StrictCharField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        help_text="CSS selector for the items; empty: Tidings finds the page's repeated links.",
    )
    render = StrictChoiceField(
        choices=["http", "browser"],
        required=False,
        default="http",
        help_text="'http' (default) or 'browser' for pages that build their list with JavaScript.",
    )
    display_name = StrictCharField(max_length=300, required=False, allow_blank=True, default="")
    notify = _notify_field(required=False)
    check_interval_minutes = _interval_field(required=False)


class WatchSettingsInputSerializer(StrictSerializer):
    notify = _notify_field(required=False)
    check_interval_minutes = _interval_field(required=False)


class WatchedListSerializer(LibrarySourceSerializer):
    selector = serializers.SerializerMethodField()
    render = serializers.SerializerMethodField()
    baseline_links = serializers.SerializerMethodField(
        help_text="Links on the page at the first check (recorded, not news); null when the "
        "list was already watched."
    )

    notify = serializers.SerializerMethodField(help_text=NOTIFY_HELP)
    check_interval_minutes = serializers.SerializerMethodField(help_text=INTERVAL_HELP)
    notifier_subscription_id = serializers.SerializerMethodField(
        help_text="The subscription that delivers this watch's notices (its runs and "
        "deliveries are under /api/v1/subscriptions/{id}); null when it has none."
    )

    class Meta(LibrarySourceSerializer.Meta):
        fields = [
            *LibrarySourceSerializer.Meta.fields,
            "selector",
            "render",
            "baseline_links",
            "notify",
            "check_interval_minutes",
            "notifier_subscription_id",
        ]

    def _notifier(self, user_source):
        cache = self.context.setdefault("notifiers", {})
        if user_source.pk not in cache:
            cache[user_source.pk] = watches.notifier_for(user_source.user, user_source.source)
        return cache[user_source.pk]

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_notify(self, user_source) -> list[str]:
        return list(watches.settings_of(self._notifier(user_source)).channels)

    def get_check_interval_minutes(self, user_source) -> int:
        return watches.settings_of(self._notifier(user_source)).check_interval_minutes

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_notifier_subscription_id(self, user_source) -> int | None:
        notifier = self._notifier(user_source)
        return notifier.pk if notifier else None

    def get_selector(self, user_source) -> str:
        return user_source.source.config.get("selector", "")

    def get_render(self, user_source) -> str:
        return user_source.source.config.get("render", "http")

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_baseline_links(self, user_source) -> int | None:
        refresh = self.context.get("refresh")
        return refresh.counts.seen if refresh is not None and refresh.ok else None


class ListWatchView(APIView):
    @extend_schema(
        request=ListWatchInputSerializer,
        responses={
            201: WatchedListSerializer,
            200: OpenApiResponse(WatchedListSerializer, description="Already in your library."),
        },
        description="Fetch the page once, find its item links and start watching it. Links "
        "already on the page are the baseline; only links that appear later are news, told "
        "through `notify` (default: the Inbox) and checked every `check_interval_minutes` "
        "(default 60). Refused settings name their field (400; 422 `invalid_combination` for "
        "email or push without the Inbox; 403 `tier_limit` for an interval below your plan's "
        "minimum).",
    )
    def post(self, request):
        data = read_body(ListWatchInputSerializer, request)
        try:
            added = add_list_watch(
                request.user,
                data["url"],
                selector=data["selector"],
                render=data["render"],
                now=timezone.now(),
                display_name=data["display_name"],
                notify=data.get("notify"),
                check_interval_minutes=data.get("check_interval_minutes"),
            )
        except SourceError as exc:
            raise APIInputError({exc.field: exc.message}, code=exc.code) from None
        body = WatchedListSerializer(added.user_source, context={"refresh": added.refresh}).data
        return created(
            request,
            body,
            "api-sources-list",
            new=added.created,
            user_source_id=added.user_source.pk,
        )


class ListWatchDetailView(APIView):
    def _user_source(self, request, user_source_id: int) -> UserSource:
        return get_object_or_404(
            UserSource.objects.select_related("source"),
            pk=user_source_id,
            user=request.user,
            source__type=Source.Type.LIST,
        )

    @extend_schema(responses=WatchedListSerializer)
    def get(self, request, user_source_id: int):
        return Response(WatchedListSerializer(self._user_source(request, user_source_id)).data)

    @extend_schema(
        request=WatchSettingsInputSerializer,
        responses=WatchedListSerializer,
        description="Change how the watch notifies and how often it is checked; a field left "
        "out stays as it is. Refused settings name their field and change nothing (400; 422 "
        "`invalid_combination` for email or push without the Inbox; 403 `tier_limit` for an "
        "interval below your plan's minimum).",
    )
    def patch(self, request, user_source_id: int):
        user_source = self._user_source(request, user_source_id)
        data = read_body(WatchSettingsInputSerializer, request)
        watches.set_watch_notifications(
            request.user,
            user_source.source,
            now=timezone.now(),
            channels=data.get("notify"),
            check_interval_minutes=data.get("check_interval_minutes"),
            name=user_source.display_name,
        )
        return Response(WatchedListSerializer(user_source).data)
