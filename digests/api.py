"""/api/v1/subscriptions, /api/v1/runs and /api/v1/deliveries: thin callers of the same services
as the console.

A tier limit (billing.limits.TierLimitError) is answered 403 with code `tier_limit` by the
API's exception handler, whichever view meets it."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView

from billing import charges
from config.api.errors import APIConflictError, APIInputError
from config.api.throttling import (
    LiveScopedRateThrottle,
    ScopedIPRateThrottle,
    wait_before_another,
)
from digests import interests as topic_interests
from digests import llm, runner, schedule, subscriptions
from digests.delivery import endpoints, service
from digests.delivery.addresses import recipient_for
from digests.models import Delivery, Run, RunItem, Subscription, WebhookEndpoint
from digests.schedule_words import describe_schedule
from digests.tasks import enqueue_delivery, enqueue_run
from ingest.text.reading import LEVELS


class DeliverySerializer(serializers.ModelSerializer):
    gave_up = serializers.BooleanField(
        read_only=True, help_text="Failed and not retried any more (permanent, or out of tries)."
    )

    class Meta:
        model = Delivery
        fields = [
            "id",
            "run_id",
            "channel",
            "event",
            "recipient",
            "status",
            "gave_up",
            "attempts",
            "next_attempt_at",
            "last_attempt_at",
            "sent_at",
            "response_code",
            "last_error",
            "created_at",
        ]


class WebhookSerializer(serializers.ModelSerializer):
    secret_hint = serializers.CharField(read_only=True)

    class Meta:
        model = WebhookEndpoint
        fields = ["url", "enabled", "disabled_reason", "consecutive_failures", "secret_hint"]


class SecretSerializer(serializers.Serializer):
    secret = serializers.CharField(help_text="Shown this once: store it now.")


class SubscriptionSerializer(serializers.ModelSerializer):
    source_ids = serializers.SerializerMethodField()
    reading_levels = serializers.ListField(
        child=serializers.ChoiceField(choices=LEVELS),
        required=False,
        help_text="Keep only items rated at these reading levels; empty = any level.",
    )

    email_recipient = serializers.SerializerMethodField(
        help_text="Where email briefs go: email_to, else the account's address."
    )
    webhook_url = serializers.CharField(
        write_only=True,
        required=False,
        allow_blank=True,
        help_text="Set: each brief is POSTed there as signed JSON. Empty string: no webhook.",
    )
    webhook = serializers.SerializerMethodField()
    webhook_secret = serializers.CharField(
        read_only=True,
        required=False,
        help_text="Only in the response that created the webhook: its signing secret, shown "
        "this once.",
    )

    class Meta:
        model = Subscription
        fields = [
            "id",
            "name",
            "topic",
            "interests",
            "negative_keywords",
            "source_ids",
            "min_score",
            "max_items",
            "content_window_hours",
            "redelivery",
            "cooldown_days",
            "cron",
            "timezone",
            "run_at",
            "language_mode",
            "output_locale",
            "summaries_enabled",
            "narrative_enabled",
            "tone",
            "reading_levels",
            "email_enabled",
            "email_to",
            "email_subject",
            "email_recipient",
            "email_error",
            "email_error_at",
            "webhook_url",
            "webhook",
            "webhook_secret",
            "status",
            "paused_reason",
            "next_run_at",
            "last_run_at",
            "created_at",
        ]
        read_only_fields = ["email_error", "email_error_at"]

    def get_source_ids(self, obj) -> list[int]:
        return sorted(s.source_id for s in obj.subscriptionsource_set.all())

    def get_email_recipient(self, obj) -> str:
        return recipient_for(obj)

    @extend_schema_field(WebhookSerializer(allow_null=True))
    def get_webhook(self, obj) -> dict | None:
        try:
            endpoint = obj.webhook
        except WebhookEndpoint.DoesNotExist:
            return None
        return WebhookSerializer(endpoint).data

    def to_representation(self, instance):
        data = super().to_representation(instance)
        secret = getattr(instance, "webhook_secret", None)
        if secret:
            data["webhook_secret"] = secret
        else:
            data.pop("webhook_secret", None)
        return data


class RunSerializer(serializers.ModelSerializer):
    credits_charged = serializers.IntegerField(
        read_only=True, help_text="Credits the run's one ledger charge took (0 when none)."
    )
    credits_refunded = serializers.IntegerField(
        read_only=True, help_text="Credits given back because the run delivered nothing."
    )
    error_code = serializers.CharField(
        read_only=True,
        help_text=(
            "Why a failed run failed: 'insufficient_credits' when the budget check refused it "
            "before it started (it cost nothing; billing_breakdown.budget has the figures)."
        ),
    )

    class Meta:
        model = Run
        fields = [
            "id",
            "subscription_id",
            "status",
            "trigger",
            "scheduled_at",
            "started_at",
            "finished_at",
            "output_locale",
            "candidates_count",
            "selected_count",
            "delivered_count",
            "dedup_skipped_count",
            "redelivered_count",
            "billing_breakdown",
            "credits_charged",
            "credits_refunded",
            "empty_reason",
            "error",
            "error_code",
        ]


class RunItemSerializer(serializers.ModelSerializer):
    class Meta:
        model = RunItem
        fields = [
            "rank",
            "title",
            "url",
            "summary",
            "summary_generator",
            "source_name",
            "reason",
            "overall",
        ]


class RunDetailSerializer(RunSerializer):
    items = RunItemSerializer(many=True, read_only=True)
    narrative_md = serializers.CharField()
    deliveries = DeliverySerializer(many=True, read_only=True)

    class Meta(RunSerializer.Meta):
        fields = [
            *RunSerializer.Meta.fields,
            "narrative_md",
            "narrative_generator",
            "items",
            "deliveries",
        ]


TIER_LIMIT = OpenApiResponse(
    description=(
        'A limit of the plan: {"error": {"code": "tier_limit", "message", "fields"}} with '
        "`fields` naming the field or the limit: `subscriptions`, `cron` (the minimum interval "
        "between runs), `manual_runs_per_hour`, `visibility` (private topics), "
        "`public_topics`, `public_publishes_per_day`."
    )
)


def _owned(request, subscription_id: int) -> Subscription:
    return get_object_or_404(Subscription.objects.alive(), pk=subscription_id, owner=request.user)


def _with_credits(run_id: int) -> Run:
    """The run as it is now (a sync worker may have run it already), with its credits."""
    return charges.with_credits(Run.objects.all()).get(pk=run_id)


def _service_call(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except subscriptions.SubscriptionInputError as exc:
        raise APIInputError(exc.errors) from None


class SubscriptionListView(ListAPIView):
    serializer_class = SubscriptionSerializer

    def get_queryset(self):
        return (
            Subscription.objects.alive()
            .filter(owner=self.request.user)
            .select_related("owner", "webhook")
            .prefetch_related("subscriptionsource_set")
        )

    @extend_schema(
        request=SubscriptionSerializer, responses={201: SubscriptionSerializer, 403: TIER_LIMIT}
    )
    def post(self, request):
        if not isinstance(request.data, dict):
            raise APIInputError({"non_field_errors": "Send a JSON object."})
        subscription = _service_call(
            subscriptions.create_subscription, request.user, request.data, now=timezone.now()
        )
        return Response(SubscriptionSerializer(subscription).data, status=status.HTTP_201_CREATED)


class SubscriptionDetailView(APIView):
    @extend_schema(responses=SubscriptionSerializer)
    def get(self, request, subscription_id: int):
        return Response(SubscriptionSerializer(_owned(request, subscription_id)).data)

    @extend_schema(
        request=SubscriptionSerializer, responses={200: SubscriptionSerializer, 403: TIER_LIMIT}
    )
    def patch(self, request, subscription_id: int):
        subscription = _owned(request, subscription_id)
        if not isinstance(request.data, dict):
            raise APIInputError({"non_field_errors": "Send a JSON object."})
        _service_call(
            subscriptions.update_subscription, subscription, request.data, now=timezone.now()
        )
        return Response(SubscriptionSerializer(subscription).data)

    @extend_schema(responses={204: None})
    def delete(self, request, subscription_id: int):
        subscriptions.soft_delete(_owned(request, subscription_id), now=timezone.now())
        return Response(status=status.HTTP_204_NO_CONTENT)


class SubscriptionRunNowView(APIView):
    @extend_schema(request=None, responses={202: RunSerializer, 403: TIER_LIMIT})
    def post(self, request, subscription_id: int):
        run = subscriptions.request_manual_run(_owned(request, subscription_id), now=timezone.now())
        enqueue_run(run.pk)
        return Response(RunSerializer(_with_credits(run.pk)).data, status=status.HTTP_202_ACCEPTED)


class SubscriptionRunsView(ListAPIView):
    serializer_class = RunSerializer

    def get_queryset(self):
        subscription = _owned(self.request, self.kwargs["subscription_id"])
        return charges.with_credits(Run.objects.filter(subscription=subscription))


class RunDetailView(APIView):
    @extend_schema(responses=RunDetailSerializer)
    def get(self, request, run_id: int):
        runs = charges.with_credits(Run.objects.prefetch_related("items", "deliveries"))
        run = get_object_or_404(runs, pk=run_id, user=request.user)
        return Response(RunDetailSerializer(run).data)


class SubscriptionPauseView(APIView):
    @extend_schema(request=None, responses=SubscriptionSerializer)
    def post(self, request, subscription_id: int):
        subscription = _owned(request, subscription_id)
        subscriptions.pause(subscription)
        return Response(SubscriptionSerializer(subscription).data)


class SubscriptionResumeView(APIView):
    @extend_schema(request=None, responses={200: SubscriptionSerializer, 403: TIER_LIMIT})
    def post(self, request, subscription_id: int):
        subscription = _owned(request, subscription_id)
        subscriptions.resume(subscription, now=timezone.now())
        return Response(SubscriptionSerializer(subscription).data)


class PreviewItemSerializer(serializers.Serializer):
    item_id = serializers.IntegerField()
    title = serializers.CharField()
    url = serializers.URLField(source="canonical_url")
    source_name = serializers.CharField(source="site_name")
    published_at = serializers.DateTimeField()
    relevance = serializers.IntegerField()
    overall = serializers.IntegerField()
    reason = serializers.CharField()
    redelivery = serializers.BooleanField()


class PreviewSerializer(serializers.Serializer):
    candidates_count = serializers.IntegerField()
    above_min_score = serializers.IntegerField()
    dedup_skipped = serializers.IntegerField()
    selected = PreviewItemSerializer(many=True)
    empty_reason = serializers.CharField()
    interests = serializers.ListField(
        child=serializers.CharField(), help_text="The interests the preview matched."
    )
    advice = serializers.CharField(
        help_text="When nothing would be delivered: why, and what to change (in the asker's "
        "language)."
    )


class SubscriptionPreviewView(APIView):
    """What a run would deliver now: the run's pipeline, nothing written, never charged."""

    throttle_classes = [UserRateThrottle, LiveScopedRateThrottle]
    throttle_scope = "subscription_preview"

    def _preview(self, request, subscription_id: int) -> Response:
        subscription = _owned(request, subscription_id)
        selection = runner.preview(subscription, now=timezone.now())
        return Response(PreviewSerializer(selection).data)

    @extend_schema(request=None, responses=PreviewSerializer)
    def get(self, request, subscription_id: int):
        return self._preview(request, subscription_id)

    @extend_schema(request=None, responses=PreviewSerializer)
    def post(self, request, subscription_id: int):
        return self._preview(request, subscription_id)


