from django.urls import path

from inbox import views
from inbox.assistants import views as assistant_views
from inbox.portability import views as portability

app_name = "inbox"
urlpatterns = [
    path("", views.index, name="index"),
    path("runs/<int:run_id>/", views.run_detail, name="run"),
    path("items/<int:run_item_id>/", views.item_action, name="item_act"),
    path("items/<int:run_item_id>/reader/", views.read_item, name="item_read"),
    path("items/<int:run_item_id>/<slug:action>/", views.item_action, name="item_action"),
    path("tokens/", views.tokens, name="tokens"),
    path("preferences/", views.preferences, name="preferences"),
    path("preferences/assistant/", assistant_views.connect_assistant, name="assistant"),
    path("preferences/push/devices/", views.push_device_add, name="push-device-add"),
    path(
        "preferences/push/devices/<int:device_id>/remove/",
        views.push_device_remove,
        name="push-device-remove",
    ),
    path("preferences/export/", portability.export_download, name="export"),
    path("preferences/import/", portability.import_upload, name="import"),
    path("preferences/import/status/", portability.import_status, name="import_status"),
    path("preferences/transfer/", portability.transfer_codes, name="transfer"),
    path("preferences/transfer/pull/", portability.transfer_pull, name="transfer_pull"),
    path("preferences/delete-account/", portability.account_delete, name="delete_account"),
]
