from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.blank_enum import BlankEnum
from ..models.notify_enum import NotifyEnum
from ..models.render_enum import RenderEnum
from ..models.selector_kind_enum import SelectorKindEnum
from ..models.watch_input_trigger_enum import WatchInputTriggerEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedWatchInputRequest")


@_attrs_define
class PatchedWatchInputRequest:
    """The fields of a text watch; watches/service.py checks the rules between them.

    Attributes:
        url (str | Unset): The page to watch.
        name (str | Unset): Its name, as you gave it.
        render (RenderEnum | Unset): * `http` - http
            * `browser` - browser Default: RenderEnum.HTTP.
        selector_kind (BlankEnum | SelectorKindEnum | Unset): '' (the whole page), 'css' or 'xpath'.

            * `` -
            * `css` - css
            * `xpath` - xpath Default: BlankEnum.VALUE_0.
        selector (str | Unset): The part of the page watched, as a CSS selector (or XPath).
        ignore_text (list[str] | Unset): Lines containing any of these are ignored when comparing.
        ignore_regex (list[str] | Unset): Text matching any of these regular expressions is ignored.
        ignore_numbers (bool | Unset): Whether changes of numbers alone are ignored. Default: False.
        trigger (WatchInputTriggerEnum | Unset):  Default: WatchInputTriggerEnum.ANY.
        trigger_text (str | Unset): With `trigger` appears/disappears: the text to look for.
        trigger_number (str | Unset): A number (`-12.5`), needed by 'above' and 'below'.
        check_interval_minutes (int | Unset): 30-1440 minutes. Default: 60.
        start_at (datetime.datetime | None | Unset): No checks before this moment (ISO 8601 with an offset).
        end_at (datetime.datetime | None | Unset): No checks after this moment (ISO 8601 with an offset).
        notify (list[NotifyEnum] | Unset): Where a change is told besides Apprise: `inbox`, and `email` or `push` with
            it; each once.
    """

    url: str | Unset = UNSET
    name: str | Unset = UNSET
    render: RenderEnum | Unset = RenderEnum.HTTP
    selector_kind: BlankEnum | SelectorKindEnum | Unset = BlankEnum.VALUE_0
    selector: str | Unset = UNSET
    ignore_text: list[str] | Unset = UNSET
    ignore_regex: list[str] | Unset = UNSET
    ignore_numbers: bool | Unset = False
    trigger: WatchInputTriggerEnum | Unset = WatchInputTriggerEnum.ANY
    trigger_text: str | Unset = UNSET
    trigger_number: str | Unset = UNSET
    check_interval_minutes: int | Unset = 60
    start_at: datetime.datetime | None | Unset = UNSET
    end_at: datetime.datetime | None | Unset = UNSET
    notify: list[NotifyEnum] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        name: str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        render: str | Unset = UNSET
        if not isinstance(self.render, Unset):
            render = self.render.value

        selector_kind: str | Unset
        if isinstance(self.selector_kind, Unset):
            selector_kind = UNSET
        elif isinstance(self.selector_kind, SelectorKindEnum):
            selector_kind = self.selector_kind.value
        else:
            selector_kind = self.selector_kind.value

        selector: str | Unset
        if isinstance(self.selector, Unset):
            selector = UNSET
        else:
            selector = self.selector

        ignore_text: list[str] | Unset = UNSET
        if not isinstance(self.ignore_text, Unset):
            ignore_text = self.ignore_text

        ignore_regex: list[str] | Unset = UNSET
        if not isinstance(self.ignore_regex, Unset):
            ignore_regex = self.ignore_regex

        ignore_numbers = self.ignore_numbers

        trigger: str | Unset = UNSET
        if not isinstance(self.trigger, Unset):
            trigger = self.trigger.value

        trigger_text: str | Unset
        if isinstance(self.trigger_text, Unset):
            trigger_text = UNSET
        else:
            trigger_text = self.trigger_text

        trigger_number: str | Unset
        if isinstance(self.trigger_number, Unset):
            trigger_number = UNSET
        else:
            trigger_number = self.trigger_number

        check_interval_minutes = self.check_interval_minutes

        start_at: None | str | Unset
        if isinstance(self.start_at, Unset):
            start_at = UNSET
        elif isinstance(self.start_at, datetime.datetime):
            start_at = self.start_at.isoformat()
        else:
            start_at = self.start_at

        end_at: None | str | Unset
        if isinstance(self.end_at, Unset):
            end_at = UNSET
        elif isinstance(self.end_at, datetime.datetime):
            end_at = self.end_at.isoformat()
        else:
            end_at = self.end_at

        notify: list[str] | Unset = UNSET
        if not isinstance(self.notify, Unset):
            notify = []
            for notify_item_data in self.notify:
                notify_item = notify_item_data.value
                notify.append(notify_item)

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if url is not UNSET:
            field_dict["url"] = url
        if name is not UNSET:
            field_dict["name"] = name
        if render is not UNSET:
            field_dict["render"] = render
        if selector_kind is not UNSET:
            field_dict["selector_kind"] = selector_kind
        if selector is not UNSET:
            field_dict["selector"] = selector
        if ignore_text is not UNSET:
            field_dict["ignore_text"] = ignore_text
        if ignore_regex is not UNSET:
            field_dict["ignore_regex"] = ignore_regex
        if ignore_numbers is not UNSET:
            field_dict["ignore_numbers"] = ignore_numbers
        if trigger is not UNSET:
            field_dict["trigger"] = trigger
        if trigger_text is not UNSET:
            field_dict["trigger_text"] = trigger_text
        if trigger_number is not UNSET:
            field_dict["trigger_number"] = trigger_number
        if check_interval_minutes is not UNSET:
            field_dict["check_interval_minutes"] = check_interval_minutes
        if start_at is not UNSET:
            field_dict["start_at"] = start_at
        if end_at is not UNSET:
            field_dict["end_at"] = end_at
        if notify is not UNSET:
            field_dict["notify"] = notify

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url", UNSET)

        def _parse_name(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        _render = d.pop("render", UNSET)
        render: RenderEnum | Unset
        if isinstance(_render, Unset):
            render = UNSET
        else:
            render = RenderEnum(_render)

        def _parse_selector_kind(data: object) -> BlankEnum | SelectorKindEnum | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                selector_kind_type_0 = SelectorKindEnum(data)

                return selector_kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            selector_kind_type_1 = BlankEnum(data)

            return selector_kind_type_1

        selector_kind = _parse_selector_kind(d.pop("selector_kind", UNSET))

        def _parse_selector(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        selector = _parse_selector(d.pop("selector", UNSET))

        ignore_text = cast(list[str], d.pop("ignore_text", UNSET))

        ignore_regex = cast(list[str], d.pop("ignore_regex", UNSET))

        ignore_numbers = d.pop("ignore_numbers", UNSET)

        _trigger = d.pop("trigger", UNSET)
        trigger: WatchInputTriggerEnum | Unset
        if isinstance(_trigger, Unset):
            trigger = UNSET
        else:
            trigger = WatchInputTriggerEnum(_trigger)

        def _parse_trigger_text(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        trigger_text = _parse_trigger_text(d.pop("trigger_text", UNSET))

        def _parse_trigger_number(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        trigger_number = _parse_trigger_number(d.pop("trigger_number", UNSET))

        check_interval_minutes = d.pop("check_interval_minutes", UNSET)

        def _parse_start_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                start_at_type_0 = datetime.datetime.fromisoformat(data)

                return start_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        start_at = _parse_start_at(d.pop("start_at", UNSET))

        def _parse_end_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                end_at_type_0 = datetime.datetime.fromisoformat(data)

                return end_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        end_at = _parse_end_at(d.pop("end_at", UNSET))

        _notify = d.pop("notify", UNSET)
        notify: list[NotifyEnum] | Unset = UNSET
        if _notify is not UNSET:
            notify = []
            for notify_item_data in _notify:
                notify_item = NotifyEnum(notify_item_data)

                notify.append(notify_item)

        patched_watch_input_request = cls(
            url=url,
            name=name,
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
            notify=notify,
        )

        return patched_watch_input_request
