"""Names for enum values that a generated client cannot name by itself (schema hook).

Client generators make one constant per enum value from the value itself (`not_interested` →
NOT_INTERESTED). Values that differ only in punctuation collide there: the IANA zones
`Etc/GMT+1` and `Etc/GMT-1`, or `GMT+0`, `GMT-0` and `GMT0`; openapi-python-client (the
client in clients/python) then stops, or keeps one of them and rejects the other value when it
reads an answer. For such an enum, `name_colliding_enum_values` adds the `x-enum-varnames`
extension generators read (openapi-python-client, openapi-generator): one distinct name per
value, `+` and `-` before a digit spelled PLUS and MINUS. Enums whose values stay distinct
however punctuation is spelled are left as they are, so their constants keep their names.
"""

from __future__ import annotations

import re

VARNAMES = "x-enum-varnames"
_SIGN = {"+": "_PLUS_", "-": "_MINUS_"}


def _bare(value: str) -> str:
    # What is left of a value however a generator spells its punctuation.
    return "".join(ch for ch in value if ch.isalnum()).upper()


def _name(value: str) -> str:
    text = re.sub(r"[+-](?=\d)", lambda m: _SIGN[m.group(0)], value)
    name = "_".join(part for part in re.split(r"[\W_]+", text) if part).upper()
    return name if name[:1].isalpha() else f"VALUE_{name}"


def enum_varnames(values: list) -> list[str] | None:
    """Distinct names for `values`, or None when the values need none."""
    if not all(isinstance(value, str) for value in values):
        return None
    bare = [_bare(value) for value in values]
    if len(set(bare)) == len(bare):
        return None
    names: list[str] = []
    for value in values:
        name, n = _name(value), 2
        while name in names:
            name, n = f"{_name(value)}_{n}", n + 1
        names.append(name)
    return names


def _walk(node) -> None:
    if isinstance(node, dict):
        values = node.get("enum")
        if isinstance(values, list) and VARNAMES not in node:
            names = enum_varnames(values)
            if names is not None:
                node[VARNAMES] = names
        for key, child in node.items():
            if key not in ("example", "examples"):
                _walk(child)
    elif isinstance(node, list):
        for child in node:
            _walk(child)


def name_colliding_enum_values(result, generator, request, public):
    """drf-spectacular postprocessing hook: `x-enum-varnames` where values would collide."""
    _walk(result)
    return result


def share_component_enums(result, generator, request, public):
    """drf-spectacular postprocessing hook: a query parameter whose values are exactly those of
    an enum component refers to it. drf-spectacular makes components of body enums only, so
    the time zones of `/billing/estimate` and `/schedule/preview` were inlined twice more, and a
    generated client got three 600-value enums for one list."""
    components = {
        tuple(schema["enum"]): name
        for name, schema in result.get("components", {}).get("schemas", {}).items()
        if isinstance(schema.get("enum"), list) and len(schema["enum"]) > 1
    }
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                name = components.get(tuple(schema.get("enum") or ()))
                if name is not None:
                    parameter["schema"] = {"$ref": f"#/components/schemas/{name}"}
                    if "default" in schema:
                        parameter["description"] = (
                            f"{parameter.get('description', '').rstrip()} "
                            f"Default: `{schema['default']}`."
                        ).strip()
    return result
