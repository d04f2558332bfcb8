from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TidingsExportVersion1Account")


@_attrs_define
class TidingsExportVersion1Account:
    """The account exported, on the exporting instance.

    Attributes:
        id (int):
        email (str):
    """

    id: int
    email: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        email = self.email

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "email": email,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        email = d.pop("email")

        tidings_export_version_1_account = cls(
            id=id,
            email=email,
        )

        return tidings_export_version_1_account
