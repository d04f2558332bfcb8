"""GET /api/v1/admin/stats: the platform at a glance, for staff tokens only (401 without a
token, 403 for a non-staff user). A thin caller of digests.platform.stats."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from config.api.serializers import ResponseSerializer
from digests.models import Run, Subscription
from digests.platform.cache_api import StaffTokenAPIView
from digests.platform.stats import platform_stats
from ingest.models import FetchLog, Source


def _counts(name: str, values, *extra: str, help_text: str = "") -> type[ResponseSerializer]:
    """A serializer with one integer per status value (the schema lists them all)."""
    fields = {value: serializers.IntegerField() for value in [*values, *extra]}
    return type(name, (ResponseSerializer,), {"__doc__": help_text, **fields})


class UserCountsSerializer(ResponseSerializer):
    total = serializers.IntegerField()
    active = serializers.IntegerField()
    staff = serializers.IntegerField()
    joined_7d = serializers.IntegerField()
    signed_in_30d = serializers.IntegerField()


RunStatusCountsSerializer = _counts(
    "RunStatusCountsSerializer", Run.Status.values, help_text="Runs by status."
)


class RunsSerializer(ResponseSerializer):
    last_24h = RunStatusCountsSerializer(help_text="Runs created in the last 24 hours.")
    all_time = RunStatusCountsSerializer()


class FetchHealthSerializer(ResponseSerializer):
    sources = _counts(
        "SourceStatusCountsSerializer",
        Source.Status.values,
        "failing",
        "total",
        help_text="Sources by status; `failing`: with at least one failure in a row.",
    )()
    fetches_24h = _counts(
        "FetchOutcomeCountsSerializer", FetchLog.Outcome.values, help_text="Fetches by outcome."
    )()


class LLMSpendSerializer(ResponseSerializer):
    tokens_today = serializers.IntegerField(help_text="Platform tokens this UTC day.")
    daily_token_budget = serializers.IntegerField()
    calls_24h = serializers.IntegerField()
    calls_30d = serializers.IntegerField()
    failed_30d = serializers.IntegerField()
    input_tokens_30d = serializers.IntegerField()
    output_tokens_30d = serializers.IntegerField()


class PlatformStatsSerializer(ResponseSerializer):
    generated_at = serializers.DateTimeField()
    users = UserCountsSerializer()
    subscriptions = _counts(
        "SubscriptionStatusCountsSerializer",
        Subscription.Status.values,
        "total",
        help_text="Subscriptions not deleted, by status.",
    )()
    runs = RunsSerializer()
    fetch_health = FetchHealthSerializer()
    llm = LLMSpendSerializer()


class AdminStatsView(StaffTokenAPIView):
    @extend_schema(
        responses=PlatformStatsSerializer,
        description="Users, subscriptions, runs by status, fetch health and LLM spend.",
    )
    def get(self, request):
        return Response(PlatformStatsSerializer(platform_stats(now=timezone.now())).data)
