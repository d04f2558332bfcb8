from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AddSourceRequest")


@_attrs_define
class AddSourceRequest:
    """
    Attributes:
        url (str): A feed, or a site whose feed is found.
        display_name (str | Unset): The name it has in your library (empty: its own title).
    """

    url: str
    display_name: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        display_name: str | Unset
        if isinstance(self.display_name, Unset):
            display_name = UNSET
        else:
            display_name = self.display_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if display_name is not UNSET:
            field_dict["display_name"] = display_name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        def _parse_display_name(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        display_name = _parse_display_name(d.pop("display_name", UNSET))

        add_source_request = cls(
            url=url,
            display_name=display_name,
        )

        return add_source_request
