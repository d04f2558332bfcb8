from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Watch")


@_attrs_define
class Watch:
    """A page (or a part of it) watched for text changes: its settings and its state.

    Attributes:
        id (int): Its id: a positive whole number, stable, unique among its kind.
        name (str): Its name, as you gave it.
        url (str): Its address (http or https).
        render (str): `http`, or `browser` (rendered before reading).
        selector_kind (str): '' (the whole page), 'css' or 'xpath'.
        selector (str): The part of the page watched, as a CSS selector (or XPath).
        ignore_text (list[str]): Lines containing any of these are ignored when comparing.
        ignore_regex (list[str]): Text matching any of these regular expressions is ignored.
        ignore_numbers (bool): Whether changes of numbers alone are ignored.
        trigger (str): 'any', 'appears', 'disappears', 'above' or 'below'.
        trigger_text (str): With `trigger` appears/disappears: the text to look for.
        trigger_number (None | str): The threshold of `above`/`below`, as a decimal string.
        check_interval_minutes (int): Minutes between checks (your plan sets the minimum).
        start_at (datetime.datetime | None): No checks before this moment (ISO 8601 with an offset).
        end_at (datetime.datetime | None): No checks after this moment (ISO 8601 with an offset).
        status (str): 'active', 'paused', 'completed' or 'error'.
        next_check_at (datetime.datetime | None): When it is checked next; null while paused or ended.
        last_checked_at (datetime.datetime | None): When it was last checked; null before the first check.
        error_count (int): Failed checks in a row.
        last_error (str): Why the last attempt failed; empty when it did not.
        notifier_id (int | None): The subscription whose Inbox, e-mail, push and webhooks tell its changes.
    """

    id: int
    name: str
    url: str
    render: str
    selector_kind: str
    selector: str
    ignore_text: list[str]
    ignore_regex: list[str]
    ignore_numbers: bool
    trigger: str
    trigger_text: str
    trigger_number: None | str
    check_interval_minutes: int
    start_at: datetime.datetime | None
    end_at: datetime.datetime | None
    status: str
    next_check_at: datetime.datetime | None
    last_checked_at: datetime.datetime | None
    error_count: int
    last_error: str
    notifier_id: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        url = self.url

        render = self.render

        selector_kind = self.selector_kind

        selector = self.selector

        ignore_text = self.ignore_text

        ignore_regex = self.ignore_regex

        ignore_numbers = self.ignore_numbers

        trigger = self.trigger

        trigger_text = self.trigger_text

        trigger_number: None | str
        trigger_number = self.trigger_number

        check_interval_minutes = self.check_interval_minutes

        start_at: None | str
        if isinstance(self.start_at, datetime.datetime):
            start_at = self.start_at.isoformat()
        else:
            start_at = self.start_at

        end_at: None | str
        if isinstance(self.end_at, datetime.datetime):
            end_at = self.end_at.isoformat()
        else:
            end_at = self.end_at

        status = self.status

        next_check_at: None | str
        if isinstance(self.next_check_at, datetime.datetime):
            next_check_at = self.next_check_at.isoformat()
        else:
            next_check_at = self.next_check_at

        last_checked_at: None | str
        if isinstance(self.last_checked_at, datetime.datetime):
            last_checked_at = self.last_checked_at.isoformat()
        else:
            last_checked_at = self.last_checked_at

        error_count = self.error_count

        last_error = self.last_error

        notifier_id: int | None
        notifier_id = self.notifier_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "url": url,
                "render": render,
                "selector_kind": selector_kind,
                "selector": selector,
                "ignore_text": ignore_text,
                "ignore_regex": ignore_regex,
                "ignore_numbers": ignore_numbers,
                "trigger": trigger,
                "trigger_text": trigger_text,
                "trigger_number": trigger_number,
                "check_interval_minutes": check_interval_minutes,
                "start_at": start_at,
                "end_at": end_at,
                "status": status,
                "next_check_at": next_check_at,
                "last_checked_at": last_checked_at,
                "error_count": error_count,
                "last_error": last_error,
                "notifier_id": notifier_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        url = d.pop("url")

        render = d.pop("render")

        selector_kind = d.pop("selector_kind")

        selector = d.pop("selector")

        ignore_text = cast(list[str], d.pop("ignore_text"))

        ignore_regex = cast(list[str], d.pop("ignore_regex"))

        ignore_numbers = d.pop("ignore_numbers")

        trigger = d.pop("trigger")

        trigger_text = d.pop("trigger_text")

        def _parse_trigger_number(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        trigger_number = _parse_trigger_number(d.pop("trigger_number"))

        check_interval_minutes = d.pop("check_interval_minutes")

        def _parse_start_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                start_at_type_0 = datetime.datetime.fromisoformat(data)

                return start_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        start_at = _parse_start_at(d.pop("start_at"))

        def _parse_end_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                end_at_type_0 = datetime.datetime.fromisoformat(data)

                return end_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        end_at = _parse_end_at(d.pop("end_at"))

        status = d.pop("status")

        def _parse_next_check_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_check_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_check_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_check_at = _parse_next_check_at(d.pop("next_check_at"))

        def _parse_last_checked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_checked_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_checked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_checked_at = _parse_last_checked_at(d.pop("last_checked_at"))

        error_count = d.pop("error_count")

        last_error = d.pop("last_error")

        def _parse_notifier_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        notifier_id = _parse_notifier_id(d.pop("notifier_id"))

        watch = cls(
            id=id,
            name=name,
            url=url,
            render=render,
            selector_kind=selector_kind,
            selector=selector,
            ignore_text=ignore_text,
            ignore_regex=ignore_regex,
            ignore_numbers=ignore_numbers,
            trigger=trigger,
            trigger_text=trigger_text,
            trigger_number=trigger_number,
            check_interval_minutes=check_interval_minutes,
            start_at=start_at,
            end_at=end_at,
            status=status,
            next_check_at=next_check_at,
            last_checked_at=last_checked_at,
            error_count=error_count,
            last_error=last_error,
            notifier_id=notifier_id,
        )

        watch.additional_properties = d
        return watch

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
