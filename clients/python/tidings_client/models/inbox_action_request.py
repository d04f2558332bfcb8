from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.action_enum import ActionEnum

T = TypeVar("T", bound="InboxActionRequest")


@_attrs_define
class InboxActionRequest:
    """
    Attributes:
        action (ActionEnum): * `read` - read
            * `unread` - unread
            * `save` - save
            * `unsave` - unsave
            * `not_interested` - not_interested
            * `interested` - interested
    """

    action: ActionEnum

    def to_dict(self) -> dict[str, Any]:
        action = self.action.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "action": action,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = ActionEnum(d.pop("action"))

        inbox_action_request = cls(
            action=action,
        )

        return inbox_action_request
