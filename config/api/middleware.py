"""The request guard of /api/: what every API request must satisfy before a view runs, and the
rate-limit headers on every API answer.

- The query string is UTF-8 without NUL characters (else 400 naming the parameter): Django
  would quietly replace broken bytes, and PostgreSQL refuses NUL in a filter.
- A body (on POST, PUT, PATCH, DELETE) is of a type the view reads — JSON everywhere except
  the few views that declare another parser, such as the OPML import — else 415. Checked here
  and not only by DRF because DRF objects only when a view reads its body: a form body sent to
  an action that takes none would otherwise be silently ignored.

Every successful GET answer carries an `ETag` (a hash of its body); a client that sends it back
in `If-None-Match` gets 304 with no body when nothing changed — for objects and lists alike, so
a sync client re-reads only what moved. The request is still authenticated, throttled and
answered by its view; what is saved is the transfer and the client's parsing.

Answers use the one error shape (config/api/errors.py). Pages outside /api/ are not touched.
"""

from __future__ import annotations

import hashlib
from urllib.parse import unquote_to_bytes

from django.utils.cache import get_conditional_response
from django.utils.http import quote_etag
from django.utils.translation import gettext as _
from rest_framework.utils.mediatypes import media_type_matches

from config.api.errors import API_PREFIX, error_response
from config.api.parsers import bad_text_reason

BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
RATE_LIMIT_ATTRIBUTE = "_tidings_rate_limit"


def query_string_problem(query_string: str) -> tuple[str, str] | None:
    """(parameter, reason) for the first parameter that is not clean UTF-8 text, or None."""
    for pair in query_string.split("&"):
        if not pair:
            continue
        raw_name, _sep, raw_value = pair.partition("=")
        try:
            name = unquote_to_bytes(raw_name.replace("+", " ")).decode("utf-8")
        except UnicodeDecodeError:
            return "non_field_errors", _("A parameter name is not valid UTF-8.")
        try:
            value = unquote_to_bytes(raw_value.replace("+", " ")).decode("utf-8")
        except UnicodeDecodeError:
            return name, _("Not valid UTF-8 (an encoded lone surrogate or a broken sequence).")
        reason = bad_text_reason(name) or bad_text_reason(value)
        if reason:
            return (name if not bad_text_reason(name) else "non_field_errors"), reason
    return None


def _conditional(request, response):
    """The answer with its ETag, or 304 Not Modified when the client already has it."""
    if response.streaming or response.has_header("ETag"):
        return response
    if hasattr(response, "render") and not response.is_rendered:
        response.render()
    response["ETag"] = quote_etag(hashlib.sha256(response.content).hexdigest()[:32])
    return get_conditional_response(request, etag=response["ETag"], response=response)


def _has_body(request) -> bool:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    return length > 0 or "HTTP_TRANSFER_ENCODING" in request.META


def _accepted_types(view_func) -> list[str] | None:
    """The media types the DRF view behind `view_func` parses, or None for other views."""
    view_class = getattr(view_func, "cls", None)
    parser_classes = getattr(view_class, "parser_classes", None)
    if parser_classes is None:
        return None
    return [parser.media_type for parser in parser_classes]


class APIRequestMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path.startswith(API_PREFIX):
            return self.get_response(request)
        problem = query_string_problem(request.META.get("QUERY_STRING", ""))
        if problem:
            field, reason = problem
            return error_response(400, "bad_text", f"{field}: {reason}", {field: reason})
        response = self.get_response(request)
        if request.method in ("GET", "HEAD") and response.status_code == 200:
            response = _conditional(request, response)
        limit = getattr(request, RATE_LIMIT_ATTRIBUTE, None)
        if limit is not None:
            response["X-RateLimit-Limit"] = str(limit.limit)
            response["X-RateLimit-Remaining"] = str(limit.remaining)
            response["X-RateLimit-Reset"] = str(limit.reset)
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not request.path.startswith(API_PREFIX) or request.method not in BODY_METHODS:
            return None
        if not _has_body(request):
            return None
        accepted = _accepted_types(view_func)
        if accepted is None:
            return None
        content_type = request.META.get("CONTENT_TYPE", "")
        if content_type and any(media_type_matches(t, content_type) for t in accepted):
            return None
        message = _("Send the body as %(types)s; got %(given)s.") % {
            "types": " or ".join(accepted),
            "given": repr(content_type[:80]) if content_type else _("no Content-Type"),
        }
        return error_response(415, "unsupported_media_type", message)
