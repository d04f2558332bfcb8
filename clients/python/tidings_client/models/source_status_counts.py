from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SourceStatusCounts")


@_attrs_define
class SourceStatusCounts:
    """Sources by status; `failing`: with at least one failure in a row.

    Attributes:
        active (int): How many are active (or, for one thing, whether it is).
        degraded (int): How many fail now and then.
        disabled (int): How many were turned off after failing.
        failing (int): How many fail every time lately.
        total (int): How many in all.
    """

    active: int
    degraded: int
    disabled: int
    failing: int
    total: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        active = self.active

        degraded = self.degraded

        disabled = self.disabled

        failing = self.failing

        total = self.total

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "active": active,
                "degraded": degraded,
                "disabled": disabled,
                "failing": failing,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        active = d.pop("active")

        degraded = d.pop("degraded")

        disabled = d.pop("disabled")

        failing = d.pop("failing")

        total = d.pop("total")

        source_status_counts = cls(
            active=active,
            degraded=degraded,
            disabled=disabled,
            failing=failing,
            total=total,
        )

        source_status_counts.additional_properties = d
        return source_status_counts

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
