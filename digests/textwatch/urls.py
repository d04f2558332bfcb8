from django.urls import path, re_path

from digests.textwatch import views

app_name = "watches"

urlpatterns = [
    path("", views.index, name="index"),
    path("<int:watch_id>/", views.detail, name="detail"),
    path("<int:watch_id>/edit/", views.edit, name="edit"),
    re_path(
        r"^(?P<watch_id>[0-9]+)/(?P<action>pause|resume|delete)/$",
        views.change_state,
        name="state",
    ),
    path("targets/", views.add_target, name="add-target"),
    path("targets/<int:target_id>/test/", views.test_target, name="test-target"),
]
