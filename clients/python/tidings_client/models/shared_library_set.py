from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SharedLibrarySet")


@_attrs_define
class SharedLibrarySet:
    """
    Attributes:
        hash_ (str): SHA-256 (hex) of the sorted source ids.
        sources (int): How many sources the library has.
        users (int): Users whose library is this set.
    """

    hash_: str
    sources: int
    users: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        hash_ = self.hash_

        sources = self.sources

        users = self.users

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "hash": hash_,
                "sources": sources,
                "users": users,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        hash_ = d.pop("hash")

        sources = d.pop("sources")

        users = d.pop("users")

        shared_library_set = cls(
            hash_=hash_,
            sources=sources,
            users=users,
        )

        shared_library_set.additional_properties = d
        return shared_library_set

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
