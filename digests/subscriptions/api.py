"""/api/v1/subscriptions, /api/v1/runs and /api/v1/deliveries: thin callers of the same services
as the console.

A tier limit (billing.limits.TierLimitError) is answered 403 with code `tier_limit` by the
API's exception handler, whichever view meets it."""

from __future__ import annotations

import functools
from datetime import UTC, datetime
from types import SimpleNamespace

from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from billing import charges
from config.api.errors import APIConflictError, APIInputError
from config.api.fields import (
    AwareDateTimeField,
    CronField,
    HttpUrlField,
    IdField,
    QueryIntegerField,
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
    StrictListField,
    TimeZoneField,
)
from config.api.responses import created
from config.api.schema import ERROR_RESPONSE
from config.api.serializers import (
    ResponseModelSerializer,
    ResponseSerializer,
    StrictSerializer,
    read_body,
    read_query,
)
from config.api.sync import UPDATED_SINCE, read_updated_since, updated_since_parameter
from config.api.throttling import ScopedIPRateThrottle, wait_before_another
from config.compiled_query import PLACEHOLDER_ID, CompiledQuery, placeholder_id
from config.moments import moment
from digests.ai import llm
from digests.delivery import endpoints, service, subject
from digests.delivery.addresses import recipient_for
from digests.models import (
    MAX_ITEMS_HARD_CAP,
    SOURCE_WEIGHT_MAX,
    SOURCE_WEIGHT_MIN,
    Delivery,
    Run,
    RunItem,
    Subscription,
    SubscriptionSource,
    WebhookEndpoint,
)
from digests.narrative.reasons import why_selected
from digests.runs import runner
from digests.schedules import next_run as schedule
from digests.schedules.words import describe_schedule
from digests.subscriptions import interests as topic_interests
from digests.subscriptions import service as subscriptions
from digests.subscriptions.service import LENGTH_PRESETS, OUTPUT_LOCALES
from digests.tasks import enqueue_delivery, enqueue_run
from inbox.idempotency import idempotent
from ingest.text.reading import LEVELS
from ingest.text.sections import SECTIONS


class DeliverySerializer(ResponseModelSerializer):
    run_id = serializers.IntegerField(allow_null=True, help_text="Null for test events.")
    gave_up = serializers.BooleanField(
        help_text="Failed and not retried any more (permanent, or out of tries)."
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


class WebhookSerializer(ResponseModelSerializer):
    secret_hint = serializers.CharField()

    class Meta:
        model = WebhookEndpoint
        fields = ["url", "enabled", "disabled_reason", "consecutive_failures", "secret_hint"]


class SecretSerializer(ResponseSerializer):
    # The same name as in the response that created the webhook.
    webhook_secret = serializers.CharField(help_text="Shown this once: store it now.")


class SubscriptionSerializer(ResponseModelSerializer):
    # Lists of strings, typed as such in the schema (a JSON model field is typed as anything).
    interests = serializers.ListField(
        child=serializers.CharField(), help_text="Words or phrases an item should mention."
    )
    negative_keywords = serializers.ListField(
        child=serializers.CharField(), help_text="Items mentioning any of these are left out."
    )
    source_ids = serializers.SerializerMethodField()
    source_weights = serializers.SerializerMethodField(
        help_text="How much each source counts in the ranking, by source id: 1 is normal, "
        f"{SOURCE_WEIGHT_MIN} to {SOURCE_WEIGHT_MAX:g}."
    )
    reading_levels = serializers.ListField(
        child=serializers.ChoiceField(choices=LEVELS),
        help_text="Keep only items rated at these reading levels; empty = any level.",
    )
    sections = serializers.ListField(
        child=serializers.ChoiceField(choices=list(SECTIONS)),
        help_text="Keep only items of these sections; empty = any section.",
    )

    email_recipient = serializers.SerializerMethodField(
        help_text="Where email briefs go: email_to, else the account's address."
    )
    webhook = serializers.SerializerMethodField()
    webhook_secret = serializers.CharField(
        help_text="Only in the response that created the webhook: its signing secret, shown "
        "this once.",
    )
    answered_sometimes = ("webhook_secret",)

    class Meta:
        model = Subscription
        fields = [
            "id",
            "name",
            "topic",
            "interests",
            "negative_keywords",
            "source_ids",
            "source_weights",
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
            "sections",
            "email_enabled",
            "email_to",
            "email_subject",
            "email_recipient",
            "email_error",
            "email_error_at",
            "webhook",
            "webhook_secret",
            "status",
            "paused_reason",
            "next_run_at",
            "last_run_at",
            "created_at",
        ]

    def get_source_ids(self, obj) -> list[int]:
        return sorted(s.source_id for s in obj.subscriptionsource_set.all())

    @extend_schema_field(
        serializers.DictField(child=serializers.FloatField(), help_text="By source id.")
    )
    def get_source_weights(self, obj) -> dict[str, float]:
        return {
            str(s.source_id): s.weight
            for s in sorted(obj.subscriptionsource_set.all(), key=lambda s: s.source_id)
        }

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


def _schedule_rule(check, value: str, *, combination: bool = True) -> str:
    """`value` when digests.schedules.next_run's `check` takes it, else its message as a field
    error. With `combination=False` an expression whose fields are valid but never fire
    together passes: the service refuses it after the other fields (422)."""
    try:
        check(value)
    except schedule.ScheduleError as exc:
        if exc.code == "invalid" or combination:
            raise serializers.ValidationError(exc.message) from None
    return value


def _keywords(help_text: str) -> serializers.ListField:
    return StrictListField(
        child=StrictCharField(max_length=100),
        max_length=30,
        required=False,
        help_text=help_text,
    )


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": {
            "type": "number",
            "minimum": SOURCE_WEIGHT_MIN,
            "maximum": SOURCE_WEIGHT_MAX,
        },
    }
)
class SourceWeightsField(serializers.DictField):
    """{source id: weight}; the service checks each (its message names the rule)."""

    def __init__(self, **kwargs):
        super().__init__(child=serializers.JSONField(), **kwargs)


