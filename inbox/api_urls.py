from django.urls import path

from inbox import api, api_tokens
from inbox.portability import api as portability_api

urlpatterns = [
    path("me", api_tokens.MeView.as_view(), name="api-me"),
    path("tokens", api_tokens.TokenListView.as_view(), name="api-tokens"),
    path("tokens/<int:token_id>", api_tokens.TokenDetailView.as_view(), name="api-token"),
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
    path("export", portability_api.ExportView.as_view(), name="api-export"),
    path("import", portability_api.ImportView.as_view(), name="api-import"),
    path(
        "import/jobs/<int:job_id>", portability_api.ImportJobView.as_view(), name="api-import-job"
    ),
    path(
        "transfer/codes",
        portability_api.TransferCodeCreateView.as_view(),
        name="api-transfer-codes",
    ),
    path(
        "transfer/codes/<int:code_id>",
        portability_api.TransferCodeRevokeView.as_view(),
        name="api-transfer-code",
    ),
    path(
        "transfer/redeem",
        portability_api.TransferRedeemView.as_view(),
        name="api-transfer-redeem",
    ),
    path("transfer/pull", portability_api.TransferPullView.as_view(), name="api-transfer-pull"),
]
