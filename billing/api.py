"""/api/v1/billing/: the user's balance, ledger and cost estimates; /api/v1/admin/billing/stats
for staff tokens. Thin callers of the billing services."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from billing import estimates, stats
from billing.accounts import ensure_account
from billing.limits import limits_of
from billing.models import CreditTransaction, Tier
from config.api.errors import APIInputError
from config.api.fields import (
    DATETIME_SCHEMA,
    AwareDateTimeField,
    CronField,
    StrictCharField,
    TimeZoneField,
)
from config.api.permissions import IsStaffToken
from config.api.schema import ERROR_RESPONSE
from config.api.serializers import (
    ResponseModelSerializer,
    ResponseSerializer,
    StrictSerializer,
    read_query,
)
from digests.schedules.next_run import ScheduleError, validate_timezone


class LimitsSerializer(ResponseSerializer):
    subscriptions = serializers.IntegerField()
    min_interval_seconds = serializers.IntegerField()
    manual_runs_per_hour = serializers.IntegerField()
    public_topics = serializers.IntegerField(allow_null=True, help_text="Null: no limit.")
    public_publishes_per_day = serializers.IntegerField(
        allow_null=True, help_text="Null: no limit."
    )
    private_topics = serializers.BooleanField()


class BalanceSerializer(ResponseSerializer):
    tier = serializers.ChoiceField(choices=Tier.choices)
    balance = serializers.IntegerField(help_text="The sum of this period's ledger rows.")
    monthly_credits = serializers.IntegerField(source="monthly_quota")
    period_start = serializers.DateField(help_text="First day of the period (UTC).")
    period_end = serializers.DateField(
        help_text="First day of the next period (UTC): the balance resets then."
    )
    limits = serializers.SerializerMethodField()

    @extend_schema_field(LimitsSerializer)
    def get_limits(self, account) -> dict:
        limits = limits_of(account)
        return {
            "subscriptions": limits.subscriptions,
            "min_interval_seconds": int(limits.min_interval.total_seconds()),
            "manual_runs_per_hour": limits.manual_runs_per_hour,
            "public_topics": limits.public_topics,
            "public_publishes_per_day": limits.public_publishes_per_day,
            "private_topics": limits.private_topics,
        }


class BalanceView(APIView):
    @extend_schema(responses=BalanceSerializer)
    def get(self, request):
        return Response(BalanceSerializer(ensure_account(request.user, now=timezone.now())).data)


class TransactionSerializer(ResponseModelSerializer):
    run_id = serializers.IntegerField(allow_null=True)

    class Meta:
        model = CreditTransaction
        fields = [
            "id",
            "kind",
            "amount",
            "run_id",
            "created_at",
            "breakdown",
            "balance_after",
            "period_start",
            "reason",
        ]


class TransactionListView(ListAPIView):
    """The user's ledger, newest first (cursor-paginated)."""

    serializer_class = TransactionSerializer

    def get_queryset(self):
        account = ensure_account(self.request.user, now=timezone.now())
        return CreditTransaction.objects.filter(account=account)


_SOURCE_ID = re.compile(r"[0-9]{1,18}")


class EstimateQuerySerializer(StrictSerializer):
    cron = CronField(
        required=False,
        allow_blank=True,
        default="",
        help_text="The schedule to estimate, a cron expression (e.g. `0 8 * * *`); empty: a "
        "one-off subscription (it runs once).",
    )
    timezone = TimeZoneField(default="UTC", help_text="The IANA time zone the schedule runs in.")
    source_ids = StrictCharField(
        required=False,
        default="",
        allow_blank=True,
        help_text="Comma-separated ids of sources in your library (at most 500).",
        schema_pattern=r"^[0-9]{1,18}(,[0-9]{1,18}){0,499}$",
    )

    def validate_timezone(self, value: str) -> str:
        # The schema's enumeration, checked by the one check a subscription's schedule uses.
        try:
            validate_timezone(value)
        except ScheduleError as error:
            raise serializers.ValidationError(error.message) from None
        return value

    def validate_source_ids(self, value: str) -> list[int]:
        parts = [part.strip() for part in value.split(",") if part.strip()]
        if not all(_SOURCE_ID.fullmatch(part) for part in parts) or len(parts) > 500:
            raise serializers.ValidationError("Comma-separated source ids (at most 500).")
        return [int(part) for part in parts]


