from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CrawlSource")


@_attrs_define
class CrawlSource:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            id (int): Its id: a positive whole number, stable, unique among its kind.
            source_id (int): The shared source's id in the content pool (the same for everyone).
            display_name (str): The name it has in your library (empty: its own title).
            folder (int | None): The folder it is in, or null.
            folder_name (None | str): The name of its folder, or null when in none.
            type_ (str): What kind of source it is (one of the values listed).
            url (str): Its address (http or https).
            title (str): Its title, as its source gives it.
            status (str): Its state now (one of the values listed).
            last_refresh_at (datetime.datetime | None): When the source was last fetched (ISO 8601, UTC); null if never.
            next_refresh_at (datetime.datetime | None): When the source is fetched next (ISO 8601, UTC).
            last_error (str): Why the last attempt failed; empty when it did not.
            added_at (datetime.datetime): When it was added to your library (ISO 8601, UTC).
            config (Any): The source's settings.
    """

    id: int
    source_id: int
    display_name: str
    folder: int | None
    folder_name: None | str
    type_: str
    url: str
    title: str
    status: str
    last_refresh_at: datetime.datetime | None
    next_refresh_at: datetime.datetime | None
    last_error: str
    added_at: datetime.datetime
    config: Any
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        source_id = self.source_id

        display_name = self.display_name

        folder: int | None
        folder = self.folder

        folder_name: None | str
        folder_name = self.folder_name

        type_ = self.type_

        url = self.url

        title = self.title

        status = self.status

        last_refresh_at: None | str
        if isinstance(self.last_refresh_at, datetime.datetime):
            last_refresh_at = self.last_refresh_at.isoformat()
        else:
            last_refresh_at = self.last_refresh_at

        next_refresh_at: None | str
        if isinstance(self.next_refresh_at, datetime.datetime):
            next_refresh_at = self.next_refresh_at.isoformat()
        else:
            next_refresh_at = self.next_refresh_at

        last_error = self.last_error

        added_at = self.added_at.isoformat()

        config = self.config

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "source_id": source_id,
                "display_name": display_name,
                "folder": folder,
                "folder_name": folder_name,
                "type": type_,
                "url": url,
                "title": title,
                "status": status,
                "last_refresh_at": last_refresh_at,
                "next_refresh_at": next_refresh_at,
                "last_error": last_error,
                "added_at": added_at,
                "config": config,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        source_id = d.pop("source_id")

        display_name = d.pop("display_name")

        def _parse_folder(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        folder = _parse_folder(d.pop("folder"))

        def _parse_folder_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        folder_name = _parse_folder_name(d.pop("folder_name"))

        type_ = d.pop("type")

        url = d.pop("url")

        title = d.pop("title")

        status = d.pop("status")

        def _parse_last_refresh_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_refresh_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_refresh_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_refresh_at = _parse_last_refresh_at(d.pop("last_refresh_at"))

        def _parse_next_refresh_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_refresh_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_refresh_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_refresh_at = _parse_next_refresh_at(d.pop("next_refresh_at"))

        last_error = d.pop("last_error")

        added_at = datetime.datetime.fromisoformat(d.pop("added_at"))

        config = d.pop("config")

        crawl_source = cls(
            id=id,
            source_id=source_id,
            display_name=display_name,
            folder=folder,
            folder_name=folder_name,
            type_=type_,
            url=url,
            title=title,
            status=status,
            last_refresh_at=last_refresh_at,
            next_refresh_at=next_refresh_at,
            last_error=last_error,
            added_at=added_at,
            config=config,
        )

        crawl_source.additional_properties = d
        return crawl_source

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
