"""POST /api/v1/sources/pages: save a link to the reading list (ingest/pages/service.py)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.errors import APIInputError
from digests.api import SubscriptionSerializer
from ingest.pages.service import WHEN_EXAMPLES, ReadingListError, save_for_later


class SavePageSerializer(serializers.Serializer):
    url = serializers.CharField(help_text="The page to save.")
    when = serializers.CharField(
        required=False,
        allow_blank=True,
        default="tomorrow 08:00",
        help_text=f"When to deliver it, in your time zone: {WHEN_EXAMPLES}.",
    )
    deliver_at = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        help_text="An exact ISO 8601 time with a UTC offset; overrides `when`.",
    )
    name = serializers.CharField(
        required=False, allow_blank=True, default="", help_text="Defaults to the page's title."
    )


class SavedPageItemSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    url = serializers.CharField(source="canonical_url")


class SavedPageSerializer(serializers.Serializer):
    subscription = SubscriptionSerializer()
    next_run_at = serializers.DateTimeField(source="subscription.next_run_at")
    source_id = serializers.IntegerField(source="source.pk")
    user_source_id = serializers.IntegerField(source="user_source.pk")
    item = SavedPageItemSerializer(allow_null=True)


class SavePageView(APIView):
    @extend_schema(
        request=SavePageSerializer,
        responses={201: SavedPageSerializer},
        description="Fetch the page now, add it to your library and create a one-off "
        "subscription that delivers it once into your Inbox at the time asked for. Errors "
        "name the field: `url` (refused or unreadable page), `when`, `deliver_at`, `name`.",
    )
    def post(self, request):
        if not isinstance(request.data, dict):
            raise APIInputError({"non_field_errors": "Send a JSON object."})
        payload = SavePageSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        try:
            saved = save_for_later(
                request.user,
                data["url"],
                when=data["when"],
                deliver_at=data["deliver_at"] or None,
                name=data["name"],
                now=timezone.now(),
            )
        except ReadingListError as exc:
            raise APIInputError(exc.errors, code=exc.code) from None
        return Response(SavedPageSerializer(saved).data, status=status.HTTP_201_CREATED)
