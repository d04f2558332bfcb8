from django.urls import path

from digests.subscriptions import api

urlpatterns = [
    path("subscriptions", api.SubscriptionListView.as_view(), name="api-subscriptions"),
    path(
        "subscriptions/preview",
        api.DraftPreviewView.as_view(),
        name="api-subscription-draft-preview",
    ),
    path("interests", api.InterestsView.as_view(), name="api-interests"),
    path(
        "subscriptions/<int:subscription_id>",
        api.SubscriptionDetailView.as_view(),
        name="api-subscription",
    ),
    path(
        "subscriptions/<int:subscription_id>/run",
        api.SubscriptionRunNowView.as_view(),
        name="api-subscription-run",
    ),
    path(
        "subscriptions/<int:subscription_id>/runs",
        api.SubscriptionRunsView.as_view(),
        name="api-subscription-runs",
    ),
    path("runs/<int:run_id>", api.RunDetailView.as_view(), name="api-run"),
    path(
        "subscriptions/<int:subscription_id>/pause",
        api.SubscriptionPauseView.as_view(),
        name="api-subscription-pause",
    ),
    path(
        "subscriptions/<int:subscription_id>/resume",
        api.SubscriptionResumeView.as_view(),
        name="api-subscription-resume",
    ),
    path(
        "subscriptions/<int:subscription_id>/preview",
        api.SubscriptionPreviewView.as_view(),
        name="api-subscription-preview",
    ),
    path("runs/<int:run_id>/retry", api.RunRetryView.as_view(), name="api-run-retry"),
    path("schedule/preview", api.SchedulePreviewView.as_view(), name="api-schedule-preview"),
    path(
        "subscriptions/<int:subscription_id>/deliveries",
        api.SubscriptionDeliveriesView.as_view(),
        name="api-subscription-deliveries",
    ),
    path(
        "deliveries/<int:delivery_id>/retry",
        api.DeliveryRetryView.as_view(),
        name="api-delivery-retry",
    ),
    path(
        "subscriptions/<int:subscription_id>/webhook/rotate-secret",
        api.WebhookRotateSecretView.as_view(),
        name="api-webhook-rotate",
    ),
    path(
        "subscriptions/<int:subscription_id>/webhook/test",
        api.WebhookTestView.as_view(),
        name="api-webhook-test",
    ),
    path(
        "subscriptions/<int:subscription_id>/webhook/enable",
        api.WebhookSwitchView.as_view(enabled=True),
        name="api-webhook-enable",
    ),
    path(
        "subscriptions/<int:subscription_id>/webhook/disable",
        api.WebhookSwitchView.as_view(enabled=False),
        name="api-webhook-disable",
    ),
]
