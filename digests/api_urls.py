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
]
