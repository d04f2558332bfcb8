from django.urls import path

from ingest import api

urlpatterns = [
    path("sources", api.SourceListView.as_view(), name="api-sources"),
    path("sources/<int:user_source_id>", api.SourceDetailView.as_view(), name="api-source"),
]
