"""The OpenAPI schema at /api/schema/: how it is served, and what it says about every
operation, so views need not repeat it.

Served as YAML (or JSON, by Accept or ?format=) for API clients, exactly as drf-spectacular
serves it; a browser, which asks for HTML, gets the same YAML labelled as plain text, so it is
shown rather than downloaded (the interactive docs are at /api/docs/).

What it says:

- every error an operation can answer, all with the one `Error` component (the shape of
  config/api/errors.py): 400, 406 and 429 always; 401 where credentials are read; 403 where
  they are required; 404 where the path names something; 413 and 415 where a body is taken.
  A view documents only its own extra answers (409 on a retry, say) with `ERROR_RESPONSE`;
- request bodies of `StrictSerializer`s refuse undeclared fields (`additionalProperties:
  false`), as the serializers do;
- links from an answer to every operation whose path parameters it holds (`LINKED_IDS`),
  which clients and stateful test generators follow: create a subscription, then run,
  preview and read it; list the Inbox, then act on an item, its run and its subscription.
"""

from __future__ import annotations

from drf_spectacular.extensions import (
    OpenApiSerializerExtension,
    OpenApiSerializerFieldExtension,
)
from drf_spectacular.renderers import OpenApiYamlRenderer
from drf_spectacular.utils import OpenApiResponse
from drf_spectacular.views import SpectacularAPIView

from config.api.error_codes import ERROR_CODES, FIELD_CODES
from config.api.fields import DATETIME_PATTERN

ERROR_COMPONENT = "Error"
ERROR_CODE_COMPONENT = "ErrorCode"
FIELD_ERROR_CODE_COMPONENT = "FieldErrorCode"


def _code_enum(table: dict[str, str], description: str) -> dict:
    # The table of codes is the description too, so a client reads what each one means.
    lines = "\n".join(f"- `{code}`: {meaning}" for code, meaning in table.items())
    return {"type": "string", "enum": list(table), "description": f"{description}\n\n{lines}"}


ERROR_CODE_SCHEMA = _code_enum(
    ERROR_CODES, "What went wrong, for a program to branch on; stable (codes are only added)."
)
FIELD_ERROR_CODE_SCHEMA = _code_enum(
    FIELD_CODES, "What was wrong with one field or parameter; stable (codes are only added)."
)
ERROR_SCHEMA = {
    "type": "object",
    "description": "Every error answer of the API has this shape.",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message", "fields", "field_codes"],
            "properties": {
                "code": {"$ref": f"#/components/schemas/{ERROR_CODE_COMPONENT}"},
                "message": {"type": "string", "description": "For people, in their language."},
                "fields": {
                    "type": "object",
                    "description": "What was wrong with which field or parameter "
                    '(nested ones as "parent.child", list entries as "list.0").',
                    "additionalProperties": {"type": "string"},
                },
                "field_codes": {
                    "type": "object",
                    "description": "A code per field named in `fields`, with the same keys.",
                    "additionalProperties": {
                        "$ref": f"#/components/schemas/{FIELD_ERROR_CODE_COMPONENT}"
                    },
                },
            },
        }
    },
}


# For views that document an extra error status, `{409: ERROR_RESPONSE}`: the hook gives it
# the Error component, as it does to every 4xx and 5xx answer.
ERROR_RESPONSE = OpenApiResponse(description="Refused; see `error`.")

ERROR_DESCRIPTIONS = {
    "400": "Bad input: the request breaks a rule the schema states; the refused field or "
    "parameter is named in `error.fields`.",
    "401": "Missing, malformed, invalid or revoked credentials.",
    "403": "Authenticated, but not allowed to do this.",
    "404": "Nothing of yours with that id (other users' things are not found either): in the "
    "path, or an id the body or query names (then in `error.fields`), or a `cursor` this list "
    "did not hand out.",
    "406": "The `Accept` header excludes JSON.",
    "413": "The body is larger than the API takes.",
    "415": "The body is not JSON (`Content-Type: application/json`).",
    "429": "Too many requests: wait the seconds in `Retry-After`.",
    "409": "Refused in the state things are in: a name or address already in use (`taken`), "
    "or, for an `Idempotency-Key`, the first request with it still being served; see `error`.",
    "422": "Well formed, but not usable as things are: an address that could not be fetched, "
    "content the server cannot read (a CSS selector, an OPML file), a feature this server is "
    "not configured for (`not_configured`), fields valid alone but not together or with what "
    "is stored (`invalid_combination`), a time in the past or too far ahead "
    "(`invalid_time`), or an `Idempotency-Key` used for a different "
    "request (`idempotency_key_reused`); see `error`.",
}
# The header inbox/idempotency.py reads; an operation that takes it can also answer 409 and 422.
IDEMPOTENCY_HEADER = "Idempotency-Key"
BODY_METHODS = {"post", "put", "patch", "delete"}
# Query parameters that name things by id or position (a 404 when they name nothing).
ID_QUERY_PARAMETERS = {"cursor", "source_ids"}

