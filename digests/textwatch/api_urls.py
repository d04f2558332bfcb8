from django.urls import path

from digests.textwatch import api

urlpatterns = [
    path("watches", api.WatchListView.as_view(), name="api-watches"),
    path("watches/preview", api.WatchPreviewView.as_view(), name="api-watches-preview"),
    path("watches/<int:watch_id>", api.WatchDetailView.as_view(), name="api-watch"),
    path("watches/<int:watch_id>/pause", api.WatchPauseView.as_view(), name="api-watch-pause"),
    path("watches/<int:watch_id>/resume", api.WatchResumeView.as_view(), name="api-watch-resume"),
    path("apprise-targets", api.AppriseTargetListView.as_view(), name="api-apprise-targets"),
    path(
        "apprise-targets/<int:target_id>",
        api.AppriseTargetDetailView.as_view(),
        name="api-apprise-target",
    ),
    path(
        "apprise-targets/<int:target_id>/test",
        api.AppriseTargetTestView.as_view(),
        name="api-apprise-target-test",
    ),
    path(
        "subscriptions/<int:subscription_id>/apprise-targets",
        api.SubscriptionAppriseView.as_view(),
        name="api-subscription-apprise",
    ),
]
