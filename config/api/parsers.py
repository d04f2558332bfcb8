"""JSON is the API's one request format, read with limits that answer 400 or 413, never 500.

A body is at most `API_MAX_BODY_BYTES` (read one byte past it, never whole), UTF-8, one JSON
value nested at most `MAX_JSON_DEPTH` deep, with finite numbers, no key twice in an object, and
no text a database cannot store: a NUL character (PostgreSQL refuses it) or a lone surrogate
(not Unicode; no encoder takes it). The refusal names where in the body the problem is.
"""

from __future__ import annotations

import json
import math
import re

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.parsers import BaseParser
from rest_framework.renderers import JSONRenderer

from config.api.errors import APIInputError, PayloadTooLarge

# Deep enough for any body the API takes (the deepest is 3), shallow enough that checking a
# body can never exhaust the stack.
MAX_JSON_DEPTH = 20

_BAD_TEXT = re.compile("[\x00\ud800-\udfff]")


def bad_text_reason(text: str) -> str | None:
    """Why `text` cannot be stored, or None."""
    found = _BAD_TEXT.search(text)
    if found is None:
        return None
    if found.group() == "\x00":
        return _("Contains a NUL character (\\u0000), which text cannot hold.")
    return _("Contains a lone surrogate (\\u%(code)04x), which is not valid Unicode.") % {
        "code": ord(found.group())
    }


def _path(parts: tuple) -> str:
    return ".".join(str(p) for p in parts) or "non_field_errors"


def check_json_value(value) -> None:
    """Refuse (APIInputError) a value nested too deep or holding text that cannot be stored."""
    stack = [(value, ())]
    while stack:
        current, where = stack.pop()
        if len(where) > MAX_JSON_DEPTH:
            raise APIInputError(
                {
                    _path(where[:MAX_JSON_DEPTH]): _("Nested more than %(depth)s levels deep.")
                    % {"depth": MAX_JSON_DEPTH}
                },
                code="too_deep",
            )
        if isinstance(current, str):
            reason = bad_text_reason(current)
            if reason:
                raise APIInputError({_path(where): reason}, code="bad_text")
        elif isinstance(current, dict):
            for key, item in current.items():
                reason = bad_text_reason(key)
                if reason:
                    raise APIInputError({_path((*where, "<key>")): reason}, code="bad_text")
                stack.append((item, (*where, key)))
        elif isinstance(current, list):
            stack.extend((item, (*where, index)) for index, item in enumerate(current))


class _Refused(ValueError):
    pass


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise _Refused(_("The number %(number)s is too large.") % {"number": text[:40]})
    return number


def _no_constants(name: str):
    raise _Refused(_("%(name)s is not a JSON number.") % {"name": name})


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    result = {}
    for key, value in pairs:
        if key in result:
            raise _Refused(_("The key %(key)s appears twice in one object.") % {"key": repr(key)})
        result[key] = value
    return result


# For readers that decode a large document piece by piece with the same rules
# (inbox/portability/reader.py): a decoder, and what it raises for a refused value.
RefusedJSONValue = _Refused


def strict_decoder() -> json.JSONDecoder:
    """A decoder with this module's rules: finite numbers, no NaN or Infinity, no key twice."""
    return json.JSONDecoder(
        parse_float=_finite, parse_constant=_no_constants, object_pairs_hook=_unique_keys
    )


def max_body_bytes() -> int:
    return settings.API_MAX_BODY_BYTES


def too_large(limit: int) -> str:
    return _("The request body is larger than %(limit)s bytes.") % {"limit": limit}


def parse_json_bytes(raw: bytes, *, limit: int | None = None):
    """The JSON value in `raw`, or an APIInputError / PayloadTooLarge saying what is wrong.
    `limit` replaces API_MAX_BODY_BYTES for the rare body allowed to be larger (an import)."""
    limit = limit or max_body_bytes()
    if len(raw) > limit:
        raise PayloadTooLarge(too_large(limit))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise APIInputError(
            {
                "non_field_errors": _("The body is not UTF-8 (byte %(position)s).")
                % {"position": exc.start}
            },
            code="parse_error",
        ) from None
    try:
        value = json.loads(
            text,
            parse_float=_finite,
            parse_constant=_no_constants,
            object_pairs_hook=_unique_keys,
        )
    except RecursionError:
        raise APIInputError(
            {
                "non_field_errors": _("Nested more than %(depth)s levels deep.")
                % {"depth": MAX_JSON_DEPTH}
            },
            code="too_deep",
        ) from None
    except _Refused as exc:
        raise APIInputError({"non_field_errors": str(exc)}, code="parse_error") from None
    except ValueError as exc:
        # json.JSONDecodeError (position and reason), and integers of more than 4,300 digits.
        raise APIInputError(
            {"non_field_errors": _("Malformed JSON: %(reason)s") % {"reason": exc}},
            code="parse_error",
        ) from None
    check_json_value(value)
    return value


class JSONBodyParser(BaseParser):
    """`application/json` request bodies (any other type is answered 415 by DRF and by the
    request guard in config/api/middleware.py)."""

    media_type = "application/json"
    renderer_class = JSONRenderer

    def parse(self, stream, media_type=None, parser_context=None):
        if stream is None:
            return {}
        charset = (media_type or "").partition("charset=")[2].strip().strip('"').lower()
        if charset and charset not in ("utf-8", "utf8"):
            raise APIInputError(
                {"non_field_errors": _("Send JSON as UTF-8 (charset=utf-8).")},
                code="parse_error",
            )
        return parse_json_bytes(stream.read(max_body_bytes() + 1))