def _model_allowed(request) -> bool:
    """Whether this request may ask the model for interests: a per-user allowance (the
    `interests` throttle scope, shared with the console); past it the extractor answers."""
    return not llm.is_configured() or wait_before_another(request, "interests") is None


class DraftPreviewView(APIView):
    """What a subscription not created yet would deliver now: the same fields as creating
    one (none required), nothing written, never charged. Interests left empty are derived
    from the topic, as creating would."""

    throttle_classes = [UserRateThrottle, LiveScopedRateThrottle]
    throttle_scope = "subscription_preview"

    @extend_schema(
        operation_id="v1_subscriptions_draft_preview",
        request=SubscriptionSerializer,
        responses=PreviewSerializer,
    )
    def post(self, request):
        if not isinstance(request.data, dict):
            raise APIInputError({"non_field_errors": "Send a JSON object."})
        data = request.data
        needs_model = bool(data.get("topic")) and not data.get("interests")
        draft = _service_call(
            subscriptions.draft,
            request.user,
            data,
            now=timezone.now(),
            use_model=not needs_model or _model_allowed(request),
        )
        selection = runner.preview(
            draft.subscription, now=timezone.now(), source_ids=draft.source_ids
        )
        return Response(PreviewSerializer(selection).data)


class InterestsQuerySerializer(serializers.Serializer):
    topic = serializers.CharField(max_length=500, help_text="What to keep up with, in plain words")
    locale = serializers.CharField(
        max_length=16,
        required=False,
        help_text="Language of the reader (en, zh-hans, ja, ko); default: the asker's UI language",
    )


