"""One list shape for every collection of the API:

    {"next": URL or null, "previous": URL or null, "results": [...]}

`next` and `previous` are the same request with an opaque `cursor` parameter; follow `next`
until it is null. `limit` sets the page size (1 to the endpoint's maximum). A cursor that was
not made by the API is refused with 404 naming `cursor` (an empty one, which breaks its
documented form, with 400), and a limit that is not a whole number in range with 400 naming
`limit` — never a silent first page.

Three ways to fill it, all with this shape (and `page_schema` documents it once):
`NewestFirstCursorPagination` (DRF's keyset cursor, the default for ListAPIView),
`OffsetCursorPagination` for lists ordered by computed scores or held in memory, and
`cursor_page_response` for services with their own keyset (the Inbox).
"""

from __future__ import annotations

import base64
import binascii
import re

from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.pagination import BasePagination, CursorPagination
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

from config.api.errors import APIInputError

CURSOR_PARAM = "cursor"
# Cursors are base64 text (DRF's and OffsetCursorPagination's; the Inbox's are digits): never
# empty. One the server did not hand out is refused with 404 (`unknown_cursor`).
CURSOR_SCHEMA = {
    "type": "string",
    "minLength": 1,
    "maxLength": 500,
    "pattern": r"^[A-Za-z0-9+/=_-]+$",
}
LIMIT_PARAM = "limit"
PAGE_PARAMS = (CURSOR_PARAM, LIMIT_PARAM)
_DIGITS = re.compile(r"[0-9]{1,6}")


def read_limit(request, default: int, maximum: int) -> int:
    raw = request.query_params.get(LIMIT_PARAM)
    if raw is None:
        return default
    if not _DIGITS.fullmatch(raw) or not 1 <= int(raw) <= maximum:
        raise APIInputError(
            {LIMIT_PARAM: _("Must be a whole number from 1 to %(max)s.") % {"max": maximum}},
            field_codes={LIMIT_PARAM: "out_of_range" if _DIGITS.fullmatch(raw) else "invalid"},
        )
    return int(raw)


_CURSOR_FORM = re.compile(CURSOR_SCHEMA["pattern"])


def check_cursor_form(cursor: str) -> None:
    """A cursor outside its documented form (empty, too long, not base64 text) is a 400."""
    if len(cursor) > CURSOR_SCHEMA["maxLength"] or not _CURSOR_FORM.fullmatch(cursor):
        raise invalid_cursor()


def invalid_cursor() -> APIInputError:
    """A cursor that breaks its documented form (empty, say): 400."""
    return APIInputError(
        {CURSOR_PARAM: _("Not a cursor of this list; use the next or previous link as given.")}
    )


def unknown_cursor() -> APIInputError:
    """A cursor of the documented form that this list did not hand out: 404, naming `cursor`
    (nothing is at that position; the schema cannot tell an issued cursor from another)."""
    refusal = APIInputError(
        {CURSOR_PARAM: _("Not a cursor of this list; use the next or previous link as given.")},
        code="not_found",
        field_codes={CURSOR_PARAM: "invalid"},
    )
    refusal.status_code = 404
    return refusal


def page_schema(results_schema: dict) -> dict:
    return {
        "type": "object",
        "required": ["next", "previous", "results"],
        "properties": {
            "next": {
                "type": ["string", "null"],
                "format": "uri",
                "description": "The next page; null on the last one.",
            },
            "previous": {
                "type": ["string", "null"],
                "format": "uri",
                "description": "The page before; null on the first one.",
            },
            "results": results_schema,
        },
    }


def _page_parameters(maximum: int, default: int) -> list[dict]:
    return [
        {
            "name": CURSOR_PARAM,
            "required": False,
            "in": "query",
            "description": "The cursor from a `next` or `previous` link.",
            "schema": CURSOR_SCHEMA,
        },
        {
            "name": LIMIT_PARAM,
            "required": False,
            "in": "query",
            "description": f"Items per page, 1 to {maximum} (default {default}).",
            "schema": {"type": "integer", "minimum": 1, "maximum": maximum},
        },
    ]


def page_body(next_url: str | None, previous_url: str | None, results) -> dict:
    return {"next": next_url, "previous": previous_url, "results": results}


