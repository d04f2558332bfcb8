from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AllowSenderRequest")


@_attrs_define
class AllowSenderRequest:
    """
    Attributes:
        sender (str): A sender address (news@example.com) or a domain (@example.com).
    """

    sender: str

    def to_dict(self) -> dict[str, Any]:
        sender = self.sender

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "sender": sender,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        sender = d.pop("sender")

        allow_sender_request = cls(
            sender=sender,
        )

        return allow_sender_request
