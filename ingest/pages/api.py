"""POST /api/v1/sources/pages: save a link to the reading list (ingest/pages/service.py)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from config.api.errors import APIInputError
from config.api.fields import DATETIME_PATTERN, HttpUrlField, StrictCharField
from config.api.responses import created
from config.api.serializers import ResponseSerializer, StrictSerializer, read_body
from digests.subscriptions.api import SubscriptionSerializer
from ingest.pages.service import WHEN_EXAMPLES, ReadingListError, save_for_later


class SavePageSerializer(StrictSerializer):
    url = HttpUrlField(help_text="The page to save.")
    when = StrictCharField(
        max_length=100,
        required=False,
        allow_blank=True,
        default="tomorrow 08:00",
        help_text=f"When to deliver it, in your time zone: {WHEN_EXAMPLES}.",
    )
    deliver_at = StrictCharField(
        max_length=100,
        required=False,
        allow_blank=True,
        schema_pattern=DATETIME_PATTERN,
        schema_format="date-time",
        help_text="An exact ISO 8601 time with a UTC offset; overrides `when`.",
    )
    name = StrictCharField(
        max_length=200,
        required=False,
        allow_blank=True,
        default="",
        help_text="Defaults to the page's title.",
    )


class SavedPageItemSerializer(ResponseSerializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    url = serializers.CharField(source="canonical_url")


class SavedPageSerializer(ResponseSerializer):
    subscription = SubscriptionSerializer()
    next_run_at = serializers.DateTimeField(source="subscription.next_run_at", allow_null=True)
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
        data = read_body(SavePageSerializer, request)
        try:
            saved = save_for_later(
                request.user,
                data["url"],
                when=data["when"],
                deliver_at=data.get("deliver_at") or None,
                name=data["name"],
                now=timezone.now(),
            )
        except ReadingListError as exc:
            raise APIInputError(exc.errors, code=exc.code) from None
        return created(
            request,
            SavedPageSerializer(saved).data,
            "api-subscription",
            subscription_id=saved.subscription.pk,
        )
