from django.urls import path

from ingest import api

urlpatterns = [
    path("sources", api.SourceListView.as_view(), name="api-sources"),
    path("sources/<int:user_source_id>", api.SourceDetailView.as_view(), name="api-source"),
    path("sources/opml", api.OPMLView.as_view(), name="api-sources-opml"),
    path("packs", api.PackListView.as_view(), name="api-packs"),
    path("packs/<slug:key>/install", api.PackInstallView.as_view(), name="api-pack-install"),
]