class NewestFirstCursorPagination(CursorPagination):
    """DRF's keyset cursor over `-id`: stable while rows are added."""

    ordering = ("-id",)
    page_size_query_param = LIMIT_PARAM
    max_page_size = 200

    def get_page_size(self, request):
        return read_limit(request, self.page_size, self.max_page_size)

    def decode_cursor(self, request):
        if CURSOR_PARAM in request.query_params:
            # DRF reads an empty cursor as the first page; every list of the API refuses it.
            check_cursor_form(request.query_params[CURSOR_PARAM])
        try:
            return super().decode_cursor(request)
        except NotFound:
            raise unknown_cursor() from None

    def get_paginated_response(self, data):
        return Response(page_body(self.get_next_link(), self.get_previous_link(), data))

    def paginate_first_page(self, request, first_page, queryset, view=None):
        """`paginate_queryset(queryset())`, with the first page at the default size read by
        `first_page(rows)` instead: the list's first `rows` rows newest first (a query compiled
        once, config/compiled_query.py). The same page and links as DRF's own first page; any
        other page, and any other size, is DRF's."""
        page_size = self.get_page_size(request)
        if CURSOR_PARAM in request.query_params or page_size != self.page_size:
            return self.paginate_queryset(queryset(), request, view)
        # The state DRF's paginate_queryset leaves for a first page (no cursor, no offset).
        self.request = request
        self.page_size = page_size
        self.base_url = request.build_absolute_uri()
        self.ordering = self.get_ordering(request, None, view)  # the queryset is not read
        self.cursor = None
        rows = first_page(page_size + 1)
        self.page = rows[:page_size]
        self.has_next = len(rows) > page_size
        self.next_position = (
            self._get_position_from_instance(rows[-1], self.ordering) if self.has_next else None
        )
        self.has_previous = False
        self.previous_position = None
        self.display_page_controls = self.has_next and self.template is not None
        return self.page

    def get_paginated_response_schema(self, schema):
        return page_schema(schema)

    def get_schema_operation_parameters(self, view):
        return _page_parameters(self.max_page_size, self.page_size)


class OffsetCursorPagination(BasePagination):
    """A cursor that holds a position in a fixed ordering: for lists sorted by scores that
    change (where a keyset would need every sort key) and for short lists built in memory."""

    page_size = 20
    max_page_size = 100

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        self.limit = read_limit(request, self.page_size, self.max_page_size)
        self.offset = self._offset(request.query_params.get(CURSOR_PARAM))
        page = list(queryset[self.offset : self.offset + self.limit + 1])
        self.has_next = len(page) > self.limit
        return page[: self.limit]

    @staticmethod
    def _encode(offset: int) -> str:
        return base64.urlsafe_b64encode(f"o{offset}".encode()).decode().rstrip("=")

    @staticmethod
    def _offset(cursor: str | None) -> int:
        if cursor is None:
            return 0
        check_cursor_form(cursor)
        try:
            text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            raise unknown_cursor() from None
        if not re.fullmatch(r"o[0-9]{1,9}", text):
            raise unknown_cursor()
        return int(text[1:])

    def _link(self, offset: int | None) -> str | None:
        if offset is None:
            return None
        url = self.request.build_absolute_uri()
        if offset == 0:
            return remove_query_param(url, CURSOR_PARAM)
        return replace_query_param(url, CURSOR_PARAM, self._encode(offset))

    def get_paginated_response(self, data):
        next_offset = self.offset + self.limit if self.has_next else None
        previous_offset = max(0, self.offset - self.limit) if self.offset > 0 else None
        return Response(page_body(self._link(next_offset), self._link(previous_offset), data))

    def get_paginated_response_schema(self, schema):
        return page_schema(schema)

    def get_schema_operation_parameters(self, view):
        return _page_parameters(self.max_page_size, self.page_size)


def cursor_page_response(request, results, *, next_cursor: str | None) -> Response:
    """The list shape for a service that pages with its own keyset and reads forward only."""
    url = request.build_absolute_uri()
    next_url = replace_query_param(url, CURSOR_PARAM, next_cursor) if next_cursor else None
    return Response(page_body(next_url, None, results))


_page_serializers: dict[type, type] = {}


def page_of(item_serializer: type[serializers.Serializer]) -> type[serializers.Serializer]:
    """A serializer documenting a page of `item_serializer` (for views that build the page
    themselves); named Page<Item> in the schema."""
    if item_serializer not in _page_serializers:
        name = item_serializer.__name__.removesuffix("Serializer")
        _page_serializers[item_serializer] = type(
            f"{name}PageSerializer",
            (serializers.Serializer,),
            {
                "__doc__": f"A page of {name} items; follow `next` until it is null.",
                "next": serializers.URLField(allow_null=True),
                "previous": serializers.URLField(allow_null=True),
                "results": item_serializer(many=True),
            },
        )
    return _page_serializers[item_serializer]
