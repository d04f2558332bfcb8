from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PushKeysRequest")


@_attrs_define
class PushKeysRequest:
    """
    Attributes:
        p256dh (str): The browser's uncompressed P-256 key (65 bytes), base64url.
        auth (str): The 16-byte auth secret, base64url.
    """

    p256dh: str
    auth: str

    def to_dict(self) -> dict[str, Any]:
        p256dh = self.p256dh

        auth = self.auth

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "p256dh": p256dh,
                "auth": auth,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        p256dh = d.pop("p256dh")

        auth = d.pop("auth")

        push_keys_request = cls(
            p256dh=p256dh,
            auth=auth,
        )

        return push_keys_request
