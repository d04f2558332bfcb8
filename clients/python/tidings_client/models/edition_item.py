from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="EditionItem")


@_attrs_define
class EditionItem:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            rank (int): Its place in the brief (1 first).
            title (str): Its title, as its source gives it.
            url (str): Its address (http or https).
            summary (str): A short summary of the item.
            source_name (str): The name of the source it came from.
            published_at (datetime.datetime | None): When its source published it, if it says (ISO 8601, UTC).
    """

    rank: int
    title: str
    url: str
    summary: str
    source_name: str
    published_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rank = self.rank

        title = self.title

        url = self.url

        summary = self.summary

        source_name = self.source_name

        published_at: None | str
        if isinstance(self.published_at, datetime.datetime):
            published_at = self.published_at.isoformat()
        else:
            published_at = self.published_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rank": rank,
                "title": title,
                "url": url,
                "summary": summary,
                "source_name": source_name,
                "published_at": published_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rank = d.pop("rank")

        title = d.pop("title")

        url = d.pop("url")

        summary = d.pop("summary")

        source_name = d.pop("source_name")

        def _parse_published_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                published_at_type_0 = datetime.datetime.fromisoformat(data)

                return published_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        published_at = _parse_published_at(d.pop("published_at"))

        edition_item = cls(
            rank=rank,
            title=title,
            url=url,
            summary=summary,
            source_name=source_name,
            published_at=published_at,
        )

        edition_item.additional_properties = d
        return edition_item

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
