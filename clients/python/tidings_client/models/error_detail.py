from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.error_code import ErrorCode

if TYPE_CHECKING:
    from ..models.error_detail_field_codes import ErrorDetailFieldCodes
    from ..models.error_detail_fields import ErrorDetailFields


T = TypeVar("T", bound="ErrorDetail")


@_attrs_define
class ErrorDetail:
    """Why it failed; empty or null when it did not.

    Attributes:
        code (ErrorCode): What went wrong, for a program to branch on; stable (codes are only added).

            - `invalid`: A field or parameter was refused; see `fields` and `field_codes`.
            - `parse_error`: The body is not valid JSON (or not the document an import takes).
            - `bad_text`: Text with NUL characters, lone surrogates or invalid UTF-8.
            - `too_deep`: JSON nested more than 20 levels deep.
            - `too_large`: The body, upload or fetched document is larger than the API takes.
            - `unsupported_media_type`: A body that is not JSON (`Content-Type: application/json`).
            - `not_acceptable`: The `Accept` header excludes JSON.
            - `bad_request`: Django could not understand the request (a bad Host, say).
            - `not_authenticated`: No credentials were sent.
            - `authentication_failed`: Malformed, unknown, expired or revoked credentials.
            - `permission_denied`: Authenticated, but not allowed (a read-only token writing, a non-staff token on /admin).
            - `not_found`: Nothing of yours with that id, or no such path.
            - `method_not_allowed`: The path does not take that method.
            - `throttled`: Too many requests; wait the seconds in `Retry-After`.
            - `server_error`: A fault on the server's side; it has been logged.
            - `conflict`: Refused in the state things are in (a retry of a run that did not fail).
            - `taken`: The name or address is already in use (HTTP 409).
            - `unreadable_url`: A notification URL of a known service that its plugin cannot read (HTTP 422).
            - `empty_period`: The period asked for is empty: its end is not after its start (HTTP 422).
            - `invalid_combination`: Each field is valid on its own, but not together or with what is stored (an end before
            the start, no schedule, nothing to read, a fixed language without a locale, not exactly one of several
            parameters); the fields are named (HTTP 422).
            - `invalid_pattern`: A regular expression that does not compile (HTTP 422).
            - `invalid_time`: A time the operation cannot use as things are: not in the future, too far ahead, or words for
            a time the server does not understand (HTTP 422).
            - `tier_limit`: A limit of the account's plan (HTTP 403).
            - `idempotency_key_reused`: The `Idempotency-Key` was sent before with a different request.
            - `import_in_progress`: An import of this account is already running.
            - `import_timed_out`: The import ran past `IMPORT_MAX_SECONDS` and was rolled back.
            - `unsupported_format`: The document is not a `tidings-export` this server reads.
            - `transfer_code_limit`: The account already has as many open transfer codes as it may.
            - `transfer_code_spent`: The transfer code was used, revoked or has expired.
            - `transfer_refused`: The transfer code or instance was refused.
            - `transfer_failed`: The other instance could not be reached or refused the transfer.
            - `refused`: An inbound newsletter message was refused (its signature or its shape).
            - `already_delivered`: The page was already delivered to the reading list.
            - `required`: A required field was empty.
            - `too_long`: Text longer than the field takes.
            - `invalid_choice`: Not one of the values the field takes.
            - `fetch_failed`: The address could not be fetched.
            - `refused_by_policy`: The address is not one the server fetches (private or local).
            - `timeout`: The address did not answer in time.
            - `tls_error`: The address's TLS certificate or handshake failed.
            - `connection_failed`: No connection could be made to the address.
            - `rate_limited`: The address answered 429; try later.
            - `http_error`: The address answered with an HTTP error.
            - `browser_unavailable`: Rendering the page needs the browser, which is not available.
            - `browser_failed`: The browser could not render the page.
            - `not_html`: The address did not answer with an HTML page.
            - `empty_page`: The page has no text.
            - `no_feed`: The address is not a feed, and the page names none.
            - `robots_unavailable`: The site's robots.txt could not be read.
            - `robots_disallowed`: The site's robots.txt disallows reading the page.
            - `off_site_redirect`: The address redirects to another site.
            - `invalid_selector`: The CSS selector is not valid.
            - `selector_empty`: The CSS selector matches nothing on the page.
            - `no_match`: The listing's selector matches no links.
            - `no_items`: The page lists no items to follow.
            - `too_slow`: The rule takes too long to check.
            - `unknown_pack`: No source pack with that key.
            - `not_configured`: This server is not configured for the feature asked for (Web Push without VAPID keys, NAVER
            News without credentials); HTTP 422.
            - `empty`: The file is empty.
            - `not_xml`: The file is not well-formed XML.
            - `forbidden_xml`: The XML uses entities or DTDs, which are refused.
            - `not_opml`: The XML is not OPML.
            - `invalid_opml`: The OPML could not be read.
            - `no_outlines`: The OPML lists no feeds.
            - `too_many_feeds`: The OPML lists more feeds than one import takes.
        message (str): For people, in their language.
        fields (ErrorDetailFields): What was wrong with which field or parameter (nested ones as "parent.child", list
            entries as "list.0").
        field_codes (ErrorDetailFieldCodes): A code per field named in `fields`, with the same keys.
    """

    code: ErrorCode
    message: str
    fields: ErrorDetailFields
    field_codes: ErrorDetailFieldCodes
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code.value

        message = self.message

        fields = self.fields.to_dict()

        field_codes = self.field_codes.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "message": message,
                "fields": fields,
                "field_codes": field_codes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.error_detail_field_codes import ErrorDetailFieldCodes  # noqa: PLC0415
        from ..models.error_detail_fields import ErrorDetailFields  # noqa: PLC0415

        d = dict(src_dict)
        code = ErrorCode(d.pop("code"))

        message = d.pop("message")

        fields = ErrorDetailFields.from_dict(d.pop("fields"))

        field_codes = ErrorDetailFieldCodes.from_dict(d.pop("field_codes"))

        error_detail = cls(
            code=code,
            message=message,
            fields=fields,
            field_codes=field_codes,
        )

        error_detail.additional_properties = d
        return error_detail

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
