from django.urls import path

from inbox import api

urlpatterns = [
    path("me", api.MeView.as_view(), name="api-me"),
    path("inbox/items", api.InboxItemListView.as_view(), name="api-inbox-items"),
    path("inbox/items/bulk", api.InboxBulkActionView.as_view(), name="api-inbox-bulk"),
    path(
        "inbox/items/<int:run_item_id>/actions",
        api.InboxItemActionView.as_view(),
        name="api-inbox-item-action",
    ),
    path("inbox/stats", api.InboxStatsView.as_view(), name="api-inbox-stats"),
    path("push/config", api.PushConfigView.as_view(), name="api-push-config"),
    path("push/devices", api.PushDeviceListView.as_view(), name="api-push-devices"),
    path(
        "push/devices/<int:device_id>", api.PushDeviceDetailView.as_view(), name="api-push-device"
    ),
]
