"""Serializer fields that take JSON's types as they are: no silent coercion, no truncation.

DRF's own fields are lenient for HTML forms: "1" becomes 1, true becomes 1, 59.9 becomes 59,
1 becomes "1", "yes" becomes True, and a ChoiceField matches 1 against "1". The API reads
JSON only, so a client that sends the wrong type has a bug, and saying so beats guessing.

`Query*` fields read query-string text, where everything is a string: they take only the plain
forms (ASCII digits, `true`/`false`, `YYYY-MM-DD`) — never "١٢", "+5", " 5" or "1e3".
"""

from __future__ import annotations

import re
from datetime import date, datetime

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


class StrictCharField(serializers.CharField):
    """Text only. `max_length` refuses longer text (it never cuts); leading and trailing
    spaces are kept unless the field says `trim_whitespace=True`."""

    default_error_messages = {
        "invalid": _("Must be a string."),
        "blank": _("Required; may not be blank."),
        "max_length": _("At most {max_length} characters."),
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


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
    default_error_messages = {
        "not_a_list": _("Must be a list (a JSON array)."),
        "max_length": _("At most {max_length} entries."),
        "min_length": _("At least {min_length} entries."),
    }


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
        return parsed


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
