"""POST /mcp: the MCP server over Streamable HTTP, inside the Django deployment.

The SDK's transport is an ASGI application; Tidings is served by WSGI. This view (a DRF view, so
the personal-token authentication, the per-token and per-user throttles and the error shape are
the API's) hands the request to the SDK's session manager in its stateless JSON mode — each POST
carries one message and gets its answer in the response — and returns what it answered. No
session lives between requests, so any web process may answer any request and nothing is lost
when one restarts; GET (a server-sent event stream) is answered 405, as the protocol allows.

The Authorization header is not passed on: the SDK never sees (or logs) the token.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from rest_framework.parsers import BaseParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.views import APIView

from config.client_address import client_address
from config.private_cache import PRIVATE
from inbox.assistants.caller import calling_as
from inbox.assistants.server import mcp_server
from inbox.authentication import BearerTokenAuthentication

MAX_REQUEST_BYTES = 1024 * 1024
_NOT_PASSED_ON = {"authorization", "cookie"}


class AssistantTokenAuthentication(BearerTokenAuthentication):
    read_tokens_only_read = False


class _RawBody(BaseParser):
    """The SDK parses the body itself; DRF is not to read it."""

    media_type = "*/*"

    def parse(self, stream, media_type=None, parser_context=None):
        return None


def _headers(request) -> list[tuple[bytes, bytes]]:
    headers = []
    for name, value in request.headers.items():
        if name.lower() not in _NOT_PASSED_ON:
            headers.append((name.lower().encode("latin-1"), value.encode("latin-1")))
    return headers


def serve(request) -> HttpResponse:
    """Answer one MCP message (the request's body) as the caller the request authenticated."""
    body = request.body
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": request.method,
        "scheme": request.scheme,
        "path": request.path,
        "raw_path": request.path.encode(),
        "query_string": request.META.get("QUERY_STRING", "").encode("latin-1"),
        "root_path": "",
        "headers": _headers(request),
        "client": (client_address(request), 0),
        "server": (request.get_host().rsplit(":", 1)[0], int(request.get_port() or 80)),
    }
    answer: dict = {"status": 500, "headers": [], "body": []}

    async def receive():
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message):
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["headers"] = message.get("headers", [])
        elif message["type"] == "http.response.body":
            answer["body"].append(message.get("body", b""))

    async def handle():
        manager = StreamableHTTPSessionManager(
            app=mcp_server()._lowlevel_server,
            json_response=True,
            stateless=True,
            max_request_body_size=MAX_REQUEST_BYTES,
        )
        async with manager.run():
            await manager.handle_request(scope, receive, send)

    async_to_sync(handle)()
    response = HttpResponse(b"".join(answer["body"]), status=answer["status"])
    for name, value in answer["headers"]:
        response[name.decode("latin-1")] = value.decode("latin-1")
    return response


@extend_schema(exclude=True)
class McpEndpoint(APIView):
    authentication_classes = [AssistantTokenAuthentication]
    permission_classes = [IsAuthenticated]
    parser_classes = [_RawBody]

    def post(self, request):
        with calling_as(request.auth):
            return serve(request._request)

    def finalize_response(self, request, response, *args, **kwargs):
        # Every answer is one reader's, a refusal included: no cache keeps it.
        response = super().finalize_response(request, response, *args, **kwargs)
        response["Cache-Control"] = PRIVATE
        return response