class EstimateView(APIView):
    """What a subscription with this schedule and these sources would cost, before it is
    created: at most per run, about how many runs in the next 30 days, at most per month;
    and whether the schedule fits the plan."""

    @extend_schema(
        parameters=[EstimateQuerySerializer],
        responses=inline_serializer(
            "Estimate",
            {
                "per_run_max": serializers.IntegerField(),
                "runs_per_month": serializers.IntegerField(),
                "per_month_max": serializers.IntegerField(),
                "monthly_credits": serializers.IntegerField(),
                "balance": serializers.IntegerField(),
                "tier": serializers.ChoiceField(choices=Tier.choices),
                "tier_label": serializers.CharField(help_text="The plan's name, in your language."),
                "fits_plan": serializers.BooleanField(),
                "plan_refusal": serializers.CharField(),
            },
        ),
    )
    def get(self, request):
        data = read_query(EstimateQuerySerializer, request)
        try:
            estimate = estimates.estimate(
                request.user,
                cron=data["cron"],
                timezone=data["timezone"],
                source_ids=data["source_ids"],
                now=timezone.now(),
            )
        except ScheduleError as exc:
            raise APIInputError({exc.field: exc.message}) from None
        return Response(estimate.__dict__)


def _instant(params, name: str, default: datetime) -> datetime:
    raw = params.get(name, "").strip()
    if not raw:
        return default
    try:
        return AwareDateTimeField().run_validation(raw)
    except serializers.ValidationError:
        raise APIInputError(
            {name: "An ISO 8601 time with an offset, e.g. 2026-11-01T00:00:00Z."}
        ) from None


# A moment (the form AwareDateTimeField takes), or empty for the default.
MOMENT_OR_EMPTY = {"oneOf": [DATETIME_SCHEMA, {"type": "string", "maxLength": 0}]}


class OperationSpendSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="Operations charged.")
    cache_hits = serializers.IntegerField(help_text="Of them, answered from the cache.")
    credits = serializers.IntegerField(help_text="What they cost at the operation's price.")


class KindTotalSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="Transactions of this kind.")
    credits = serializers.IntegerField(help_text="Their sum (negative for charges).")


class TopUserSerializer(serializers.Serializer):
    email = serializers.CharField()
    tier = serializers.CharField()
    spent = serializers.IntegerField(help_text="Credits spent in the period.")
    runs = serializers.IntegerField(help_text="Runs charged in the period.")


class PlatformSpendSerializer(serializers.Serializer):
    editions = serializers.IntegerField(help_text="Public topic editions paid by the platform.")
    credits = serializers.IntegerField(help_text="What they cost.")


class BillingStatsSerializer(serializers.Serializer):
    since = serializers.DateTimeField(help_text="The period's start (included).")
    until = serializers.DateTimeField(help_text="The period's end (excluded).")
    spent = serializers.IntegerField(help_text="Credits users spent: charges less refunds.")
    by_kind = serializers.DictField(
        child=KindTotalSerializer(), help_text="Every transaction kind seen in the period."
    )
    by_operation = serializers.DictField(
        child=OperationSpendSerializer(), help_text="Per priced operation (search, crawl…)."
    )
    by_tier = serializers.DictField(
        child=serializers.IntegerField(), help_text="Credits spent per tier with any spend."
    )
    top_users = TopUserSerializer(many=True, help_text="The 20 users who spent most.")
    platform = PlatformSpendSerializer()
    accounts_by_tier = serializers.DictField(
        child=serializers.IntegerField(), help_text="User accounts per tier, every tier."
    )


_PERIOD_START = OpenApiExample("November", value="2026-11-01T00:00:00Z")
_PERIOD_END = OpenApiExample("November", value="2026-12-01T00:00:00Z")


class AdminBillingStatsView(APIView):
    permission_classes = [IsStaffToken]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "since",
                MOMENT_OR_EMPTY,
                description="From (ISO 8601 with a UTC offset; empty or left out: the start of "
                "this month, UTC). Must come before `until` (422 `empty_period` otherwise).",
                examples=[_PERIOD_START],
            ),
            OpenApiParameter(
                "until",
                MOMENT_OR_EMPTY,
                description="Until (ISO 8601 with a UTC offset; empty or left out: now).",
                examples=[_PERIOD_END],
            ),
        ],
        responses={200: BillingStatsSerializer, 422: ERROR_RESPONSE},
        description="Credits spent (charges less refunds) in total, by operation kind, by "
        "tier and by user (top 20); platform spend on editions; accounts by tier.",
    )
    def get(self, request):
        now = timezone.now()
        since = _instant(request.query_params, "since", stats.month_start(now))
        until = _instant(request.query_params, "until", now)
        if until <= since:
            # Two well-formed moments in the wrong order, or an `until` before the default
            # `since` (this month's start: a matter of today's date): 422, not 400.
            raise APIInputError({"until": _("Must be after since.")}, code="empty_period")
        return Response(stats.spend_stats(since=since, until=until.astimezone(UTC)))
