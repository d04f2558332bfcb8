"""/api/v1/sources/lists: watch a listing page for new links (a `list` source)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.errors import APIInputError
from config.api.fields import StrictCharField, StrictChoiceField
from config.api.serializers import StrictSerializer, read_body
from ingest.library.api import LibrarySourceSerializer
from ingest.library.sources import SourceError
from ingest.watch.service import add_list_watch


class ListWatchInputSerializer(StrictSerializer):
    url = StrictCharField(max_length=2048, help_text="The listing page to watch.")
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


class WatchedListSerializer(LibrarySourceSerializer):
    selector = serializers.SerializerMethodField()
    render = serializers.SerializerMethodField()
    baseline_links = serializers.SerializerMethodField(
        help_text="Links on the page at the first check (recorded, not news); null when the "
        "list was already watched."
    )

    class Meta(LibrarySourceSerializer.Meta):
        fields = [*LibrarySourceSerializer.Meta.fields, "selector", "render", "baseline_links"]

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
        "already on the page are the baseline; only links that appear later are news.",
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
            )
        except SourceError as exc:
            raise APIInputError({exc.field: exc.message}, code=exc.code) from None
        body = WatchedListSerializer(added.user_source, context={"refresh": added.refresh}).data
        return Response(
            body, status=status.HTTP_201_CREATED if added.created else status.HTTP_200_OK
        )
