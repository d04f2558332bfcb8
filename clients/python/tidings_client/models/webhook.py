from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Webhook")


@_attrs_define
class Webhook:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            url (str): Its address (http or https).
            enabled (bool): Whether it is used.
            disabled_reason (str): Why it was turned off; empty while enabled.
            consecutive_failures (int): Failed sends in a row (reset by a success).
            secret_hint (str): The end of the signing secret, to tell secrets apart.
    """

    url: str
    enabled: bool
    disabled_reason: str
    consecutive_failures: int
    secret_hint: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        enabled = self.enabled

        disabled_reason = self.disabled_reason

        consecutive_failures = self.consecutive_failures

        secret_hint = self.secret_hint

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "url": url,
                "enabled": enabled,
                "disabled_reason": disabled_reason,
                "consecutive_failures": consecutive_failures,
                "secret_hint": secret_hint,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        enabled = d.pop("enabled")

        disabled_reason = d.pop("disabled_reason")

        consecutive_failures = d.pop("consecutive_failures")

        secret_hint = d.pop("secret_hint")

        webhook = cls(
            url=url,
            enabled=enabled,
            disabled_reason=disabled_reason,
            consecutive_failures=consecutive_failures,
            secret_hint=secret_hint,
        )

        webhook.additional_properties = d
        return webhook

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
