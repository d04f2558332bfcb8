"""Serializer fields that take JSON's types as they are: no silent coercion, no truncation.

DRF's own fields are lenient for HTML forms: "1" becomes 1, true becomes 1, 59.9 becomes 59,
1 becomes "1", "yes" becomes True, and a ChoiceField matches 1 against "1". The API reads
JSON only, so a client that sends the wrong type has a bug, and saying so beats guessing.
A whole number written as 70.0 is the integer 70, as JSON Schema counts it.

`Query*` fields read query-string text, where everything is a string: they take only the plain
forms (ASCII digits, `true`/`false`, `YYYY-MM-DD`) — never "١٢", "+5", " 5" or "1e3".
"""

from __future__ import annotations

import math
import re
from datetime import UTC, date, datetime
from zoneinfo import available_timezones

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

# The largest id a BigAutoField holds: anything above can only be "not found", and PostgreSQL
# would refuse to compare with it.
MAX_ID = 2**63 - 1


_RANGE_MESSAGES = {
    "max_value": _("Must be at most {max_value}."),
    "min_value": _("Must be at least {min_value}."),
}


class StrictIntegerField(serializers.IntegerField):
    default_error_messages = {
        "invalid": _("Must be a whole number (a JSON integer)."),
        **_RANGE_MESSAGES,
    }

    def to_internal_value(self, data):
        # JSON has one number type: 30.0 is the integer 30 to JSON Schema (2020-12, which the
        # OpenAPI 3.1 schema speaks), and to any client whose language writes whole floats
        # that way. 59.9 is not a whole number; true is not a number.
        if isinstance(data, float) and math.isfinite(data) and data.is_integer():
            data = int(data)
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class _IdRange:
    """An id: 1 to MAX_ID unless the field says otherwise."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(**kwargs)


class IdField(_IdRange, StrictIntegerField):
    pass


# What the schema says of every string the API reads (config/api/schema.py adds it): no NUL
# character, which DRF's CharField refuses (PostgreSQL could not store it).
NO_NUL_PATTERN = r"^[^\x00]*$"
NON_EMPTY_NO_NUL_PATTERN = r"^[^\x00]+$"


def _cron_field(number: str) -> str:
    atom = rf"(\*|({number})(-({number}))?)(/([1-9]|[1-5][0-9]))?"
    return rf"{atom}(,{atom})*"


_SIXTY = r"[0-5]?[0-9]"
# A cron expression as digests/schedules/next_run.normalize_cron takes it, in numbers: five
# fields (minute hour day month weekday), or six with seconds first, or a macro. Month and
# weekday names, which the server takes too, are left out of the pattern (a stricter schema
# than the server is safe: what it allows is accepted).
CRON_PATTERN = (
    r"^(@(yearly|annually|monthly|weekly|daily|midnight|hourly)|("
    + _cron_field(_SIXTY)
    + " )?"
    + " ".join(
        _cron_field(number)
        for number in (
            _SIXTY,
            r"[01]?[0-9]|2[0-3]",
            r"0?[1-9]|[12][0-9]|3[01]",
            r"0?[1-9]|1[0-2]",
            r"[0-7]",
        )
    )
    + ")$"
)
# A topic's schedule: editions at least 24 hours apart (topics/publishing.py), so one minute
# and one hour a day at most — or a daily or rarer macro.
TOPIC_CRON_PATTERN = (
    r"^(@(yearly|annually|monthly|weekly|daily|midnight)|("
    + r"[0-5]?[0-9] ([01]?[0-9]|2[0-3]) "
    + " ".join(
        _cron_field(number) for number in (r"0?[1-9]|[12][0-9]|3[01]", r"0?[1-9]|1[0-2]", r"[0-7]")
    )
    + "))$"
)
# The time zones a schedule takes (digests/schedules/next_run.py: the IANA names, without the
# host's own `localtime`).
TIME_ZONES = sorted(set(available_timezones()) - {"localtime"})
# A moment as AwareDateTimeField takes it: ISO 8601 with seconds and a UTC offset, years
# 1970-2199 (with `format: date-time`, which rules out the 30th of February).
DATETIME_PATTERN = (
    r"^(19[7-9][0-9]|2[01][0-9]{2})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
    r"T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{1,6})?"
    r"(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"
)
# A day as QueryDateField takes it (YYYY-MM-DD, the same years).
DATE_PATTERN = r"^(19[7-9][0-9]|2[01][0-9]{2})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"
DATETIME_SCHEMA = {"type": "string", "format": "date-time", "pattern": DATETIME_PATTERN}
# An address the fetcher may be given: http(s), a host, a port it fetches from (80, 443,
# 8000-8999: ingest/fetching/fetch.py; FETCH_EXTRA_ALLOWED_PORTS may add more, which the schema
# leaves out), no spaces or control characters.
_URL_REST = r"://[^\s\x00/?#@:]+(:(80|443|8[0-9]{3}))?([/?#][^\s\x00]*)?$"
HTTP_URL_PATTERN = r"^https?" + _URL_REST
HTTPS_URL_PATTERN = r"^https" + _URL_REST


class StrictCharField(serializers.CharField):
    """Text only. `max_length` refuses longer text (it never cuts); leading and trailing
    spaces are kept unless the field says `trim_whitespace=True`.

    In the schema (config/api/schema.py) every one has a `pattern`: NO_NUL_PATTERN unless the
    field gives its own (`schema_pattern`), and `schema_enum` lists the only values taken."""

    schema_pattern: str = NO_NUL_PATTERN
    schema_enum: list[str] | None = None
    schema_format: str | None = None

    default_error_messages = {
        "invalid": _("Must be a string."),
        "blank": _("Required; may not be blank."),
        "max_length": _("At most {max_length} characters."),
    }

    def __init__(
        self,
        *,
        schema_pattern: str | None = None,
        schema_enum: list[str] | None = None,
        schema_format: str | None = None,
        **kwargs,
    ):
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)
        if schema_pattern is not None:
            self.schema_pattern = schema_pattern
        if schema_enum is not None:
            self.schema_enum = schema_enum
        if schema_format is not None:
            self.schema_format = schema_format

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)

    def schema_extra(self) -> dict:
        """What the schema says beyond type and length (config/api/schema.py adds it)."""
        # An empty string, where allowed, is the schema's second choice (drf-spectacular
        # writes `oneOf: [this, {maxLength: 0}]`), so it is not added here.
        if self.schema_enum is not None:
            return {"enum": list(self.schema_enum)}
        pattern = self.schema_pattern
        if pattern == NO_NUL_PATTERN and self.allow_blank:
            # Not empty: the empty string is the other, separate choice (oneOf).
            pattern = NON_EMPTY_NO_NUL_PATTERN
        extra = {"pattern": pattern}
        if self.schema_format:
            extra["format"] = self.schema_format
        return extra


class CronField(StrictCharField):
    """A cron expression or macro; the serializer still checks it fires (validate_cron)."""

    schema_pattern = CRON_PATTERN

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 120)
        super().__init__(**kwargs)


class TimeZoneField(StrictCharField):
    """An IANA time zone name; the schema lists them all (the server checks the same list)."""

    schema_enum = TIME_ZONES

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 64)
        super().__init__(**kwargs)


class HttpUrlField(StrictCharField):
    """An http(s) address for the server to fetch or post to; the fetch policy still decides
    whether it may (a private address is refused by the service, naming the field)."""

    schema_pattern = HTTP_URL_PATTERN
    schema_format = "uri"

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 2048)
        super().__init__(**kwargs)


class StrictBooleanField(serializers.BooleanField):
    default_error_messages = {"invalid": _("Must be true or false.")}

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class StrictChoiceField(serializers.ChoiceField):
    """One of the choices, given as the string itself (DRF would match 1 against "1")."""

    default_error_messages = {"invalid_choice": _("Choose one of {choices}; got {input}.")}

    def to_internal_value(self, data):
        if isinstance(data, str) and data in self.choice_strings_to_values:
            return self.choice_strings_to_values[data]
        if data == "" and self.allow_blank:
            return ""
        shown = repr(data[:40]) if isinstance(data, str) else type(data).__name__
        self.fail("invalid_choice", input=shown, choices=", ".join(self.choice_strings_to_values))


class StrictListField(serializers.ListField):
    """A list; `unique_items=True` says in the schema (`uniqueItems`) that the server refuses
    an entry given twice (StrictListFieldExtension in config/api/schema.py)."""

    default_error_messages = {
        "not_a_list": _("Must be a list (a JSON array)."),
        "max_length": _("At most {max_length} entries."),
        "min_length": _("At least {min_length} entries."),
    }

    def __init__(self, *, unique_items: bool = False, **kwargs):
        self.unique_items = unique_items
        super().__init__(**kwargs)


class AwareDateTimeField(serializers.DateTimeField):
    """ISO 8601 text with a UTC offset; a naive time is refused rather than guessed, and so is
    anything outside the years 1970–2199."""

    # A "+" in a query string arrives as a space: "…T08:00:00 01:00" means "+01:00".
    _SPACED_OFFSET = re.compile(r"^(.*T[\d:.]+) (\d{2}:?\d{2})$")

    def to_internal_value(self, value) -> datetime:
        if not isinstance(value, str):
            raise serializers.ValidationError(
                _("Must be an ISO 8601 date and time, e.g. 2026-01-05T08:00:00Z.")
            )
        text = self._SPACED_OFFSET.sub(r"\1+\2", value.strip())
        try:
            parsed = datetime.fromisoformat(text)
        except ValueError:
            raise serializers.ValidationError(
                _("Must be an ISO 8601 date and time, e.g. 2026-01-05T08:00:00Z.")
            ) from None
        if parsed.tzinfo is None:
            raise serializers.ValidationError(
                _("Must include a UTC offset, e.g. 2026-01-05T08:00:00Z or +01:00.")
            )
        if not 1970 <= parsed.year <= 2199:
            raise serializers.ValidationError(
                _("Must be between the years 1970 and 2199."), code="out_of_range"
            )
        # In UTC: Python takes offsets up to ±23:59, PostgreSQL only up to ±15:59 (a query
        # with "-20:46" was a 500).
        return parsed.astimezone(UTC)


# --- Query-string fields ------------------------------------------------------------------


class QueryIntegerField(serializers.IntegerField):
    default_error_messages = {
        "invalid": _("Must be a whole number written with digits 0-9."),
        **_RANGE_MESSAGES,
    }
    _DIGITS = re.compile(r"[0-9]{1,19}")

    def to_internal_value(self, data):
        if not isinstance(data, str) or not self._DIGITS.fullmatch(data):
            self.fail("invalid")
        return super().to_internal_value(int(data))


class QueryIdField(_IdRange, QueryIntegerField):
    pass


class QueryBooleanField(serializers.BooleanField):
    default_error_messages = {"invalid": _("Use true or false.")}

    def to_internal_value(self, data):
        if data == "true":
            return True
        if data == "false":
            return False
        self.fail("invalid")


class QueryDateField(serializers.DateField):
    default_error_messages = {"invalid": _("Must be a date written YYYY-MM-DD.")}
    _DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")

    def to_internal_value(self, data) -> date:
        if not isinstance(data, str) or not self._DATE.fullmatch(data):
            self.fail("invalid")
        try:
            return date.fromisoformat(data)
        except ValueError:
            self.fail("invalid")
