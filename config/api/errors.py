"""Every API error has one shape: {"error": {"code", "message", "fields", "field_codes"}}.

`code` is one of config/api/error_codes.ERROR_CODES; `fields` gives a message per refused field
and `field_codes` a code per field from FIELD_CODES (added later: `fields` keeps its shape).

DRF's exceptions go through `exception_handler` (the REST_FRAMEWORK setting); what Django
answers before or outside a DRF view under /api/ — an unmatched path, a body refused by the
request guard, a crash — goes through `error_response` and the `handler*` functions the root
URLconf names, so a client never reads an HTML page from the API.
"""

from __future__ import annotations

import logging
import math

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response

from config.api.error_codes import (
    ERROR_CODES,
    FIELD_CODES,
    REFUSAL_STATUS,
    UndeclaredErrorCode,
    field_code,
)

API_PREFIX = "/api/"
logger = logging.getLogger(__name__)


class APIInputError(exceptions.APIException):
    """Raised by API views with the field errors a service reported."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "invalid"

    def __init__(
        self,
        fields: dict[str, str],
        message: str = "",
        code: str = "invalid",
        field_codes: dict[str, str] | None = None,
    ):
        self.fields = fields
        self.code = code
        self.field_codes = field_codes
        first = next(iter(fields.items()), None)
        super().__init__(message or (f"{first[0]}: {first[1]}" if first else "Invalid input."))


class APIConflictError(APIInputError):
    """The request is well formed but the resource's state does not allow it (HTTP 409)."""

    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"

    def __init__(self, message: str, fields: dict[str, str] | None = None):
        super().__init__(fields or {}, message=message, code="conflict")


class ServiceRefusal(Exception):
    """A refusal raised by a service function that knows how the API answers it: its HTTP
    status, its error code and a message per field. The exception handler below renders any
    subclass in the error shape (so an API view cannot turn one into a 500 by forgetting to
    catch it); console views show `errors` on their form."""

    status_code = status.HTTP_400_BAD_REQUEST
    code = "invalid"

    def __init__(self, errors: dict[str, str], message: str = "", *, code: str = ""):
        first = next(iter(errors.items()), None)
        if code:
            self.code = code
        self.errors = errors
        self.message = message or (first[1] if first else "Refused.")
        super().__init__(self.message)


class PayloadTooLarge(APIInputError):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE

    def __init__(self, message: str, fields: dict[str, str] | None = None):
        super().__init__(fields or {}, message=message, code="too_large")


def _declared(code: str, table: dict[str, str], kind: str) -> bool:
    if code in table:
        return True
    logger.error("Undeclared API %s code %r (declare it in config/api/error_codes.py)", kind, code)
    if getattr(settings, "API_STRICT_ERROR_CODES", False):
        raise UndeclaredErrorCode(f"{kind} code {code!r} is not in config/api/error_codes.py")
    return False


def default_field_code(code: str) -> str:
    """The field code of a field refused by an answer with `code` and no finer word: the
    answer's own code said in the field vocabulary, or `refused` (a rule of the service)."""
    return field_code(code) or "refused"


def error_body(
    code: str, message: str, fields: dict | None = None, field_codes: dict | None = None
) -> dict:
    fields = fields or {}
    _declared(code, ERROR_CODES, "error")
    codes = {}
    for name in fields:
        given = (field_codes or {}).get(name) or default_field_code(code)
        codes[name] = given if _declared(given, FIELD_CODES, "field error") else "invalid"
    return {"error": {"code": code, "message": message, "fields": fields, "field_codes": codes}}


def error_response(
    status_code: int, code: str, message: str, fields: dict | None = None, **headers: str
) -> JsonResponse:
    """The error shape as a plain Django response, for answers given outside DRF's views."""
    response = JsonResponse(error_body(code, message, fields), status=status_code)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def _first_code(value) -> str | None:
    if isinstance(value, list):
        return next((c for c in map(_first_code, value) if c), None)
    return getattr(value, "code", None)


