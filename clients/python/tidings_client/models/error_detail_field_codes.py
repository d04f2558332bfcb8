from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.field_error_code import FieldErrorCode

T = TypeVar("T", bound="ErrorDetailFieldCodes")


@_attrs_define
class ErrorDetailFieldCodes:
    """A code per field named in `fields`, with the same keys."""

    additional_properties: dict[str, FieldErrorCode] = _attrs_field(
        init=False, factory=dict
    )

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        for prop_name, prop in self.additional_properties.items():
            field_dict[prop_name] = prop.value

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        error_detail_field_codes = cls()

        additional_properties = {}
        for prop_name, prop_dict in d.items():
            additional_property = FieldErrorCode(prop_dict)

            additional_properties[prop_name] = additional_property

        error_detail_field_codes.additional_properties = additional_properties
        return error_detail_field_codes

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> FieldErrorCode:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: FieldErrorCode) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