class SubscriptionInputSerializer(StrictSerializer):
    """What a client sends to create (POST) or change (PATCH, any subset) a subscription. Only
    types and sizes are checked here; the rules and their messages are the service's
    (digests.subscriptions.service.clean_input), shared with the console."""

    name = StrictCharField(max_length=200)
    topic = StrictCharField(max_length=500, allow_blank=True, required=False)
    interests = _keywords("Words or phrases an item should mention (at most 30).")
    negative_keywords = _keywords("Items mentioning any of these are left out.")
    source_ids = StrictListField(
        child=IdField(),
        max_length=500,
        required=False,
        help_text="Sources from your library (`source_id` of /api/v1/sources).",
    )
    source_weights = SourceWeightsField(
        required=False,
        help_text="How much a source counts in the ranking, by source id (a key of this "
        f"subscription's source_ids): a number from {SOURCE_WEIGHT_MIN} to "
        f"{SOURCE_WEIGHT_MAX:g}, 1 is normal; sources not named keep theirs.",
    )
    length = StrictChoiceField(
        choices=list(LENGTH_PRESETS),
        required=False,
        help_text="A preset for max_items: brief 10, standard 20, deep 30.",
    )
    min_score = StrictIntegerField(min_value=0, max_value=100, required=False)
    max_items = StrictIntegerField(min_value=1, max_value=MAX_ITEMS_HARD_CAP, required=False)
    content_window_hours = StrictIntegerField(min_value=1, max_value=24 * 90, required=False)
    redelivery = StrictChoiceField(choices=Subscription.Redelivery.choices, required=False)
    cooldown_days = StrictIntegerField(min_value=1, max_value=365, required=False)
    cron = CronField(
        allow_blank=True,
        required=False,
        help_text="A cron expression or macro (`0 8 * * 1-5`, `@daily`); empty with run_at.",
    )
    timezone = TimeZoneField(required=False, help_text="IANA name")
    run_at = AwareDateTimeField(
        allow_null=True, required=False, help_text="A one-off run instead of a cron schedule."
    )
    language_mode = StrictChoiceField(choices=Subscription.LanguageMode.choices, required=False)
    output_locale = StrictCharField(
        max_length=16,
        # One of OUTPUT_LOCALES, in any case (the service lowers it).
        schema_pattern="^("
        + "|".join(
            "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in locale)
            for locale in OUTPUT_LOCALES
        )
        + ")$",
        allow_blank=True,
        required=False,
        help_text=f"One of {', '.join(OUTPUT_LOCALES)} (any case); needed when language_mode "
        "is fixed.",
    )
    summaries_enabled = StrictBooleanField(required=False)
    narrative_enabled = StrictBooleanField(required=False)
    tone = StrictCharField(max_length=32, required=False)
    reading_levels = StrictListField(
        child=StrictChoiceField(choices=LEVELS), max_length=len(LEVELS), required=False
    )
    sections = StrictListField(
        child=StrictChoiceField(choices=list(SECTIONS)),
        max_length=len(SECTIONS),
        required=False,
        help_text=f"Article sections to keep, of {', '.join(SECTIONS)}; empty = any. An item "
        "whose section is not known is left out while any is chosen.",
    )
    email_enabled = StrictBooleanField(required=False, help_text="Email each brief too.")
    email_to = StrictCharField(
        max_length=254,
        allow_blank=True,
        required=False,
        # A subset of what Django's validate_email takes (the service checks that).
        schema_pattern=r"^[A-Za-z0-9_+-]+(\.[A-Za-z0-9_+-]+)*@"
        r"([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$",
        help_text="Empty: your account's.",
    )
    email_subject = StrictCharField(
        max_length=200,
        allow_blank=True,
        required=False,
        # One line; braces only as a placeholder the subject knows or doubled (digests/delivery/
        # subject.py checks the same).
        schema_pattern=r"^([^{}\x00\r\n]|\{\{|\}\}|\{("
        + "|".join(subject.PLACEHOLDERS)
        + r")\})+$",
        help_text="The e-mail's subject, one line, with {name}, {date}, {count} or {topic}; "
        "empty: the brief's default subject.",
    )
    webhook_url = HttpUrlField(
        allow_blank=True,
        required=False,
        help_text="Set: each brief is POSTed there as signed JSON. Empty string: no webhook.",
    )

    # The schedule's rules are checked here too (the same functions as the service) so that
    # one answer names every refused field, not only those the types let through.
    def validate_cron(self, value: str) -> str:
        return _schedule_rule(schedule.normalize_cron, value, combination=False) if value else value

    def validate_timezone(self, value: str) -> str:
        return _schedule_rule(schedule.validate_timezone, value)


