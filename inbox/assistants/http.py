"""POST /mcp: the MCP server over Streamable HTTP, inside the Django deployment.

The SDK's transport is an ASGI application; Tidings is served by WSGI. This view (a DRF view, so
the personal-token authentication, the per-token and per-user throttles and the error shape are
the API's) hands the request to the SDK's session manager in its stateless JSON mode — each POST
carries one message and gets its answer in the response — and returns what it answered. No
session lives between requests, so any web process may answer any request and nothing is lost
when one restarts; GET (a server-sent event stream) is answered 405, as the protocol allows.

One event loop per process, in a thread of its own, runs one session manager for all requests
(`_Loop`): a request hands its message over and, while the SDK works, runs the tool bodies it is
handed back in its own thread (asgiref's CurrentThreadExecutor), so the ORM, the request's
database connection and transaction are the request's. A loop and a manager made per request
cost about 2 ms of every call (the `mcp` benchmark).

The Authorization header is not passed on: the SDK never sees (or logs) the token.
"""

from __future__ import annotations

import asyncio
import threading

from asgiref.current_thread_executor import CurrentThreadExecutor
from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from rest_framework import exceptions
from rest_framework.parsers import BaseParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.utils.mediatypes import media_type_matches
from rest_framework.views import APIView

from config.api.errors import PayloadTooLarge
from config.api.parsers import parse_json_bytes, too_large
from config.client_address import client_address
from config.private_cache import PRIVATE
from inbox.assistants.caller import REQUEST_EXECUTOR, calling_as, current
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


def read_message(request) -> bytes:
    """The request's body, refused in the API's error shape (config/api/errors.py) before the
    SDK sees it unless it is one JSON message the API would take: sent as JSON (else 415), at
    most MAX_REQUEST_BYTES (else 413, read one byte past it, never whole), UTF-8, nested at
    most MAX_JSON_DEPTH deep, without NUL characters or lone surrogates (else 400; the same
    rules as every API body, config/api/parsers.py). A session id is refused too (404, as the
    protocol asks for a session the server does not know): this server keeps none."""
    content_type = request.META.get("CONTENT_TYPE", "")
    if not content_type or not media_type_matches("application/json", content_type):
        raise exceptions.UnsupportedMediaType(
            content_type[:80],
            detail=_("Send the body as %(types)s; got %(given)s.")
            % {
                "types": "application/json",
                "given": repr(content_type[:80]) if content_type else _("no Content-Type"),
            },
        )
    if "HTTP_MCP_SESSION_ID" in request.META:
        raise exceptions.NotFound(
            _("This server keeps no sessions: send no Mcp-Session-Id header.")
        )
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > MAX_REQUEST_BYTES:
        raise PayloadTooLarge(too_large(MAX_REQUEST_BYTES))
    body = request.read(MAX_REQUEST_BYTES + 1)
    parse_json_bytes(body, limit=MAX_REQUEST_BYTES)  # the SDK parses it again, as its own
    return body


def serve(request, body: bytes) -> HttpResponse:
    """Answer one MCP message (`body`, read_message's) as the caller the request authenticated."""
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

    executor = CurrentThreadExecutor(None)
    caller = current()

    async def handle():
        # Set inside the loop: every task the SDK starts for this message inherits them.
        REQUEST_EXECUTOR.set(executor)
        with calling_as(caller.token):
            await _loop().manager.handle_request(scope, receive, send)

    done = asyncio.run_coroutine_threadsafe(handle(), _loop().loop)
    executor.run_until_future(done)
    done.result()
    response = HttpResponse(b"".join(answer["body"]), status=answer["status"])
    for name, value in answer["headers"]:
        response[name.decode("latin-1")] = value.decode("latin-1")
    return response


class _Loop:
    """The process's MCP event loop and session manager, started on the first request."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self.manager: StreamableHTTPSessionManager | None = None
        threading.Thread(target=self._run, name="mcp-loop", daemon=True).start()
        self._ready.wait()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._serve())

    async def _serve(self) -> None:
        self.manager = StreamableHTTPSessionManager(
            app=mcp_server()._lowlevel_server,
            json_response=True,
            stateless=True,
            max_request_body_size=MAX_REQUEST_BYTES,
        )
        async with self.manager.run():
            self._ready.set()
            await asyncio.Event().wait()  # until the process ends


_started: _Loop | None = None
_starting = threading.Lock()


def _loop() -> _Loop:
    global _started
    if _started is None:
        with _starting:
            if _started is None:
                _started = _Loop()
    return _started


@extend_schema(exclude=True)
class McpEndpoint(APIView):
    authentication_classes = [AssistantTokenAuthentication]
    permission_classes = [IsAuthenticated]
    parser_classes = [_RawBody]

    def post(self, request):
        body = read_message(request._request)
        with calling_as(request.auth):
            return serve(request._request, body)

    def finalize_response(self, request, response, *args, **kwargs):
        # Every answer is one reader's, a refusal included: no cache keeps it.
        response = super().finalize_response(request, response, *args, **kwargs)
        response["Cache-Control"] = PRIVATE
        return response