class InterestsSerializer(serializers.Serializer):
    interests = serializers.ListField(child=serializers.CharField())
    negative_keywords = serializers.ListField(child=serializers.CharField())
    source = serializers.ChoiceField(
        choices=[topic_interests.MODEL, topic_interests.WORDS],
        help_text="`model`: suggested by the AI model (cached per topic and language); "
        "`words`: taken from the topic's words (no model key, the model failed, or this "
        "user's allowance of model suggestions is spent)",
    )


class InterestsView(APIView):
    """Interests (and negative keywords) for a topic in plain words: what creating a
    subscription with only a topic would store, to show and edit before creating it."""

    @extend_schema(request=InterestsQuerySerializer, responses=InterestsSerializer)
    def post(self, request):
        query = InterestsQuerySerializer(data=request.data)
        query.is_valid(raise_exception=True)
        locale = query.validated_data.get("locale") or subscriptions.user_locale(request.user)
        suggestion = topic_interests.suggest(
            query.validated_data["topic"],
            locale=locale,
            now=timezone.now(),
            use_model=_model_allowed(request),
        )
        return Response(InterestsSerializer(suggestion).data)


class RunRetryView(APIView):
    @extend_schema(request=None, responses={202: RunSerializer})
    def post(self, request, run_id: int):
        run = get_object_or_404(Run, pk=run_id, user=request.user)
        try:
            run = subscriptions.retry_run(run, now=timezone.now())
        except subscriptions.RunStateError as exc:
            raise APIConflictError(exc.message, {"status": exc.message}) from None
        enqueue_run(run.pk)
        return Response(RunSerializer(_with_credits(run.pk)).data, status=status.HTTP_202_ACCEPTED)


