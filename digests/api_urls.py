from django.urls import path

from digests import api

urlpatterns = [
    path("subscriptions", api.SubscriptionListView.as_view(), name="api-subscriptions"),
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
]
