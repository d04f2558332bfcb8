from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="OperationSpend")


@_attrs_define
class OperationSpend:
    """
    Attributes:
        count (int): Operations charged.
        cache_hits (int): Of them, answered from the cache.
        credits_ (int): What they cost at the operation's price.
    """

    count: int
    cache_hits: int
    credits_: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        cache_hits = self.cache_hits

        credits_ = self.credits_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "count": count,
                "cache_hits": cache_hits,
                "credits": credits_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        count = d.pop("count")

        cache_hits = d.pop("cache_hits")

        credits_ = d.pop("credits")

        operation_spend = cls(
            count=count,
            cache_hits=cache_hits,
            credits_=credits_,
        )

        operation_spend.additional_properties = d
        return operation_spend

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
