from django.urls import path

from digests.platform import cache_api

urlpatterns = [
    path("stats", cache_api.CacheStatsView.as_view(), name="api-cache-stats"),
    path("entries", cache_api.CacheEntriesView.as_view(), name="api-cache-entries"),
    path("source-sets", cache_api.SourceSetsView.as_view(), name="api-cache-source-sets"),
]
