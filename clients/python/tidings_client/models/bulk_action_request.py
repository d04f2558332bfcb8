from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.action_enum import ActionEnum

T = TypeVar("T", bound="BulkActionRequest")


@_attrs_define
class BulkActionRequest:
    """
    Attributes:
        action (ActionEnum): * `read` - read
            * `unread` - unread
            * `save` - save
            * `unsave` - unsave
            * `not_interested` - not_interested
            * `interested` - interested
        ids (list[int]): Inbox item ids (`id` of /api/v1/inbox/items), 1 to 500.
    """

    action: ActionEnum
    ids: list[int]

    def to_dict(self) -> dict[str, Any]:
        action = self.action.value

        ids = self.ids

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "action": action,
                "ids": ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = ActionEnum(d.pop("action"))

        ids = cast(list[int], d.pop("ids"))

        bulk_action_request = cls(
            action=action,
            ids=ids,
        )

        return bulk_action_request
