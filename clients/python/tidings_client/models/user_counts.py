from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="UserCounts")


@_attrs_define
class UserCounts:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            total (int): How many in all.
            active (int): How many are active (or, for one thing, whether it is).
            staff (int): How many are staff.
            joined_7d (int): How many signed up in the last 7 days.
            signed_in_30d (int): How many signed in within the last 30 days.
    """

    total: int
    active: int
    staff: int
    joined_7d: int
    signed_in_30d: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        total = self.total

        active = self.active

        staff = self.staff

        joined_7d = self.joined_7d

        signed_in_30d = self.signed_in_30d

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "total": total,
                "active": active,
                "staff": staff,
                "joined_7d": joined_7d,
                "signed_in_30d": signed_in_30d,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        total = d.pop("total")

        active = d.pop("active")

        staff = d.pop("staff")

        joined_7d = d.pop("joined_7d")

        signed_in_30d = d.pop("signed_in_30d")

        user_counts = cls(
            total=total,
            active=active,
            staff=staff,
            joined_7d=joined_7d,
            signed_in_30d=signed_in_30d,
        )

        user_counts.additional_properties = d
        return user_counts

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
