"""What browsers ask for at the root and the API's schema: /favicon.ico is a file, not a 404;
/api/schema/ is shown to a browser and unchanged for API clients."""

from __future__ import annotations

import pytest

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/webp,*/*;q=0.8"


def test_the_favicon_is_served_and_every_page_points_at_it(client, db):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/x-icon"
    assert b"".join(response.streaming_content)[:4] == b"\x00\x00\x01\x00"  # an ICO file
    assert '<link rel="icon" href="/favicon.ico"' in client.get("/topics").content.decode()


def test_a_browser_is_shown_the_schema_as_text(client, db):
    response = client.get("/api/schema/", HTTP_ACCEPT=BROWSER)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response.content.startswith(b"openapi: 3")


@pytest.mark.parametrize(
    ("accept", "content_type", "start"),
    [
        ("*/*", "application/vnd.oai.openapi; charset=utf-8", b"openapi: 3"),
        ("application/vnd.oai.openapi", "application/vnd.oai.openapi; charset=utf-8", b"openapi"),
        ("application/json", "application/json", b"{"),
    ],
)
def test_api_clients_get_the_schema_as_before(client, db, accept, content_type, start):
    response = client.get("/api/schema/", HTTP_ACCEPT=accept)
    assert response["Content-Type"] == content_type
    assert response.content.startswith(start)
