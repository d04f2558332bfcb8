"""`updated_since`: what changed at or after a moment, for clients that keep a copy in sync.

Lists that take it (the Inbox, subscriptions, a subscription's runs) filter by it before their
cursor pagination, so a client pages through the changes like any list: read every page of
`?updated_since=T`, remember when it started (T'), next time ask for `?updated_since=T'`.
"At or after" on purpose: a change made in the same instant as the last sync is answered
twice rather than missed.
"""

from __future__ import annotations

import copy
from datetime import datetime

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from config.api.errors import APIInputError
from config.api.fields import DATETIME_SCHEMA, AwareDateTimeField

UPDATED_SINCE = "updated_since"
UPDATED_SINCE_HELP = (
    "Only what changed at or after this moment: ISO 8601 with a UTC offset, e.g. "
    "2026-11-28T08:00:00Z or 2026-11-28T09:00:00+01:00, years 1970-2199."
)


def updated_since_field(what_changes: str) -> AwareDateTimeField:
    """The parameter as a field of an endpoint's query serializer."""
    return AwareDateTimeField(required=False, help_text=f"{UPDATED_SINCE_HELP} {what_changes}")


def updated_since_parameter(what_changes: str) -> OpenApiParameter:
    """The parameter's schema, for views whose query is read by `read_updated_since`."""
    return OpenApiParameter(
        UPDATED_SINCE,
        DATETIME_SCHEMA,
        description=f"{UPDATED_SINCE_HELP} {what_changes}",
    )


def read_updated_since(request) -> datetime | None:
    """The request's `updated_since`, or None; a 400 naming it when it is not a moment."""
    values = request.query_params.getlist(UPDATED_SINCE)
    if not values:
        return None
    if len(values) > 1:
        raise APIInputError(
            {UPDATED_SINCE: _("Give this parameter once.")},
            field_codes={UPDATED_SINCE: "duplicate"},
        )
    try:
        return AwareDateTimeField().run_validation(values[0])
    except serializers.ValidationError as exc:
        reason = " ".join(str(message) for message in exc.detail)
        code = getattr(exc.detail[0], "code", "invalid")
        raise APIInputError(
            {UPDATED_SINCE: reason},
            field_codes={UPDATED_SINCE: "out_of_range" if code == "out_of_range" else "invalid"},
        ) from None


# --- ETag and If-None-Match ------------------------------------------------------------------

# What APIRequestMiddleware (config/api/middleware.py) gives every successful GET but these:
# their answer is streamed, so it is not hashed (tests/config/test_api_examples.py replays
# every GET and checks the schema's list against the answers).
STREAMED_GETS = frozenset({"GET /api/v1/export"})
ETAG_HEADER = {
    "ETag": {
        "description": "A validator of this answer (a hash of its body): send it back in "
        "`If-None-Match` to get 304 with no body while the answer is unchanged.",
        "schema": {"type": "string", "pattern": r'^"[0-9a-f]{32}"$'},
        "example": '"5d41402abc4b2a76b9719d911017c592"',
    }
}
IF_NONE_MATCH = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "The `ETag` of the copy you have (or several, comma-separated): when the "
    "answer is still the same, it is a 304 with no body instead.",
    "schema": {"type": "string"},
    "example": '"5d41402abc4b2a76b9719d911017c592"',
}
NOT_MODIFIED = {
    "description": "Not Modified: the answer has the `ETag` given in `If-None-Match`; keep "
    "your copy. No body.",
    "headers": ETAG_HEADER,
}


def conditional_operations(result: dict) -> set[str]:
    """The operations ("GET /path") answered with an ETag, and so a 304."""
    return {
        f"GET {path}"
        for path, operations in result["paths"].items()
        if "200" in operations.get("get", {}).get("responses", {})
        and f"GET {path}" not in STREAMED_GETS
    }


def document_conditional_gets(result, generator, request, public):
    """drf-spectacular postprocessing hook: `If-None-Match`, the 304 and the `ETag` header on
    every GET that carries one."""
    for key in conditional_operations(result):
        operation = result["paths"][key.split(" ", 1)[1]]["get"]
        parameters = operation.setdefault("parameters", [])
        if not any(p["name"] == IF_NONE_MATCH["name"] for p in parameters):
            parameters.append(copy.deepcopy(IF_NONE_MATCH))
        responses = operation["responses"]
        responses["200"].setdefault("headers", {}).update(copy.deepcopy(ETAG_HEADER))
        responses["304"] = copy.deepcopy(NOT_MODIFIED)
    return result
