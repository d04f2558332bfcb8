from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SavePageRequest")


@_attrs_define
class SavePageRequest:
    """
    Attributes:
        url (str): The page to save.
        when (str | Unset): When to deliver it, in your time zone: "tomorrow 08:00", "today 18:30", "08:00", "in 3
            hours" or "2026-12-24 08:00".
        deliver_at (datetime.datetime | str | Unset): An exact ISO 8601 time with a UTC offset; overrides `when`.
        name (str | Unset): Defaults to the page's title.
    """

    url: str
    when: str | Unset = UNSET
    deliver_at: datetime.datetime | str | Unset = UNSET
    name: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        when: str | Unset
        if isinstance(self.when, Unset):
            when = UNSET
        else:
            when = self.when

        deliver_at: str | Unset
        if isinstance(self.deliver_at, Unset):
            deliver_at = UNSET
        elif isinstance(self.deliver_at, datetime.datetime):
            deliver_at = self.deliver_at.isoformat()
        else:
            deliver_at = self.deliver_at

        name: str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if when is not UNSET:
            field_dict["when"] = when
        if deliver_at is not UNSET:
            field_dict["deliver_at"] = deliver_at
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        def _parse_when(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        when = _parse_when(d.pop("when", UNSET))

        def _parse_deliver_at(data: object) -> datetime.datetime | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deliver_at_type_0 = datetime.datetime.fromisoformat(data)

                return deliver_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | str | Unset, data)

        deliver_at = _parse_deliver_at(d.pop("deliver_at", UNSET))

        def _parse_name(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        save_page_request = cls(
            url=url,
            when=when,
            deliver_at=deliver_at,
            name=name,
        )

        return save_page_request