def _flatten(detail) -> dict[str, tuple[str, str]]:
    """{field: (message, field code)} from a ValidationError's detail."""
    if isinstance(detail, dict):
        flat = {}
        for key, value in detail.items():
            if isinstance(value, list):
                if value and all(isinstance(v, dict) for v in value):
                    # A list of nested objects (many=True): name the entry, e.g. "items.2.url".
                    for index, entry in enumerate(value):
                        for sub_key, sub_value in _flatten(entry).items():
                            flat[f"{key}.{index}.{sub_key}"] = sub_value
                else:
                    message = " ".join(
                        " ".join(m for m, _c in _flatten(v).values())
                        if isinstance(v, dict)
                        else str(v)
                        for v in value
                    )
                    flat[key] = (message, _field_code_of(value))
            elif isinstance(value, dict):
                for sub_key, sub_value in _flatten(value).items():
                    flat[f"{key}.{sub_key}"] = sub_value
            else:
                flat[key] = (str(value), _field_code_of(value))
        return flat
    return {}


def _field_code_of(value) -> str:
    code = _first_code(value)
    if code is None and isinstance(value, list):
        # A list field's entries refused one by one ({"interests": [{"2": [...]}]}).
        nested = [c for v in value if isinstance(v, dict) for _m, c in _flatten(v).values()]
        code = nested[0] if nested else None
    found = field_code(code)
    if found is None and code is not None:
        _declared(code, FIELD_CODES, "field error")
    return found or "invalid"


def exception_handler(exc, context):
    # Imported here: rest_framework.views reads the parser setting at import, and the parser
    # module imports this one.
    from rest_framework.views import exception_handler as drf_exception_handler

    if isinstance(exc, ServiceRefusal):
        refusal = exc
        exc = APIInputError(refusal.errors, message=refusal.message, code=refusal.code)
        exc.status_code = refusal.status_code
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, APIInputError) and exc.status_code == status.HTTP_400_BAD_REQUEST:
        # A refusal that depends on what exists, not on the request's form — a name in use
        # (409), an id naming nothing of yours (404), an address that could not be fetched,
        # content the server cannot use, a feature this server is not set up for (422) — so
        # that 400 always means a rule the schema states (config/api/error_codes.py).
        exc.status_code = REFUSAL_STATUS.get(exc.code, exc.status_code)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, APIInputError):
        body = error_body(exc.code, str(exc.detail), exc.fields, exc.field_codes)
    elif isinstance(exc, exceptions.ValidationError):
        flat = _flatten(exc.detail)
        if isinstance(exc.detail, list):
            message = " ".join(str(d) for d in exc.detail)
            flat = {"non_field_errors": (message, _field_code_of(exc.detail))}
        fields = {name: message for name, (message, _code) in flat.items()}
        codes = {name: code for name, (_message, code) in flat.items()}
        first = next(iter(fields.items()), ("", "Invalid input."))
        message = f"{first[0]}: {first[1]}" if first[0] else first[1]
        body = error_body("invalid", message, fields, codes)
    else:
        detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
        code = getattr(exc, "default_code", "error")
        if isinstance(detail, exceptions.ErrorDetail):
            code = detail.code or code
        body = error_body(str(code), str(detail))
    headers = {k: v for k, v in response.items()}
    if isinstance(exc, exceptions.Throttled):
        # Always say when to come back, in whole seconds (DRF leaves it out when it cannot tell).
        headers["Retry-After"] = str(max(1, math.ceil(exc.wait or 1)))
    return Response(body, status=response.status_code, headers=headers)


# --- Django's own error views, answered as JSON under /api/ -------------------------------
# The root URLconf points handler400/403/404/500 here; pages outside /api/ get the product's own
# templates (templates/403.html, 404.html, 500.html), in the reader's language.


def _is_api(request) -> bool:
    return request.path.startswith(API_PREFIX)


def bad_request(request, exception=None):
    if _is_api(request):
        return error_response(400, "bad_request", _("The request could not be understood."))
    from django.views.defaults import bad_request as default

    return default(request, exception)


def permission_denied(request, exception=None):
    if _is_api(request):
        return error_response(403, "permission_denied", _("You do not have permission to do this."))
    from django.views.defaults import permission_denied as default

    return default(request, exception)


def page_not_found(request, exception=None):
    if _is_api(request):
        return error_response(404, "not_found", _("Not found."))
    from django.views.defaults import page_not_found as default

    return default(request, exception)


def server_error(request):
    if _is_api(request):
        return error_response(
            500, "server_error", _("Something went wrong on our side; it has been logged.")
        )
    from django.views.defaults import server_error as default

    return default(request)
