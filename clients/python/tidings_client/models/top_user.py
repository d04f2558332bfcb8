from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TopUser")


@_attrs_define
class TopUser:
    """
    Attributes:
        email (str): The account's e-mail address (its sign-in).
        tier (str): The plan (`free`, `basic`, `pro`, `team`).
        spent (int): Credits spent in the period.
        runs (int): Runs charged in the period.
    """

    email: str
    tier: str
    spent: int
    runs: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        tier = self.tier

        spent = self.spent

        runs = self.runs

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "email": email,
                "tier": tier,
                "spent": spent,
                "runs": runs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email = d.pop("email")

        tier = d.pop("tier")

        spent = d.pop("spent")

        runs = d.pop("runs")

        top_user = cls(
            email=email,
            tier=tier,
            spent=spent,
            runs=runs,
        )

        top_user.additional_properties = d
        return top_user

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
