"""/api/v1 delivery endpoints: a subscription's deliveries, retrying one, and its webhook's
secret rotation, test event and on/off. Thin callers of the same services as the console."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.errors import APIConflictError
from digests.delivery import endpoints, service
from digests.models import Delivery, Subscription, WebhookEndpoint
from digests.tasks import enqueue_delivery


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


def _owned(request, subscription_id: int) -> Subscription:
    return get_object_or_404(Subscription.objects.alive(), pk=subscription_id, owner=request.user)


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
