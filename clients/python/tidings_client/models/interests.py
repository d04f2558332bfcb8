from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.source_enum import SourceEnum

T = TypeVar("T", bound="Interests")


@_attrs_define
class Interests:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            interests (list[str]): Words and phrases an item should be about.
            negative_keywords (list[str]): Words that make an item unwanted.
            source (SourceEnum): * `model` - model
                * `words` - words
    """

    interests: list[str]
    negative_keywords: list[str]
    source: SourceEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        interests = self.interests

        negative_keywords = self.negative_keywords

        source = self.source.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "interests": interests,
                "negative_keywords": negative_keywords,
                "source": source,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        interests = cast(list[str], d.pop("interests"))

        negative_keywords = cast(list[str], d.pop("negative_keywords"))

        source = SourceEnum(d.pop("source"))

        interests = cls(
            interests=interests,
            negative_keywords=negative_keywords,
            source=source,
        )

        interests.additional_properties = d
        return interests

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
