from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.transfer_scope_enum import TransferScopeEnum

T = TypeVar("T", bound="NewTransferCode")


@_attrs_define
class NewTransferCode:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            id (int): Its id: a positive whole number, stable, unique among its kind.
            code (str): Shown this once; give it to the other Tidings.
            scope (TransferScopeEnum): * `saved` - Saved items only
                * `saved_recent` - Saved items and recent briefs
                * `everything` - Everything
            expires_at (datetime.datetime): When it stops being accepted (ISO 8601, UTC).
    """

    id: int
    code: str
    scope: TransferScopeEnum
    expires_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        code = self.code

        scope = self.scope.value

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "code": code,
                "scope": scope,
                "expires_at": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        code = d.pop("code")

        scope = TransferScopeEnum(d.pop("scope"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        new_transfer_code = cls(
            id=id,
            code=code,
            scope=scope,
            expires_at=expires_at,
        )

        new_transfer_code.additional_properties = d
        return new_transfer_code

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
