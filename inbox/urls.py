from django.urls import path

from inbox import views

app_name = "inbox"
urlpatterns = [
    path("", views.index, name="index"),
    path("runs/<int:run_id>/", views.run_detail, name="run"),
    path("items/<int:run_item_id>/", views.item_action, name="item_act"),
    path("items/<int:run_item_id>/<slug:action>/", views.item_action, name="item_action"),
    path("tokens/", views.tokens, name="tokens"),
    path("preferences/", views.preferences, name="preferences"),
    path("preferences/push/devices/", views.push_device_add, name="push-device-add"),
    path(
        "preferences/push/devices/<int:device_id>/remove/",
        views.push_device_remove,
        name="push-device-remove",
    ),
]
