from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PackSource")


@_attrs_define
class PackSource:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            key (str): Its key, as paths name it.
            title (str): Its title, as its source gives it.
            type_ (str): What kind of source it is (one of the values listed).
            url (str): Its address (http or https).
            discovery_only (bool): A search source (it finds items at each run rather than holding a feed).
            note (str): What this server says about the source now (NAVER: whether discovery is on).
    """

    key: str
    title: str
    type_: str
    url: str
    discovery_only: bool
    note: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        key = self.key

        title = self.title

        type_ = self.type_

        url = self.url

        discovery_only = self.discovery_only

        note = self.note

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "key": key,
                "title": title,
                "type": type_,
                "url": url,
                "discovery_only": discovery_only,
                "note": note,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key = d.pop("key")

        title = d.pop("title")

        type_ = d.pop("type")

        url = d.pop("url")

        discovery_only = d.pop("discovery_only")

        note = d.pop("note")

        pack_source = cls(
            key=key,
            title=title,
            type_=type_,
            url=url,
            discovery_only=discovery_only,
            note=note,
        )

        pack_source.additional_properties = d
        return pack_source

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
