from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SubscriptionCounts")


@_attrs_define
class SubscriptionCounts:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            subscription_id (int | None): Null for items whose run is gone.
            name (str): Its name, as you gave it.
            delivered (int): How many were delivered.
            unread (int): How many are unread.
            saved (int): Saved (for an item: whether you saved it; for counts: how many).
            not_interested (int): Marked not interested (for an item: whether; for counts: how many).
    """

    subscription_id: int | None
    name: str
    delivered: int
    unread: int
    saved: int
    not_interested: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        subscription_id: int | None
        subscription_id = self.subscription_id

        name = self.name

        delivered = self.delivered

        unread = self.unread

        saved = self.saved

        not_interested = self.not_interested

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "subscription_id": subscription_id,
                "name": name,
                "delivered": delivered,
                "unread": unread,
                "saved": saved,
                "not_interested": not_interested,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_subscription_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        subscription_id = _parse_subscription_id(d.pop("subscription_id"))

        name = d.pop("name")

        delivered = d.pop("delivered")

        unread = d.pop("unread")

        saved = d.pop("saved")

        not_interested = d.pop("not_interested")

        subscription_counts = cls(
            subscription_id=subscription_id,
            name=name,
            delivered=delivered,
            unread=unread,
            saved=saved,
            not_interested=not_interested,
        )

        subscription_counts.additional_properties = d
        return subscription_counts

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
