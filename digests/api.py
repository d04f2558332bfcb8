"""/api/v1/subscriptions and /api/v1/runs: thin callers of the same services as the console."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from digests import subscriptions
from digests.models import Run, RunItem, Subscription
from digests.tasks import enqueue_run
from inbox.api_errors import APIInputError


class SubscriptionSerializer(serializers.ModelSerializer):
    source_ids = serializers.SerializerMethodField()

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
            "status",
            "next_run_at",
            "last_run_at",
            "created_at",
        ]

    def get_source_ids(self, obj) -> list[int]:
        return sorted(s.source_id for s in obj.subscriptionsource_set.all())


class RunSerializer(serializers.ModelSerializer):
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
            "empty_reason",
            "error",
        ]


class RunItemSerializer(serializers.ModelSerializer):
    class Meta:
        model = RunItem
        fields = ["rank", "title", "url", "summary", "source_name", "reason", "overall"]


class RunDetailSerializer(RunSerializer):
    items = RunItemSerializer(many=True, read_only=True)
    narrative_md = serializers.CharField()

    class Meta(RunSerializer.Meta):
        fields = [*RunSerializer.Meta.fields, "narrative_md", "items"]


def _owned(request, subscription_id: int) -> Subscription:
    return get_object_or_404(Subscription.objects.alive(), pk=subscription_id, owner=request.user)


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
            .prefetch_related("subscriptionsource_set")
        )

    @extend_schema(request=SubscriptionSerializer, responses={201: SubscriptionSerializer})
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

    @extend_schema(request=SubscriptionSerializer, responses=SubscriptionSerializer)
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
    @extend_schema(request=None, responses={202: RunSerializer})
    def post(self, request, subscription_id: int):
        run = subscriptions.request_manual_run(_owned(request, subscription_id), now=timezone.now())
        enqueue_run(run.pk)
        run.refresh_from_db()
        return Response(RunSerializer(run).data, status=status.HTTP_202_ACCEPTED)


class SubscriptionRunsView(ListAPIView):
    serializer_class = RunSerializer

    def get_queryset(self):
        subscription = _owned(self.request, self.kwargs["subscription_id"])
        return Run.objects.filter(subscription=subscription)


class RunDetailView(APIView):
    @extend_schema(responses=RunDetailSerializer)
    def get(self, request, run_id: int):
        run = get_object_or_404(Run.objects.prefetch_related("items"), pk=run_id, user=request.user)
        return Response(RunDetailSerializer(run).data)
