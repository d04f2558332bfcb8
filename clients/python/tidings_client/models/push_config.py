from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PushConfig")


@_attrs_define
class PushConfig:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            enabled (bool): False when the server has no VAPID keys.
            public_key (str): The VAPID public key (base64url): the applicationServerKey to subscribe with.
            service_worker (str): The service worker's URL (scope /).
    """

    enabled: bool
    public_key: str
    service_worker: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        public_key = self.public_key

        service_worker = self.service_worker

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "enabled": enabled,
                "public_key": public_key,
                "service_worker": service_worker,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        enabled = d.pop("enabled")

        public_key = d.pop("public_key")

        service_worker = d.pop("service_worker")

        push_config = cls(
            enabled=enabled,
            public_key=public_key,
            service_worker=service_worker,
        )

        push_config.additional_properties = d
        return push_config

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
