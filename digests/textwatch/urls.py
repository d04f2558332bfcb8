from django.urls import path

from digests.textwatch import views

app_name = "watches"

urlpatterns = [
    path("", views.index, name="index"),
    path("<int:watch_id>/", views.detail, name="detail"),
    path("targets/", views.add_target, name="add-target"),
    path("targets/<int:target_id>/test/", views.test_target, name="test-target"),
]
