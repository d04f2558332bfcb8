from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.outline_result_status_enum import OutlineResultStatusEnum

T = TypeVar("T", bound="OutlineResult")


@_attrs_define
class OutlineResult:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            url (str): Its address (http or https).
            title (str): Its title, as its source gives it.
            html_url (str): The site the outline names, if any.
            status (OutlineResultStatusEnum): * `added` - added
                * `already_in_library` - already_in_library
                * `duplicate` - duplicate
                * `refused` - refused
            reason (str): Why, in plain words.
            user_source_id (int | None): The id of the source in your library (`/api/v1/sources/{id}`).
            folder (str): The folder outline the feed was in ("" at the top level).
    """

    url: str
    title: str
    html_url: str
    status: OutlineResultStatusEnum
    reason: str
    user_source_id: int | None
    folder: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        title = self.title

        html_url = self.html_url

        status = self.status.value

        reason = self.reason

        user_source_id: int | None
        user_source_id = self.user_source_id

        folder = self.folder

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "url": url,
                "title": title,
                "html_url": html_url,
                "status": status,
                "reason": reason,
                "user_source_id": user_source_id,
                "folder": folder,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        title = d.pop("title")

        html_url = d.pop("html_url")

        status = OutlineResultStatusEnum(d.pop("status"))

        reason = d.pop("reason")

        def _parse_user_source_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        user_source_id = _parse_user_source_id(d.pop("user_source_id"))

        folder = d.pop("folder")

        outline_result = cls(
            url=url,
            title=title,
            html_url=html_url,
            status=status,
            reason=reason,
            user_source_id=user_source_id,
            folder=folder,
        )

        outline_result.additional_properties = d
        return outline_result

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
