from django.urls import path

from digests.platform import api as admin_api

urlpatterns = [
    path("stats", admin_api.AdminStatsView.as_view(), name="api-admin-stats"),
]