# Response component → the path parameters it fills, each from a JSON pointer inside it.
LINKED_IDS = {
    "Subscription": {"subscription_id": "/id"},
    "Run": {"run_id": "/id"},
    "RunDetail": {"run_id": "/id"},
    "InboxItem": {"run_item_id": "/id", "run_id": "/run_id", "subscription_id": "/subscription_id"},
    "LibrarySource": {"user_source_id": "/id"},
    "OwnedTopic": {"slug": "/slug"},
    "Topic": {"slug": "/slug"},
    "TopicDetail": {"slug": "/slug", "edition_id": "/editions/0/id"},
    "Pack": {"key": "/key"},
    "Delivery": {"delivery_id": "/id"},
}


class StrictSerializerExtension(OpenApiSerializerExtension):
    target_class = "config.api.serializers.StrictSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_basic_serializer(self.target, direction)
        if direction == "request":
            schema["additionalProperties"] = False
        return schema


class StrictCharFieldExtension(OpenApiSerializerFieldExtension):
    """Every StrictCharField says what text it takes: a pattern (no NUL character at least;
    a cron expression, an http(s) address…) or the enumeration of its values (time zones),
    so that what the schema allows is what the server accepts (config/api/fields.py)."""

    target_class = "config.api.fields.StrictCharField"
    match_subclasses = True

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        # StrictCharFields are inputs (bodies and query parameters) only.
        schema.update(self.target.schema_extra())
        return schema


class StrictListFieldExtension(OpenApiSerializerFieldExtension):
    """A list whose entries must differ says so (`uniqueItems`)."""

    target_class = "config.api.fields.StrictListField"
    match_subclasses = True

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        if getattr(self.target, "unique_items", False):
            schema["uniqueItems"] = True
        return schema


class AwareDateTimeFieldExtension(OpenApiSerializerFieldExtension):
    """A moment the API reads says the form and the years it takes (config/api/fields.py)."""

    target_class = "config.api.fields.AwareDateTimeField"
    match_subclasses = True

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        if direction == "request":
            schema["pattern"] = DATETIME_PATTERN
        return schema


def _error_response(status: str) -> dict:
    response = {
        "description": ERROR_DESCRIPTIONS.get(status, "Refused; see `error`."),
        "content": {
            "application/json": {"schema": {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}}
        },
    }
    if status == "429":
        response["headers"] = {
            "Retry-After": {
                "schema": {"type": "integer"},
                "description": "Seconds to wait before trying again.",
            }
        }
    return response


def _statuses(path: str, method: str, operation: dict) -> list[str]:
    statuses = ["400", "406", "429"]
    security = operation.get("security", [])
    if any(requirement for requirement in security):
        statuses.append("401")
        if {} not in security:
            statuses.append("403")
    names = {p.get("name") for p in operation.get("parameters", [])}
    # 404 where something is named by id: the path, a body (ids of yours it refers to), a
    # query's ids, a cursor (one this list did not hand out).
    if "{" in path or method in BODY_METHODS or names & ID_QUERY_PARAMETERS:
        statuses.append("404")
    if method in BODY_METHODS:
        # 409: a name in use; 422: what the body names could not be used (config/api/errors.py).
        statuses += ["409", "413", "415", "422"]
    elif IDEMPOTENCY_HEADER in names:
        statuses += ["409", "422"]
    return sorted(set(statuses))


def _component_of(schema: dict, components: dict) -> tuple[str, str] | None:
    """(component, JSON pointer prefix to its object) for an answer that is one of
    LINKED_IDS or a page of them (then the first item's)."""
    ref = schema.get("$ref", "")
    name = ref.rsplit("/", 1)[-1]
    if name in LINKED_IDS:
        return name, ""
    page = components.get(name, {})
    items = page.get("properties", {}).get("results", {}).get("items", {})
    item_name = items.get("$ref", "").rsplit("/", 1)[-1]
    if item_name in LINKED_IDS:
        return item_name, "/results/0"
    return None


def _add_links(result: dict) -> None:
    components = result.get("components", {}).get("schemas", {})
    targets = []  # (operationId, its path parameters)
    for operations in result["paths"].values():
        for operation in operations.values():
            names = {p["name"] for p in operation.get("parameters", []) if p.get("in") == "path"}
            if names:
                targets.append((operation["operationId"], names))
    for operations in result["paths"].values():
        for operation in operations.values():
            for status, response in operation.get("responses", {}).items():
                if not status.startswith("2"):
                    continue
                schema = response.get("content", {}).get("application/json", {}).get("schema")
                found = _component_of(schema or {}, components)
                if found is None:
                    continue
                name, prefix = found
                given = LINKED_IDS[name]
                links = {
                    target: {
                        "operationId": target,
                        "parameters": {
                            param: f"$response.body#{prefix}{given[param]}" for param in needs
                        },
                    }
                    for target, needs in targets
                    if needs <= set(given) and target != operation["operationId"]
                }
                if links:
                    response["links"] = links


def document_errors_and_links(result, generator, request, public):
    """drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"])."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas[ERROR_COMPONENT] = ERROR_SCHEMA
    schemas[ERROR_CODE_COMPONENT] = ERROR_CODE_SCHEMA
    schemas[FIELD_ERROR_CODE_COMPONENT] = FIELD_ERROR_CODE_SCHEMA
    for path, operations in result["paths"].items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            for status in _statuses(path, method, operation):
                responses.setdefault(status, _error_response(status))
            for status, response in responses.items():
                if status.startswith(("4", "5")):
                    response["content"] = _error_response(status)["content"]
    _add_links(result)
    return result


# --- Serving it ----------------------------------------------------------------------------


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
