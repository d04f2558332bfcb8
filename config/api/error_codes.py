"""Every `error.code` and every per-field code the API answers, declared once.

The exception handler and `error_body` (config/api/errors.py) check each code they write
against these tables; the schema publishes them as the `ErrorCode` and `FieldErrorCode` enum
components (config/api/schema.py) and docs/api.md lists them. A code a service invents without
declaring it here is logged and, under the test settings (`API_STRICT_ERROR_CODES`), raised, so
the suite fails instead of a client meeting a code no document names.

Codes are stable: a client may branch on them. Add codes; never rename or remove one.
"""

from __future__ import annotations

# The code of a whole answer: what went wrong, for a program to branch on.
ERROR_CODES: dict[str, str] = {
    # Any request
    "invalid": "A field or parameter was refused; see `fields` and `field_codes`.",
    "parse_error": "The body is not valid JSON (or not the document an import takes).",
    "bad_text": "Text with NUL characters, lone surrogates or invalid UTF-8.",
    "too_deep": "JSON nested more than 20 levels deep.",
    "too_large": "The body, upload or fetched document is larger than the API takes.",
    "unsupported_media_type": "A body that is not JSON (`Content-Type: application/json`).",
    "not_acceptable": "The `Accept` header excludes JSON.",
    "bad_request": "Django could not understand the request (a bad Host, say).",
    "not_authenticated": "No credentials were sent.",
    "authentication_failed": "Malformed, unknown, expired or revoked credentials.",
    "permission_denied": "Authenticated, but not allowed (a read-only token writing, a "
    "non-staff token on /admin).",
    "not_found": "Nothing of yours with that id, or no such path.",
    "method_not_allowed": "The path does not take that method.",
    "throttled": "Too many requests; wait the seconds in `Retry-After`.",
    "server_error": "A fault on the server's side; it has been logged.",
    # State and limits
    "conflict": "Refused in the state things are in (a retry of a run that did not fail).",
    "taken": "The name or address is already in use (HTTP 409).",
    "unreadable_url": "A notification URL of a known service that its plugin cannot read "
    "(HTTP 422).",
    "empty_period": "The period asked for is empty: its end is not after its start (HTTP 422).",
    "invalid_combination": "Each field is valid on its own, but not together or with what is "
    "stored (an end before the start, no schedule, nothing to read, a fixed language without "
    "a locale, not exactly one of several parameters); the fields are named (HTTP 422).",
    "invalid_pattern": "A regular expression that does not compile (HTTP 422).",
    "invalid_time": "A time the operation cannot use as things are: not in the future, too "
    "far ahead, or words for a time the server does not understand (HTTP 422).",
    "tier_limit": "A limit of the account's plan (HTTP 403).",
    "idempotency_key_reused": "The `Idempotency-Key` was sent before with a different request.",
    "import_in_progress": "An import of this account is already running.",
    "import_timed_out": "The import ran past `IMPORT_MAX_SECONDS` and was rolled back.",
    "unsupported_format": "The document is not a `tidings-export` this server reads.",
    "transfer_code_limit": "The account already has as many open transfer codes as it may.",
    "transfer_code_spent": "The transfer code was used, revoked or has expired.",
    "transfer_refused": "The transfer code or instance was refused.",
    "transfer_failed": "The other instance could not be reached or refused the transfer.",
    "refused": "An inbound newsletter message was refused (its signature or its shape).",
    "already_delivered": "The page was already delivered to the reading list.",
    # Sources, pages and watches: what fetching or reading the address found
    "required": "A required field was empty.",
    "too_long": "Text longer than the field takes.",
    "invalid_choice": "Not one of the values the field takes.",
    "fetch_failed": "The address could not be fetched.",
    "refused_by_policy": "The address is not one the server fetches (private or local).",
    "timeout": "The address did not answer in time.",
    "tls_error": "The address's TLS certificate or handshake failed.",
    "connection_failed": "No connection could be made to the address.",
    "rate_limited": "The address answered 429; try later.",
    "http_error": "The address answered with an HTTP error.",
    "browser_unavailable": "Rendering the page needs the browser, which is not available.",
    "browser_failed": "The browser could not render the page.",
    "not_html": "The address did not answer with an HTML page.",
    "empty_page": "The page has no text.",
    "no_feed": "The address is not a feed, and the page names none.",
    "robots_unavailable": "The site's robots.txt could not be read.",
    "robots_disallowed": "The site's robots.txt disallows reading the page.",
    "off_site_redirect": "The address redirects to another site.",
    "invalid_selector": "The CSS selector is not valid.",
    "selector_empty": "The CSS selector matches nothing on the page.",
    "no_match": "The listing's selector matches no links.",
    "no_items": "The page lists no items to follow.",
    "too_slow": "The rule takes too long to check.",
    "unknown_pack": "No source pack with that key.",
    "not_configured": "This server is not configured for the feature asked for (Web Push "
    "without VAPID keys, NAVER News without credentials); HTTP 422.",
    # OPML files
    "empty": "The file is empty.",
    "not_xml": "The file is not well-formed XML.",
    "forbidden_xml": "The XML uses entities or DTDs, which are refused.",
    "not_opml": "The XML is not OPML.",
    "invalid_opml": "The OPML could not be read.",
    "no_outlines": "The OPML lists no feeds.",
    "too_many_feeds": "The OPML lists more feeds than one import takes.",
}

