from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

T = TypeVar("T", bound="TidingsExportVersion1Instance")


@_attrs_define
class TidingsExportVersion1Instance:
    """The instance that exported it: its address and software.

    Attributes:
        url (str):
        software (Literal['tidings']):
    """

    url: str
    software: Literal["tidings"]

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        software = self.software

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
                "software": software,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        software = cast(Literal["tidings"], d.pop("software"))
        if software != "tidings":
            raise ValueError(f"software must match const 'tidings', got '{software}'")

        tidings_export_version_1_instance = cls(
            url=url,
            software=software,
        )

        return tidings_export_version_1_instance
