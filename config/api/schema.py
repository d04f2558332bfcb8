"""The OpenAPI schema at /api/schema/: YAML (or JSON, by Accept or ?format=) for API clients,
exactly as drf-spectacular serves it; a browser, which asks for HTML, gets the same YAML
labelled as plain text, so it is shown rather than downloaded (the interactive docs are at
/api/docs/)."""

from __future__ import annotations

from drf_spectacular.renderers import OpenApiYamlRenderer
from drf_spectacular.views import SpectacularAPIView


class _ShownInBrowser(OpenApiYamlRenderer):
    """Picked by content negotiation when the client asks for text/html; the response then
    says text/plain (with nosniff from SecurityMiddleware, so it is never read as HTML)."""

    media_type = "text/html"
    format = "yaml"


class SchemaView(SpectacularAPIView):
    renderer_classes = [*SpectacularAPIView.renderer_classes, _ShownInBrowser]

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if isinstance(getattr(request, "accepted_renderer", None), _ShownInBrowser):
            response.content_type = "text/plain; charset=utf-8"
        return response