# Codes of a refusal that no schema can foresee: what fetching or reading the address found
# (the network's state: a host that does not resolve, a page that answers 404…), content the
# server reads and cannot use (a CSS selector that does not parse, a file that is not OPML),
# and features this server is not configured for. The request was well formed — it matches
# the schema — so the answer is 422 (Unprocessable Content), not 400, which the API keeps for
# a request that breaks a rule the schema states (config/api/errors.py).
UNPROCESSABLE_CODES: frozenset[str] = frozenset(
    {
        "fetch_failed",
        "refused_by_policy",
        "timeout",
        "tls_error",
        "connection_failed",
        "rate_limited",
        "http_error",
        "browser_unavailable",
        "browser_failed",
        "not_html",
        "empty_page",
        "no_feed",
        "robots_unavailable",
        "robots_disallowed",
        "off_site_redirect",
        "invalid_selector",
        "selector_empty",
        "no_match",
        "no_items",
        "too_slow",
        "too_large",
        "empty",
        "not_xml",
        "forbidden_xml",
        "not_opml",
        "invalid_opml",
        "no_outlines",
        "not_configured",
        "empty_period",
        "invalid_combination",
        "invalid_time",
        "invalid_pattern",
        "unreadable_url",
    }
)

# The status of a refusal by its code, where the code says more than "bad input": a name in
# use is a conflict with what exists, an id (in the body or the query) that names nothing of
# the caller's is not found — as it is in a path.
REFUSAL_STATUS: dict[str, int] = {
    "taken": 409,
    "conflict": 409,
    "not_found": 404,
    "already_delivered": 409,
    **dict.fromkeys(UNPROCESSABLE_CODES, 422),  # `too_large` too: a fetched page (a body is 413)
}

# The code of one refused field, next to its message in `error.field_codes`.
FIELD_CODES: dict[str, str] = {
    "required": "Missing, null or blank where a value is needed.",
    "invalid": "Not a value of the field's type or format.",
    "invalid_choice": "Not one of the values the field takes.",
    "max_length": "Longer than the field takes (text or a list).",
    "min_length": "Shorter than the field takes (text or a list).",
    "out_of_range": "A number or date outside the field's bounds.",
    "not_a_list": "A list (JSON array) was expected.",
    "empty": "A list that may not be empty was empty.",
    "unknown_field": "A field or parameter the operation does not take.",
    "duplicate": "A query parameter given twice.",
    "bad_text": "Text with NUL characters, lone surrogates or invalid UTF-8.",
    "too_deep": "Nested too deep.",
    "parse_error": "Not valid JSON.",
    "refused": "A well-formed value refused by a rule of the service (see the message and "
    "the answer's `code`).",
}

# DRF's and Django's own field codes, and codes services give whole answers, said in the
# field vocabulary above.
FIELD_CODE_ALIASES: dict[str, str] = {
    "null": "required",
    "blank": "required",
    "min_value": "out_of_range",
    "max_value": "out_of_range",
    "max_string_length": "out_of_range",
    "max_digits": "out_of_range",
    "too_long": "max_length",
    "date": "invalid",
    "datetime": "invalid",
    "incorrect_type": "invalid",
    "does_not_exist": "invalid",
    "make_aware": "invalid",
    "not_a_dict": "invalid",
    "invalid_unicode": "invalid",
    "incorrect_match": "invalid",
    "no_match": "invalid",
    "no_name": "invalid",
    "invalid_image": "invalid",
    "unique": "invalid",
    "unique_for_date": "invalid",
    "max_whole_digits": "out_of_range",
    "max_decimal_places": "out_of_range",
    "overflow": "out_of_range",
    "null_characters_not_allowed": "bad_text",
    "surrogate_characters_not_allowed": "bad_text",
}


class UndeclaredErrorCode(LookupError):
    """A code that is not in the tables above reached an answer."""


def field_code(code: str | None) -> str | None:
    """The declared field code for `code` (itself, or its alias), or None."""
    if code in FIELD_CODES:
        return code
    return FIELD_CODE_ALIASES.get(code or "")
