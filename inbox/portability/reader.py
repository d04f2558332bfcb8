"""Reading an export document piece by piece, so an import's memory does not grow with it.

The document is read from a file (a request body spooled to disk, an upload) as often as the
import needs: each pass decodes the top-level members one at a time and the elements of the
four lists (`sources`, `subscriptions`, `runs`, `content_states`) one at a time, with the API's
JSON rules (config/api/parsers.py: finite numbers, no key twice, no NUL or lone surrogate, at
most 20 levels deep) and nothing else held. Only one element — a run with its items, say — is
ever in memory at once.
"""

from __future__ import annotations

import codecs
import hashlib
import json
from collections.abc import Iterator
from typing import BinaryIO

from django.utils.translation import gettext as _

from config.api.errors import APIInputError
from config.api.parsers import (
    MAX_JSON_DEPTH,
    RefusedJSONValue,
    check_json_value,
    strict_decoder,
)

LISTS = ("sources", "subscriptions", "runs", "content_states")
BLOCK = 1 << 20
_WHITESPACE = " \t\n\r"


class DocumentError(Exception):
    """The document is not JSON the import can read; `code` and `message` say why."""

    def __init__(self, message: str, *, code: str = "parse_error", field: str = "non_field_errors"):
        super().__init__(message)
        self.message = message
        self.code = code
        self.field = field


class _Text:
    """UTF-8 text read from `stream` a block at a time, with a read position."""

    def __init__(self, stream: BinaryIO, digest=None):
        self.stream = stream
        self.decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self.buffer = ""
        self.pos = 0
        self.eof = False
        self.digest = digest
        self.read_bytes = 0

    def fill(self) -> bool:
        if self.eof:
            return False
        data = self.stream.read(BLOCK)
        self.read_bytes += len(data)
        if self.digest is not None:
            self.digest.update(data)
        self.eof = not data
        try:
            text = self.decoder.decode(data, final=self.eof)
        except UnicodeDecodeError as exc:
            raise DocumentError(
                _("The body is not UTF-8 (byte %(position)s).")
                % {"position": self.read_bytes - len(data) + exc.start}
            ) from None
        self.buffer = self.buffer[self.pos :] + text
        self.pos = 0
        return True

    def peek(self) -> str:
        """The next character that is not white space ("" at the end)."""
        while True:
            while self.pos < len(self.buffer) and self.buffer[self.pos] in _WHITESPACE:
                self.pos += 1
            if self.pos < len(self.buffer):
                return self.buffer[self.pos]
            if not self.fill():
                return ""

    def expect(self, characters: str) -> str:
        found = self.peek()
        if not found or found not in characters:
            raise DocumentError(
                _("Malformed JSON: expected %(expected)s, found %(found)s.")
                % {
                    "expected": " or ".join(repr(c) for c in characters),
                    "found": repr(found) if found else _("the end"),
                }
            )
        self.pos += 1
        return found


class _Values:
    def __init__(self, text: _Text):
        self.text = text
        self.decoder = strict_decoder()

    def next(self):
        """Decode the value at the read position, reading more text until it is whole."""
        text = self.text
        text.peek()
        while True:
            try:
                value, end = self.decoder.raw_decode(text.buffer, text.pos)
            except json.JSONDecodeError as exc:
                if text.fill():
                    continue  # perhaps only cut off by the block's end
                raise DocumentError(_("Malformed JSON: %(reason)s") % {"reason": exc}) from None
            except RefusedJSONValue as exc:
                raise DocumentError(str(exc)) from None
            except RecursionError:
                raise DocumentError(
                    _("Nested more than %(depth)s levels deep.") % {"depth": MAX_JSON_DEPTH},
                    code="too_deep",
                ) from None
            except ValueError as exc:  # integers of more than 4,300 digits
                raise DocumentError(_("Malformed JSON: %(reason)s") % {"reason": exc}) from None
            # A number at the very end of the block may go on in the next one.
            if end == len(text.buffer) and not text.eof and text.fill():
                continue
            text.pos = end
            return value


def _checked(value, path: tuple):
    try:
        check_json_value(value)
    except APIInputError as exc:
        field, message = next(iter(exc.fields.items()))
        where = ".".join(str(p) for p in path)
        full = where if field == "non_field_errors" else f"{where}.{field}"
        raise DocumentError(message, code=exc.code, field=full) from None
    return value


def events(stream: BinaryIO, *, digest=None) -> Iterator[tuple[str, object, object]]:
    """Read the whole document once, yielding ("member", name, value) for each top-level
    member but the lists, ("item", (list name, index), value) for each element of a list, and
    ("end", None, None) last. Raises DocumentError for anything that is not one JSON object
    read by the API's rules."""
    text = _Text(stream, digest)
    values = _Values(text)
    if text.peek() != "{":
        # Not an object: decoded whole (it is no export anyway) so its error says why.
        value = values.next()
        yield "member", None, value
        return
    text.expect("{")
    seen: set[str] = set()
    if text.peek() == "}":
        text.pos += 1
    else:
        while True:
            name = values.next()
            if not isinstance(name, str):
                raise DocumentError(_("Malformed JSON: a key must be a text."))
            _checked(name, ("<key>",))
            if name in seen:
                raise DocumentError(
                    _("The key %(key)s appears twice in one object.") % {"key": repr(name)}
                )
            seen.add(name)
            text.expect(":")
            if name in LISTS and text.peek() == "[":
                text.pos += 1
                index = 0
                if text.peek() == "]":
                    text.pos += 1
                else:
                    while True:
                        yield "item", (name, index), _checked(values.next(), (name, index))
                        index += 1
                        if text.expect(",]") == "]":
                            break
                yield "member", name, []  # the list as a whole: present, read element by element
            else:
                yield "member", name, _checked(values.next(), (name,))
            if text.expect(",}") == "}":
                break
    if text.peek() != "":
        raise DocumentError(_("Malformed JSON: something follows the document."))
    yield "end", None, None


def sha256_and_size(stream: BinaryIO) -> tuple[str, int]:
    digest, size = hashlib.sha256(), 0
    stream.seek(0)
    while block := stream.read(BLOCK):
        digest.update(block)
        size += len(block)
    stream.seek(0)
    return digest.hexdigest(), size


def items(stream: BinaryIO, name: str) -> Iterator[tuple[int, object]]:
    """(index, element) of the list `name`, read from the start of `stream` again."""
    stream.seek(0)
    for kind, where, value in events(stream):
        if kind == "item" and where[0] == name:
            yield where[1], value
