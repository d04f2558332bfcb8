from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SubscriptionStatusCounts")


@_attrs_define
class SubscriptionStatusCounts:
    """Subscriptions not deleted, by status.

    Attributes:
        active (int): How many are active (or, for one thing, whether it is).
        paused (int): How many are paused.
        completed (int): How many ran their once and are done.
        total (int): How many in all.
    """

    active: int
    paused: int
    completed: int
    total: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        active = self.active

        paused = self.paused

        completed = self.completed

        total = self.total

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "active": active,
                "paused": paused,
                "completed": completed,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        active = d.pop("active")

        paused = d.pop("paused")

        completed = d.pop("completed")

        total = d.pop("total")

        subscription_status_counts = cls(
            active=active,
            paused=paused,
            completed=completed,
            total=total,
        )

        subscription_status_counts.additional_properties = d
        return subscription_status_counts

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