# A "+" in a query string arrives as a space: "…T08:00:00 01:00" means "+01:00".
_SPACED_OFFSET = re.compile(r"^(.*T[\d:.]+) (\d{2}:?\d{2})$")


class AwareDateTimeField(serializers.DateTimeField):
    """ISO 8601 with a UTC offset; a naive time is refused rather than guessed."""

    def to_internal_value(self, value) -> datetime:
        text = _SPACED_OFFSET.sub(r"\1+\2", str(value).strip())
        try:
            parsed = datetime.fromisoformat(text)
        except ValueError:
            raise serializers.ValidationError(
                "Must be an ISO 8601 date and time, e.g. 2026-01-05T08:00:00Z."
            ) from None
        if parsed.tzinfo is None:
            raise serializers.ValidationError(
                "Must include a UTC offset, e.g. 2026-01-05T08:00:00Z or +01:00."
            )
        if not 1970 <= parsed.year <= 2199:
            raise serializers.ValidationError("Must be between the years 1970 and 2199.")
        return parsed


class SchedulePreviewQuerySerializer(serializers.Serializer):
    cron = serializers.CharField(max_length=120, help_text="e.g. `0 8 * * 1-5` or `@daily`")
    timezone = serializers.CharField(max_length=64, default="UTC", help_text="IANA name")
    count = serializers.IntegerField(min_value=1, max_value=20, default=5)
    after = AwareDateTimeField(
        required=False, help_text="ISO 8601 with an offset; runs strictly after it (default now)"
    )

    def validate_cron(self, value: str) -> str:
        try:
            schedule.normalize_cron(value)
        except schedule.ScheduleError as exc:
            raise serializers.ValidationError(exc.message) from None
        return value

    def validate_timezone(self, value: str) -> str:
        try:
            schedule.validate_timezone(value)
        except schedule.ScheduleError as exc:
            raise serializers.ValidationError(exc.message) from None
        return value


