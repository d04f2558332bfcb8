"""/api/v1/admin/cache/: combination cache statistics and clearing, for staff tokens only
(401 without a token, 403 for a non-staff user). Thin callers of digests.ai.combination_cache."""

from __future__ import annotations

from datetime import date, datetime

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.errors import APIInputError
from config.api.fields import (
    DATE_PATTERN,
    DATETIME_PATTERN,
    AwareDateTimeField,
    QueryDateField,
)
from config.api.permissions import IsStaffToken
from digests.ai import combination_cache
from digests.subscriptions import source_sets

_TRUE = {"1", "true", "yes"}
_FALSE = {"", "0", "false", "no"}


class CacheFiguresSerializer(serializers.Serializer):
    hits = serializers.IntegerField(help_text="Answers taken from the cache.")
    misses = serializers.IntegerField(help_text="Answers the model had to write.")
    requests = serializers.IntegerField(help_text="hits + misses.")
    hit_rate = serializers.FloatField(
        allow_null=True, help_text="hits / requests, 0-1; null before any request."
    )
    tokens_saved = serializers.IntegerField(help_text="Model tokens the hits did not spend.")
    unique_keys = serializers.IntegerField(help_text="Entries, whatever their state.")
    ready = serializers.IntegerField(help_text="Entries ready and not expired.")
    expired = serializers.IntegerField(help_text="Entries ready but past their expiry.")
    pending = serializers.IntegerField(help_text="Entries being written.")
    failed = serializers.IntegerField()


class CacheStatsSerializer(CacheFiguresSerializer):
    by_kind = serializers.DictField(
        child=CacheFiguresSerializer(),
        help_text="The same figures per kind (interests, narrative, relevance, summary).",
    )


class SharedSubscriptionSetSerializer(serializers.Serializer):
    hash = serializers.CharField(help_text="SHA-256 (hex) of the sorted source ids.")
    sources = serializers.IntegerField(help_text="How many sources the set has.")
    subscriptions = serializers.IntegerField(help_text="Live subscriptions with this set.")
    users = serializers.IntegerField(help_text="Distinct owners of those subscriptions.")


class SharedLibrarySetSerializer(serializers.Serializer):
    hash = serializers.CharField(help_text="SHA-256 (hex) of the sorted source ids.")
    sources = serializers.IntegerField(help_text="How many sources the library has.")
    users = serializers.IntegerField(help_text="Users whose library is this set.")


class SourceSetSharingSerializer(serializers.Serializer):
    subscriptions = SharedSubscriptionSetSerializer(many=True, help_text="The 50 most shared.")
    libraries = SharedLibrarySetSerializer(many=True, help_text="The 50 most shared.")
    distinct_subscription_hashes = serializers.IntegerField(
        help_text="How many different source sets live subscriptions have."
    )
    distinct_library_hashes = serializers.IntegerField(
        help_text="How many different libraries users have."
    )


class StaffTokenAPIView(APIView):
    permission_classes = [IsStaffToken]


class CacheStatsView(StaffTokenAPIView):
    @extend_schema(
        responses=CacheStatsSerializer,
        description="Hits, misses, hit rate, tokens saved and unique keys, overall and by kind.",
    )
    def get(self, request):
        return Response(combination_cache.stats(now=timezone.now()))


def _flag(params, name: str) -> bool:
    raw = params.get(name, "").strip().lower()
    if raw not in _TRUE | _FALSE:
        raise APIInputError({name: "Use true or false."})
    return raw in _TRUE


def _before(raw: str) -> date | datetime | None:
    raw = raw.strip()
    if not raw:
        return None
    field = QueryDateField() if len(raw) == 10 else AwareDateTimeField()
    try:
        return field.run_validation(raw)
    except serializers.ValidationError:
        raise APIInputError(
            {"before": "An ISO 8601 date (2026-11-20) or time with offset (…T08:00:00+00:00)."}
        ) from None


class CacheEntriesView(StaffTokenAPIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "key",
                {"type": "string", "pattern": r"^\s*([0-9a-fA-F]{64})?\s*$"},
                description="Clear the entry with this key (its 64-character hex digest).",
            ),
            OpenApiParameter(
                "before",
                {
                    "type": "string",
                    "anyOf": [
                        {"format": "date", "pattern": DATE_PATTERN},
                        {"format": "date-time", "pattern": DATETIME_PATTERN},
                        {"pattern": r"^\s*$"},
                    ],
                },
                description="Clear entries created before this: a date (its start, UTC) or a "
                "time with its UTC offset.",
            ),
            OpenApiParameter("expired", bool, description="Clear the expired entries."),
            OpenApiParameter("all", bool, description="Clear every entry."),
        ],
        responses={
            200: inline_serializer("CacheClearResult", {"deleted": serializers.IntegerField()})
        },
        description="Clear combination cache entries; exactly one of key, before, expired, "
        "all (none or several: 422 `invalid_combination`, naming the second one or `scope`). "
        "The hit and miss counters are kept.",
    )
    def delete(self, request):
        params = request.query_params
        try:
            deleted = combination_cache.clear(
                now=timezone.now(),
                key=params.get("key", ""),
                before=_before(params.get("before", "")),
                expired=_flag(params, "expired"),
                everything=_flag(params, "all"),
            )
        except combination_cache.ClearError as exc:
            raise APIInputError({exc.field: exc.message}, code=exc.code) from None
        return Response({"deleted": deleted})


class SourceSetsView(StaffTokenAPIView):
    @extend_schema(
        responses=SourceSetSharingSerializer,
        description="Seed 002's combinations: the most shared subscription hashes (SHA-256 of "
        "the sorted source ids) with how many subscriptions and users have each, the most "
        "shared library hashes with their users, and how many distinct hashes exist.",
    )
    def get(self, request):
        return Response(source_sets.sharing())
