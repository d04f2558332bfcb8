"""Every API error has one shape: {"error": {"code", "message", "fields"}}."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class APIInputError(exceptions.APIException):
    """Raised by API views with the field errors a service reported."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "invalid"

    def __init__(self, fields: dict[str, str], message: str = "", code: str = "invalid"):
        self.fields = fields
        self.code = code
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

    def __init__(self, errors: dict[str, str], message: str = ""):
        first = next(iter(errors.items()), None)
        self.errors = errors
        self.message = message or (first[1] if first else "Refused.")
        super().__init__(self.message)


def error_body(code: str, message: str, fields: dict | None = None) -> dict:
    return {"error": {"code": code, "message": message, "fields": fields or {}}}


def _flatten(detail) -> dict[str, str]:
    if isinstance(detail, dict):
        flat = {}
        for key, value in detail.items():
            if isinstance(value, list):
                flat[key] = " ".join(str(v) for v in value)
            elif isinstance(value, dict):
                for sub_key, sub_value in _flatten(value).items():
                    flat[f"{key}.{sub_key}"] = sub_value
            else:
                flat[key] = str(value)
        return flat
    return {}


def exception_handler(exc, context):
    if isinstance(exc, ServiceRefusal):
        refusal = exc
        exc = APIInputError(refusal.errors, message=refusal.message, code=refusal.code)
        exc.status_code = refusal.status_code
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, APIInputError):
        body = error_body(exc.code, str(exc.detail), exc.fields)
    elif isinstance(exc, exceptions.ValidationError):
        fields = _flatten(exc.detail)
        if isinstance(exc.detail, list):
            fields = {"non_field_errors": " ".join(str(d) for d in exc.detail)}
        first = next(iter(fields.items()), ("", "Invalid input."))
        body = error_body("invalid", f"{first[0]}: {first[1]}" if first[0] else first[1], fields)
    else:
        detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
        code = getattr(exc, "default_code", "error")
        if isinstance(detail, exceptions.ErrorDetail):
            code = detail.code or code
        body = error_body(str(code), str(detail))
    headers = {k: v for k, v in response.items()}
    return Response(body, status=response.status_code, headers=headers)
