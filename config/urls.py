from django.contrib import admin
from django.urls import include, path

from inbox.assistants.http import McpEndpoint

urlpatterns = [
    path("", include("topics.urls")),
    path("accounts/", include("inbox.account_urls")),
    path("inbox/", include("inbox.urls")),
    path("subscriptions/", include("digests.urls")),
    path("email/", include("digests.delivery.urls")),
    path("sources/", include("ingest.urls")),
    path("credits/", include("billing.urls")),
    path("watches/", include("digests.textwatch.urls")),
    path("api/", include("inbox.readerapi.urls")),  # reading apps: Google Reader, Fever
    path("api/", include("config.api.urls")),
    # Assistants: the MCP server over Streamable HTTP (docs/assistants.md).
    path("mcp", McpEndpoint.as_view(), name="mcp"),
    path("admin/", admin.site.urls),
]

# Under /api/ these answer JSON in the error shape; everywhere else Django's own pages.
handler400 = "config.api.errors.bad_request"
handler403 = "config.api.errors.permission_denied"
handler404 = "config.api.errors.page_not_found"
handler500 = "config.api.errors.server_error"
