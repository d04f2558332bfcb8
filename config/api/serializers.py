"""Base classes for what clients send: request bodies and query strings.

`StrictSerializer` refuses a body that is not a JSON object and every field it does not
declare, naming it (a misspelt `intrests` must not be ignored while the request "succeeds").
The OpenAPI schema says so too: request components of these serializers carry
`additionalProperties: false` (config/api/schema.py).

`read_query()` reads a query string through one: a parameter given twice is refused, and so
is a parameter the endpoint does not take.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail
from rest_framework.fields import empty
from rest_framework.settings import api_settings

from config.api.errors import APIInputError


def _refuse_unknown(serializer: StrictSerializer, data: Mapping) -> None:
    writable = [name for name, field in serializer.fields.items() if not field.read_only]
    unknown = [key for key in data if key not in writable]
    if unknown:
        message = (
            _("Unknown field; this takes: %(fields)s.") % {"fields": ", ".join(writable)}
            if writable
            else _("Unknown field; this takes no fields.")
        )
        hints = serializer.unknown_field_hints
        raise serializers.ValidationError(
            {key: [ErrorDetail(hints.get(key, message), code="unknown_field")] for key in unknown}
        )


class StrictSerializer(serializers.Serializer):
    # A better answer than "unknown field" for fields clients are known to try.
    unknown_field_hints: dict[str, str] = {}

    def run_validation(self, data=empty):
        nullable = data is None and (self.parent is not None and self.allow_null)
        if data is not empty and not nullable and not isinstance(data, Mapping):
            raise serializers.ValidationError(
                {api_settings.NON_FIELD_ERRORS_KEY: [_("Send a JSON object.")]}
            )
        return super().run_validation(data)

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            _refuse_unknown(self, data)
        return super().to_internal_value(data)


def read_body(serializer_class: type[serializers.Serializer], request, **kwargs) -> dict:
    """The validated body, or a 400 naming each refused field."""
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def read_query(
    serializer_class: type[serializers.Serializer], request, *, also: tuple[str, ...] = ()
) -> dict:
    """The validated query parameters. `also` names parameters read elsewhere (the
    paginator's `cursor` and `limit`), which are let through unchecked."""
    params = request.query_params
    repeated = [key for key in params if len(params.getlist(key)) > 1]
    if repeated:
        raise APIInputError(
            {key: _("Give this parameter once.") for key in repeated},
            field_codes=dict.fromkeys(repeated, "duplicate"),
        )
    data = {key: params[key] for key in params if key not in also}
    if not data and serializer_class in _EMPTY_QUERIES:
        return dict(_EMPTY_QUERIES[serializer_class])
    serializer = serializer_class(data=data)
    if also:
        # The paginator's parameters are part of what this takes: say so when refusing.
        takes = [name for name, field in serializer.fields.items() if not field.read_only]
        takes += [name for name in also if name not in takes]
        if unknown := [key for key in data if key not in takes]:
            message = _("Unknown parameter; this takes: %(params)s.") % {"params": ", ".join(takes)}
            raise APIInputError(
                dict.fromkeys(unknown, message), field_codes=dict.fromkeys(unknown, "unknown_field")
            )
    serializer.is_valid(raise_exception=True)
    if not data and _constant(serializer):
        _EMPTY_QUERIES[serializer_class] = dict(serializer.validated_data)
    return serializer.validated_data


# What a request without parameters reads, per query serializer: the same every time when no
# field's default is computed and every value is a constant (building the serializer copies
# each of its fields, the most of reading a query that has nothing in it).
_EMPTY_QUERIES: dict[type, dict] = {}
_CONSTANTS = (str, int, float, bool, type(None))


def _constant(serializer: serializers.Serializer) -> bool:
    computed = [
        f for f in serializer.fields.values() if f.default is not empty and callable(f.default)
    ]
    return not computed and all(
        isinstance(value, _CONSTANTS) for value in serializer.validated_data.values()
    )


# --- What the API answers -----------------------------------------------------------------


class _ReadOnlyFields:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional)."""

    answered_sometimes: tuple[str, ...] = ()

    def get_fields(self):
        fields = super().get_fields()
        for name, field in fields.items():
            if name in self.answered_sometimes:
                field.read_only, field.required = False, False
            else:
                field.read_only = True
        return fields


class ResponseSerializer(_ReadOnlyFields, serializers.Serializer):
    pass


class ResponseModelSerializer(_ReadOnlyFields, serializers.ModelSerializer):
    pass
