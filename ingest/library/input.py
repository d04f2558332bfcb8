"""Validation shared by the forms of source types with several settings (crawl, search).

Every rule reports the field it is about; a service collects all of a request's problems and
raises them together as one `SourceInputError`, before anything is written.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from ingest.library.sources import SourceError


class SourceInputError(SourceError):
    """One or more refused fields: `errors` maps each field to its message. As a SourceError
    it reads as its first problem, so callers that show one message still say something true."""

    def __init__(self, errors: dict[str, str], *, code: str = "invalid"):
        field, message = next(iter(errors.items()))
        super().__init__(message, field=field, code=code)
        self.errors = errors


def text_list(value, field: str, errors: dict[str, str]) -> list[str]:
    """A list of strings, or one string with one entry per line or comma (console forms)."""
    if value in (None, ""):
        return []
    if isinstance(value, str):
        value = value.replace("\n", ",").split(",")
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        errors[field] = _("Must be a list of texts (or one text with one entry per line).")
        return []
    return list(dict.fromkeys(v.strip() for v in value if v.strip()))


def int_in_range(value, field: str, low: int, high: int, errors: dict[str, str]) -> int | None:
    # bool is an int to Python; "max_depth": true is a mistake, not 1.
    if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
        number = None
    else:
        try:
            number = int(value)
        except (TypeError, ValueError):
            number = None
    if number is None:
        errors[field] = _("Must be a whole number from %(low)d to %(high)d.") % {
            "low": low,
            "high": high,
        }
        return None
    if not low <= number <= high:
        errors[field] = _("Must be from %(low)d to %(high)d; got %(value)d.") % {
            "low": low,
            "high": high,
            "value": number,
        }
        return None
    return number
