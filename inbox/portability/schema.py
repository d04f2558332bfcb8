"""The export format's JSON Schema (`export.schema.json`, the one description of
`tidings-export@1`) and a validator for the part of JSON Schema it uses.

The import checks a document with this before it writes anything, so the file in the
repository and what the import accepts cannot drift apart; the tests check exports against the
same file with the `jsonschema` library too. Only what the file uses is understood: `type`,
`required`, `properties`, `additionalProperties: false`, `items`, `enum`, `const`, `minimum`,
`maximum`, `maxLength`, `format: date-time` and local `$ref`s. Every refusal names where in the
document it is (`runs.12.items.3.rank`) and the rule.
"""

from __future__ import annotations

import functools
import json
from datetime import datetime
from pathlib import Path

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

SCHEMA_PATH = Path(__file__).with_name("export.schema.json")

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    # true is not 1, and 1.0 is not a whole number here: no silent coercion.
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
_TYPE_WORDS = {
    "object": gettext_lazy("a JSON object"),
    "array": gettext_lazy("a list"),
    "string": gettext_lazy("a text"),
    "integer": gettext_lazy("a whole number"),
    "number": gettext_lazy("a number"),
    "boolean": gettext_lazy("true or false"),
    "null": "null",
}


class SchemaError(Exception):
    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


@functools.cache
def export_schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text())


def parse_datetime(value: str) -> datetime | None:
    """An ISO 8601 instant with its offset, or None."""
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def _where(path: tuple) -> str:
    return ".".join(str(p) for p in path) or "non_field_errors"


def validate(document, rule: dict | None = None, path: tuple = ()) -> None:
    """Raise SchemaError for the first place `document` breaks the schema — or, given a `rule`
    of the schema (one list's items) and where the value is (`path`), that part of it."""
    root = export_schema()
    # An explicit stack: a hostile document cannot exhaust Python's.
    stack = [(document, rule or root, path)]
    while stack:
        value, rule, path = stack.pop()
        if "$ref" in rule:
            name = rule["$ref"].removeprefix("#/$defs/")
            rule = root["$defs"][name]
        where = _where(path)
        if "const" in rule and value != rule["const"]:
            raise SchemaError(where, _("Must be %(value)s.") % {"value": json.dumps(rule["const"])})
        if "enum" in rule and value not in rule["enum"]:
            raise SchemaError(
                where,
                _("Must be one of %(choices)s.")
                % {"choices": ", ".join(json.dumps(c) for c in rule["enum"])},
            )
        types = rule.get("type")
        if types is not None:
            types = [types] if isinstance(types, str) else types
            if not any(_TYPES[t](value) for t in types):
                raise SchemaError(
                    where,
                    _("Must be %(types)s.")
                    % {"types": _(" or ").join(str(_TYPE_WORDS[t]) for t in types)},
                )
        if isinstance(value, str):
            if "maxLength" in rule and len(value) > rule["maxLength"]:
                raise SchemaError(
                    where, _("At most %(count)d characters.") % {"count": rule["maxLength"]}
                )
            if rule.get("format") == "date-time" and parse_datetime(value) is None:
                raise SchemaError(
                    where, _("Must be an ISO 8601 date and time with its UTC offset.")
                )
        elif isinstance(value, int | float) and not isinstance(value, bool):
            if "minimum" in rule and value < rule["minimum"]:
                raise SchemaError(where, _("Must be at least %(n)s.") % {"n": rule["minimum"]})
            if "maximum" in rule and value > rule["maximum"]:
                raise SchemaError(where, _("Must be at most %(n)s.") % {"n": rule["maximum"]})
        elif isinstance(value, dict):
            for name in rule.get("required", ()):
                if name not in value:
                    raise SchemaError(_where((*path, name)), _("This field is required."))
            properties = rule.get("properties", {})
            if rule.get("additionalProperties") is False:
                for name in value:
                    if name not in properties:
                        raise SchemaError(
                            _where((*path, name)),
                            _("Unknown field; this takes: %(fields)s.")
                            % {"fields": ", ".join(properties)},
                        )
            for name, sub_rule in reversed(properties.items()):
                if name in value:
                    stack.append((value[name], sub_rule, (*path, name)))
        elif isinstance(value, list) and "items" in rule:
            stack.extend(
                (entry, rule["items"], (*path, index))
                for index, entry in reversed(list(enumerate(value)))
            )


# --- In the OpenAPI document ------------------------------------------------------------------

EXPORT_COMPONENT = "ExportDocument"
# What an import's free-form members hold, as the API's JSON rules take it (config/api/parsers.py,
# inbox/portability/reader.py): any JSON value whose text — strings and object keys alike, at
# every depth — has no NUL character. Recursive, which JSON Schema 2020-12 (OpenAPI 3.1) allows;
# `propertyNames` says it of the keys. Nesting past 20 levels is refused too (`too_deep`).
IMPORT_VALUE_COMPONENT = "ImportJsonValue"
_NO_NUL = r"^[^\x00]*$"
_IMPORT_VALUE_REF = {"$ref": f"#/components/schemas/{IMPORT_VALUE_COMPONENT}"}
IMPORT_VALUE_SCHEMA = {
    "description": "Any JSON value with no NUL character in its strings or its keys, at most "
    "20 levels deep (the import job checks what each member must be).",
    "anyOf": [
        {"type": "null"},
        {"type": "boolean"},
        {"type": "number"},
        {"type": "string", "pattern": _NO_NUL},
        {"type": "array", "items": _IMPORT_VALUE_REF},
        {
            "type": "object",
            "propertyNames": {"pattern": _NO_NUL},
            "additionalProperties": _IMPORT_VALUE_REF,
        },
    ],
}


def _component_name(definition: str) -> str:
    return "Export" + "".join(part.title() for part in definition.split("_"))


def _with_component_refs(node):
    if isinstance(node, list):
        return [_with_component_refs(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: _with_component_refs(value) for key, value in node.items()}
    if "$ref" in converted:
        name = converted["$ref"].removeprefix("#/$defs/")
        converted["$ref"] = f"#/components/schemas/{_component_name(name)}"
    return converted


def document_export_format(result, generator, request, public):
    """drf-spectacular postprocessing hook: `export.schema.json` as the components of what the
    export and a redeemed transfer answer (OpenAPI 3.1's schemas are JSON Schema 2020-12, so
    the file goes in as it is, its `$defs` as components of their own)."""
    schema = export_schema()
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    top = {k: v for k, v in schema.items() if k not in ("$schema", "$id", "$defs")}
    schemas[EXPORT_COMPONENT] = _with_component_refs(top)
    for name, rule in schema["$defs"].items():
        schemas[_component_name(name)] = _with_component_refs(rule)
    schemas[IMPORT_VALUE_COMPONENT] = IMPORT_VALUE_SCHEMA
    for name, component in schemas.items():
        if name.startswith("ExportDocument") and name != EXPORT_COMPONENT:
            schemas[name] = _without_null_choice(component)
    return result


def _without_null_choice(node):
    """`oneOf: [ImportJsonValue, null]` (drf-spectacular's nullable) as the reference alone:
    the component takes null itself, and a null matching both choices would fail `oneOf`."""
    if isinstance(node, list):
        return [_without_null_choice(item) for item in node]
    if not isinstance(node, dict):
        return node
    choices = node.get("oneOf")
    if choices and _IMPORT_VALUE_REF in choices and {"type": "null"} in choices:
        node = {k: v for k, v in node.items() if k != "oneOf"} | _IMPORT_VALUE_REF
    return {key: _without_null_choice(value) for key, value in node.items()}
