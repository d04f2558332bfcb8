"""The API's table of contents: each app contributes its own /api/v1/ routes."""

from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerView

from config.api.schema import SchemaView

urlpatterns = [
    path("schema/", SchemaView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("v1/", include("inbox.api_urls")),
    path("v1/", include("ingest.api_urls")),
    path("v1/", include("digests.api_urls")),
    path("v1/", include("topics.api_urls")),
    path("v1/", include("billing.api_urls")),
    path("v1/admin/cache/", include("digests.cache_api_urls")),
]
