"""The WSGI application for API fuzzing (tests/api_fuzz.py): Tidings as in production, except
that the one outbound HTTP client checks each address as usual and then connects nowhere, so
generated URLs are parsed, resolved and refused exactly as they would be, but never fetched;
and an undeclared error code is raised (a 500), not only logged."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

from config.wsgi import application
from ingest.fetching import fetch

_resolve_checked = fetch.resolve_checked


def _resolve_then_refuse(target):
    _resolve_checked(target)
    raise fetch.ConnectionFailed(
        _("The host %(host)s could not be found.") % {"host": repr(target.host)}, url=target.url
    )


fetch.resolve_checked = _resolve_then_refuse
# An error code not declared in config/api/error_codes.py is a 500 the fuzzer reports.
settings.API_STRICT_ERROR_CODES = True

__all__ = ["application"]
