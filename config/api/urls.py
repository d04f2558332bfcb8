"""The API's table of contents: each app contributes its own /api/v1/ routes. Anything else
under /api/ is answered 404 in the error shape (`NoSuchEndpoint`), whatever the method."""

from django.urls import include, path, re_path
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularSwaggerSplitView
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

# Importing it also registers the schema extensions before any schema is made.
from config.api.schema import SchemaView


@extend_schema(exclude=True)
class NoSuchEndpoint(APIView):
    """Every method of every unmatched path: 404, before authentication or throttling."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes: list = []

    def initial(self, request, *args, **kwargs):
        raise NotFound("No such API endpoint. The list is at /api/schema/ and /api/docs/.")


urlpatterns = [
    path("schema/", SchemaView.as_view(), name="api-schema"),
    # The split view serves its start script as a file (?script): no inline script (CSP).
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("v1/", include("inbox.api_urls")),
    path("v1/", include("ingest.api_urls")),
    path("v1/", include("digests.api_urls")),
    path("v1/", include("topics.api_urls")),
    path("v1/", include("billing.api_urls")),
    path("v1/", include("digests.textwatch.api_urls")),
    path("v1/admin/cache/", include("digests.platform.cache_api_urls")),
    path("v1/admin/", include("digests.platform.api_urls")),
    re_path(r"", NoSuchEndpoint.as_view(), name="api-not-found"),
]