class SchedulePreviewSerializer(serializers.Serializer):
    next_runs = serializers.ListField(
        child=serializers.DateTimeField(), help_text="ISO 8601 instants in UTC"
    )
    description = serializers.CharField()


def _utc_iso(instant: datetime) -> str:
    return instant.astimezone(UTC).isoformat().replace("+00:00", "Z")


class SchedulePreviewView(APIView):
    """The next runs of a cron schedule in a time zone, and the schedule in plain words."""

    permission_classes = [AllowAny]
    throttle_classes = [ScopedIPRateThrottle]
    throttle_scope = "schedule_preview"

    @extend_schema(parameters=[SchedulePreviewQuerySerializer], responses=SchedulePreviewSerializer)
    def get(self, request):
        query = SchedulePreviewQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        cron, zone = query.validated_data["cron"], query.validated_data["timezone"]
        after = query.validated_data.get("after") or timezone.now()
        runs = schedule.next_runs(cron, zone, after, query.validated_data["count"])
        return Response(
            {
                "next_runs": [_utc_iso(run) for run in runs],
                "description": describe_schedule(cron, zone),
            }
        )


# --- Delivery: the log, retrying one, the webhook's secret, test event and switch ----------


def _webhook(request, subscription_id: int) -> WebhookEndpoint:
    return get_object_or_404(WebhookEndpoint, subscription=_owned(request, subscription_id))


class SubscriptionDeliveriesView(ListAPIView):
    """Every email, webhook and test event of a subscription, newest first."""

    serializer_class = DeliverySerializer

    def get_queryset(self):
        subscription = _owned(self.request, self.kwargs["subscription_id"])
        return Delivery.objects.filter(subscription=subscription)


class DeliveryRetryView(APIView):
    @extend_schema(request=None, responses={202: DeliverySerializer})
    def post(self, request, delivery_id: int):
        delivery = get_object_or_404(
            Delivery,
            pk=delivery_id,
            subscription__owner=request.user,
            subscription__deleted_at__isnull=True,
        )
        try:
            delivery = service.retry_delivery(delivery, now=timezone.now())
        except service.DeliveryStateError as exc:
            raise APIConflictError(exc.message, {"status": exc.message}) from None
        enqueue_delivery(delivery.pk)
        delivery.refresh_from_db()
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)


class WebhookRotateSecretView(APIView):
    @extend_schema(request=None, responses=SecretSerializer)
    def post(self, request, subscription_id: int):
        endpoint = _webhook(request, subscription_id)
        return Response({"secret": endpoints.rotate_secret(endpoint, now=timezone.now())})


class WebhookTestView(APIView):
    """Send a test event now (once, no retries) and answer with how it went."""

    @extend_schema(request=None, responses=DeliverySerializer)
    def post(self, request, subscription_id: int):
        endpoint = _webhook(request, subscription_id)
        delivery = service.send_test_event(endpoint, now=timezone.now())
        return Response(DeliverySerializer(delivery).data)


class WebhookSwitchView(APIView):
    enabled = True

    @extend_schema(request=None, responses=WebhookSerializer)
    def post(self, request, subscription_id: int):
        endpoint = _webhook(request, subscription_id)
        endpoints.set_enabled(endpoint, self.enabled, now=timezone.now())
        return Response(WebhookSerializer(endpoint).data)