class SubscriptionDraftSerializer(SubscriptionInputSerializer):
    """The same fields as creating a subscription, none required (a draft to preview)."""

    name = StrictCharField(max_length=200, required=False)


class RunSerializer(ResponseModelSerializer):
    subscription_id = serializers.IntegerField()
    credits_charged = serializers.IntegerField(
        help_text="Credits the run's one ledger charge took (0 when none)."
    )
    credits_refunded = serializers.IntegerField(
        help_text="Credits given back because the run delivered nothing."
    )
    error_code = serializers.CharField(
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


class RunItemSerializer(ResponseModelSerializer):
    reason = serializers.SerializerMethodField(help_text="Why it was selected, in your language.")

    def get_reason(self, obj) -> str:
        return why_selected(obj)

    class Meta:
        model = RunItem
        fields = [
            "id",
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
    items = RunItemSerializer(many=True)
    deliveries = DeliverySerializer(many=True)

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


@functools.cache
def _subscription_writer() -> SubscriptionSerializer:
    """A SubscriptionSerializer with its fields built once: it reads nothing from a request or
    a context, and the time zone of its dates is looked up on each value."""
    return SubscriptionSerializer()


# SubscriptionSerializer's fields that are the subscription's own columns, written by the kept
# serializer's own fields (so the same bytes: dates in the active zone, choices, lists); the
# others are written by `subscription_rows` as the serializer's methods write them.
_WRITTEN_FROM_ROWS = ("source_ids", "source_weights", "email_recipient", "webhook")
_COLUMNS = tuple(
    name
    for name in SubscriptionSerializer.Meta.fields
    if name not in _WRITTEN_FROM_ROWS and name not in SubscriptionSerializer.answered_sometimes
)
_WEBHOOK_COLUMNS = ("url", "enabled", "disabled_reason", "consecutive_failures", "secret")
_ROW_COLUMNS = (
    *_COLUMNS,
    "owner__email",
    "webhook__id",
    *(f"webhook__{name}" for name in _WEBHOOK_COLUMNS),
)


@functools.cache
def _webhook_writer() -> WebhookSerializer:
    return WebhookSerializer()


def _owned_rows(owner_id):
    return Subscription.objects.alive().filter(owner=owner_id).values(*_ROW_COLUMNS)


# The first page of the list at the default size, as clients poll it, and the sources of any
# page of the whole list: compiled once (config/compiled_query.py) — building them through the
# ORM took longer than running them. Sources are read by the page's id range among the owner's
# subscriptions: a page of the list, newest first, is a run of its consecutive ids (those of a
# deleted subscription in between are read and ignored).
_FIRST_PAGES: dict[int, CompiledQuery] = {}
_SOURCES_IN_RANGE = CompiledQuery(
    lambda owner_id, lowest, highest: SubscriptionSource.objects.filter(
        subscription__owner=owner_id,
        subscription_id__gte=lowest,
        subscription_id__lte=highest,
    ).values("subscription_id", "source_id", "weight"),
    *(placeholder_id(n) for n in range(3)),
)


def _first_page(owner_id: int, rows: int) -> list[dict]:
    compiled = _FIRST_PAGES.get(rows)
    if compiled is None:
        compiled = _FIRST_PAGES[rows] = CompiledQuery(
            lambda owner: _owned_rows(owner).order_by("-id")[:rows], PLACEHOLDER_ID
        )
    return compiled.all(owner_id)


def _sources_of_page(owner_id: int, page: list[dict]) -> list[tuple[int, int, float]]:
    if not page:
        return []
    ids = [row["id"] for row in page]
    found = _SOURCES_IN_RANGE.all(owner_id, min(ids), max(ids))
    return [(row["subscription_id"], row["source_id"], row["weight"]) for row in found]


def subscription_rows(rows: list[dict], sources=None) -> list[dict]:
    """Subscriptions as SubscriptionSerializer writes them (without `webhook_secret`, only
    ever in the answer that made the webhook), from `values(*_ROW_COLUMNS)` rows; their sources
    (`(subscription_id, source_id, weight)`, others' ignored) read in one query if not given."""
    weights: dict[int, list[tuple[int, float]]] = {row["id"]: [] for row in rows}
    if sources is None:
        sources = SubscriptionSource.objects.filter(subscription_id__in=list(weights)).values_list(
            "subscription_id", "source_id", "weight"
        )
    for subscription_id, source_id, weight in sources:
        if subscription_id in weights:
            weights[subscription_id].append((source_id, weight))
    fields = _subscription_writer().fields
    webhook_fields = _webhook_writer().fields
    written = []
    for row in rows:
        sources = sorted(weights[row["id"]], key=lambda pair: pair[0])
        webhook = None
        if row["webhook__id"] is not None:
            values = {name: row[f"webhook__{name}"] for name in _WEBHOOK_COLUMNS}
            values["secret_hint"] = WebhookEndpoint.secret_hint.fget(SimpleNamespace(**values))
            webhook = {
                name: None if values[name] is None else field.to_representation(values[name])
                for name, field in webhook_fields.items()
            }
        computed = {
            "source_ids": [source_id for source_id, _weight in sources],
            "source_weights": {str(source_id): weight for source_id, weight in sources},
            "email_recipient": recipient_for(
                SimpleNamespace(
                    email_to=row["email_to"], owner=SimpleNamespace(email=row["owner__email"])
                )
            ),
            "webhook": webhook,
        }
        data = {}
        for name, field in fields.items():
            if name in computed:
                data[name] = computed[name]
            elif name in row:
                value = row[name]
                data[name] = None if value is None else field.to_representation(value)
        written.append(data)
    return written


def _owned(request, subscription_id: int) -> Subscription:
    return get_object_or_404(Subscription.objects.alive(), pk=subscription_id, owner=request.user)


def _with_credits(run_id: int) -> Run:
    """The run as it is now (a sync worker may have run it already), with its credits."""
    return charges.with_credits(Run.objects.all()).get(pk=run_id)


def _service_call(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except subscriptions.SubscriptionInputError as exc:
        raise APIInputError(exc.errors, code=exc.code) from None


class SubscriptionListView(ListAPIView):
    serializer_class = SubscriptionSerializer

    def get_queryset(self):
        # Plain rows (`list`): the owner's address, the webhook and the sources are read with
        # them (subscription_rows), not as related objects.
        subscriptions = _owned_rows(self.request.user.pk)
        since = read_updated_since(self.request)
        if since is not None:
            subscriptions = subscriptions.filter(
                Q(updated_at__gte=since) | Q(last_run_at__gte=since)
            )
        return subscriptions

    @extend_schema(
        parameters=[
            updated_since_parameter(
                "A subscription changes when it is edited, paused, resumed or completed and "
                "when a run of it delivers; its `next_run_at` moving along the schedule is "
                "not a change. Deleted subscriptions are no longer listed."
            )
        ]
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def list(self, request, *args, **kwargs):
        """ListAPIView's list from plain rows (`subscription_rows`): the same bytes as
        SubscriptionSerializer writes, without a model instance per subscription, its owner,
        its webhook and each of its sources (most of the list's time). 3 queries: the token,
        the page, its sources (compiled once: the sources, and the first page at the default
        size)."""
        if UPDATED_SINCE in request.query_params:
            page = self.paginate_queryset(self.get_queryset())
            return self.get_paginated_response(subscription_rows(page))
        owner_id = request.user.pk
        page = self.paginator.paginate_first_page(
            request, lambda rows: _first_page(owner_id, rows), self.get_queryset, view=self
        )
        sources = _sources_of_page(owner_id, page)
        return self.get_paginated_response(subscription_rows(page, sources))

    @extend_schema(
        request=SubscriptionInputSerializer,
        responses={201: SubscriptionSerializer, 403: TIER_LIMIT},
    )
    @idempotent
    def post(self, request):
        data = read_body(SubscriptionInputSerializer, request)
        subscription = _service_call(
            subscriptions.create_subscription, request.user, data, now=timezone.now()
        )
        return created(
            request,
            SubscriptionSerializer(subscription).data,
            "api-subscription",
            subscription_id=subscription.pk,
        )


class SubscriptionDetailView(APIView):
    @extend_schema(responses=SubscriptionSerializer)
    def get(self, request, subscription_id: int):
        return Response(SubscriptionSerializer(_owned(request, subscription_id)).data)

    @extend_schema(
        request=SubscriptionInputSerializer,
        responses={200: SubscriptionSerializer, 403: TIER_LIMIT},
    )
    def patch(self, request, subscription_id: int):
        subscription = _owned(request, subscription_id)
        data = read_body(SubscriptionInputSerializer, request, partial=True)
        _service_call(subscriptions.update_subscription, subscription, data, now=timezone.now())
        return Response(SubscriptionSerializer(subscription).data)

    @extend_schema(responses={204: None})
    def delete(self, request, subscription_id: int):
        subscriptions.soft_delete(_owned(request, subscription_id), now=timezone.now())
        return Response(status=status.HTTP_204_NO_CONTENT)


class SubscriptionRunNowView(APIView):
    @extend_schema(request=None, responses={202: RunSerializer, 403: TIER_LIMIT})
    @idempotent
    def post(self, request, subscription_id: int):
        run = subscriptions.request_manual_run(_owned(request, subscription_id), now=timezone.now())
        enqueue_run(run.pk)
        return Response(RunSerializer(_with_credits(run.pk)).data, status=status.HTTP_202_ACCEPTED)


class SubscriptionRunsView(ListAPIView):
    serializer_class = RunSerializer

    def get_queryset(self):
        subscription = _owned(self.request, self.kwargs["subscription_id"])
        runs = Run.objects.filter(subscription=subscription)
        since = read_updated_since(self.request)
        if since is not None:
            # A run's status changes stamp these times: created (pending), started (running),
            # finished (succeeded or failed), retried (pending again).
            runs = runs.filter(
                Q(created_at__gte=since)
                | Q(started_at__gte=since)
                | Q(finished_at__gte=since)
                | Q(retried_at__gte=since)
            )
        return charges.with_credits(runs)

    @extend_schema(
        parameters=[
            updated_since_parameter(
                "A run changes when it is created, starts, finishes or is retried."
            )
        ]
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


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


class PreviewItemSerializer(ResponseSerializer):
    item_id = serializers.IntegerField()
    title = serializers.CharField()
    url = serializers.CharField(source="canonical_url")
    source_name = serializers.CharField(source="site_name")
    published_at = serializers.DateTimeField(allow_null=True)
    relevance = serializers.IntegerField()
    overall = serializers.IntegerField()
    reason = serializers.CharField()
    redelivery = serializers.BooleanField()


class PreviewSerializer(ResponseSerializer):
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

    throttle_scope = "subscription_preview"

    @extend_schema(
        operation_id="v1_subscriptions_draft_preview",
        request=SubscriptionDraftSerializer,
        responses=PreviewSerializer,
    )
    def post(self, request):
        data = read_body(SubscriptionDraftSerializer, request)
        # Refused as creating would refuse it, even fields the preview does not use.
        _service_call(subscriptions.check_draft, request.user, data, now=timezone.now())
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


class InterestsQuerySerializer(StrictSerializer):
    topic = StrictCharField(max_length=500, help_text="What to keep up with, in plain words")
    locale = StrictCharField(
        max_length=16,
        required=False,
        help_text="Language of the reader (en, zh-hans, ja, ko); default: the asker's UI language",
    )


class InterestsSerializer(ResponseSerializer):
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
        query = read_body(InterestsQuerySerializer, request)
        locale = query.get("locale") or subscriptions.user_locale(request.user)
        suggestion = topic_interests.suggest(
            query["topic"], locale=locale, now=timezone.now(), use_model=_model_allowed(request)
        )
        return Response(InterestsSerializer(suggestion).data)


class RunRetryView(APIView):
    @extend_schema(request=None, responses={202: RunSerializer, 409: ERROR_RESPONSE})
    def post(self, request, run_id: int):
        run = get_object_or_404(Run, pk=run_id, user=request.user)
        try:
            run = subscriptions.retry_run(run, now=timezone.now())
        except subscriptions.RunStateError as exc:
            raise APIConflictError(exc.message, {"status": exc.message}) from None
        enqueue_run(run.pk)
        return Response(RunSerializer(_with_credits(run.pk)).data, status=status.HTTP_202_ACCEPTED)


class SchedulePreviewQuerySerializer(StrictSerializer):
    cron = CronField(help_text="e.g. `0 8 * * 1-5` or `@daily`")
    timezone = TimeZoneField(default="UTC", help_text="IANA name")
    count = QueryIntegerField(
        min_value=1, max_value=20, default=5, help_text="How many next runs, 1 to 20."
    )
    after = AwareDateTimeField(
        required=False, help_text="ISO 8601 with an offset; runs strictly after it (default now)"
    )

    def validate_cron(self, value: str) -> str:
        return _schedule_rule(schedule.normalize_cron, value)

    def validate_timezone(self, value: str) -> str:
        return _schedule_rule(schedule.validate_timezone, value)


class SchedulePreviewSerializer(ResponseSerializer):
    next_runs = serializers.ListField(
        child=serializers.DateTimeField(), help_text="ISO 8601 instants in UTC"
    )
    next_runs_display = serializers.ListField(
        child=serializers.CharField(),
        help_text="The same runs as the product shows times (config/moments.py): local, with zone",
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
        query = read_query(SchedulePreviewQuerySerializer, request)
        cron, zone = query["cron"], query["timezone"]
        after = query.get("after") or timezone.now()
        runs = schedule.next_runs(cron, zone, after, query["count"])
        return Response(
            {
                "next_runs": [_utc_iso(run) for run in runs],
                "next_runs_display": [moment(run, zone) for run in runs],
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
    @extend_schema(request=None, responses={202: DeliverySerializer, 409: ERROR_RESPONSE})
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
        secret = endpoints.rotate_secret(endpoint, now=timezone.now())
        return Response({"webhook_secret": secret})


class WebhookTestView(APIView):
    """Send a test event now (once, no retries) and answer with how it went."""

    @extend_schema(request=None, responses={200: DeliverySerializer, 409: ERROR_RESPONSE})
    def post(self, request, subscription_id: int):
        endpoint = _webhook(request, subscription_id)
        if not endpoint.enabled:
            message = _("The webhook is disabled: enable it before sending a test event.")
            raise APIConflictError(message, {"webhook": message})
        delivery = service.send_test_event(endpoint, now=timezone.now())
        return Response(DeliverySerializer(delivery).data)


class WebhookSwitchView(APIView):
    enabled = True

    @extend_schema(request=None, responses=WebhookSerializer)
    def post(self, request, subscription_id: int):
        endpoint = _webhook(request, subscription_id)
        endpoints.set_enabled(endpoint, self.enabled, now=timezone.now())
        return Response(WebhookSerializer(endpoint).data)
