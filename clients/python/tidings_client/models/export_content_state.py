from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="ExportContentState")


@_attrs_define
class ExportContentState:
    """
    Attributes:
        canonical_url (str): The item's address, normalized.
        title (str): Its title, as its source gives it.
        first_delivered_at (datetime.datetime | None): When a brief first delivered it; null if never.
        last_delivered_at (datetime.datetime | None): When a brief last delivered it; null if never.
        delivered_count (int): How many were delivered.
        opened_at (datetime.datetime | None): When it was first opened; null if not.
        read_at (datetime.datetime | None): When it was marked read; null if not.
        saved_at (datetime.datetime | None): When it was saved; null if not.
        not_interested_at (datetime.datetime | None): When it was marked not interesting; null if not.
        last_run (int | None): The run of this document that last delivered it (the Inbox lists a saved item at its
            latest delivery).
    """

    canonical_url: str
    title: str
    first_delivered_at: datetime.datetime | None
    last_delivered_at: datetime.datetime | None
    delivered_count: int
    opened_at: datetime.datetime | None
    read_at: datetime.datetime | None
    saved_at: datetime.datetime | None
    not_interested_at: datetime.datetime | None
    last_run: int | None

    def to_dict(self) -> dict[str, Any]:
        canonical_url = self.canonical_url

        title = self.title

        first_delivered_at: None | str
        if isinstance(self.first_delivered_at, datetime.datetime):
            first_delivered_at = self.first_delivered_at.isoformat()
        else:
            first_delivered_at = self.first_delivered_at

        last_delivered_at: None | str
        if isinstance(self.last_delivered_at, datetime.datetime):
            last_delivered_at = self.last_delivered_at.isoformat()
        else:
            last_delivered_at = self.last_delivered_at

        delivered_count = self.delivered_count

        opened_at: None | str
        if isinstance(self.opened_at, datetime.datetime):
            opened_at = self.opened_at.isoformat()
        else:
            opened_at = self.opened_at

        read_at: None | str
        if isinstance(self.read_at, datetime.datetime):
            read_at = self.read_at.isoformat()
        else:
            read_at = self.read_at

        saved_at: None | str
        if isinstance(self.saved_at, datetime.datetime):
            saved_at = self.saved_at.isoformat()
        else:
            saved_at = self.saved_at

        not_interested_at: None | str
        if isinstance(self.not_interested_at, datetime.datetime):
            not_interested_at = self.not_interested_at.isoformat()
        else:
            not_interested_at = self.not_interested_at

        last_run: int | None
        last_run = self.last_run

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "canonical_url": canonical_url,
                "title": title,
                "first_delivered_at": first_delivered_at,
                "last_delivered_at": last_delivered_at,
                "delivered_count": delivered_count,
                "opened_at": opened_at,
                "read_at": read_at,
                "saved_at": saved_at,
                "not_interested_at": not_interested_at,
                "last_run": last_run,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        canonical_url = d.pop("canonical_url")

        title = d.pop("title")

        def _parse_first_delivered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                first_delivered_at_type_0 = datetime.datetime.fromisoformat(data)

                return first_delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        first_delivered_at = _parse_first_delivered_at(d.pop("first_delivered_at"))

        def _parse_last_delivered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_delivered_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_delivered_at = _parse_last_delivered_at(d.pop("last_delivered_at"))

        delivered_count = d.pop("delivered_count")

        def _parse_opened_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                opened_at_type_0 = datetime.datetime.fromisoformat(data)

                return opened_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        opened_at = _parse_opened_at(d.pop("opened_at"))

        def _parse_read_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                read_at_type_0 = datetime.datetime.fromisoformat(data)

                return read_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        read_at = _parse_read_at(d.pop("read_at"))

        def _parse_saved_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                saved_at_type_0 = datetime.datetime.fromisoformat(data)

                return saved_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        saved_at = _parse_saved_at(d.pop("saved_at"))

        def _parse_not_interested_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                not_interested_at_type_0 = datetime.datetime.fromisoformat(data)

                return not_interested_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        not_interested_at = _parse_not_interested_at(d.pop("not_interested_at"))

        def _parse_last_run(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_run = _parse_last_run(d.pop("last_run"))

        export_content_state = cls(
            canonical_url=canonical_url,
            title=title,
            first_delivered_at=first_delivered_at,
            last_delivered_at=last_delivered_at,
            delivered_count=delivered_count,
            opened_at=opened_at,
            read_at=read_at,
            saved_at=saved_at,
            not_interested_at=not_interested_at,
            last_run=last_run,
        )

        return export_content_state
