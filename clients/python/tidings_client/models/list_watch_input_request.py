from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.notify_enum import NotifyEnum
from ..models.render_enum import RenderEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="ListWatchInputRequest")


@_attrs_define
class ListWatchInputRequest:
    """
    Attributes:
        url (str): The listing page to watch.
        selector (str | Unset): CSS selector for the items; empty: Tidings finds the page's repeated links.
        render (RenderEnum | Unset): * `http` - http
            * `browser` - browser Default: RenderEnum.HTTP.
        display_name (str | Unset): The name it has in your library (empty: its own title).
        notify (list[NotifyEnum] | Unset): Where a change (links the page never had before) is told: 'inbox' (a short
            brief in the Inbox), plus 'email' and 'push' (Web Push to your registered devices) on top of it; [] for no
            notice (the watch still feeds briefs that use it). Each change is told once per channel.
        check_interval_minutes (int | Unset): How often the page is checked, 30-1440 minutes, and at least your plan's
            minimum (free: 60).
    """

    url: str
    selector: str | Unset = UNSET
    render: RenderEnum | Unset = RenderEnum.HTTP
    display_name: str | Unset = UNSET
    notify: list[NotifyEnum] | Unset = UNSET
    check_interval_minutes: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        selector: str | Unset
        if isinstance(self.selector, Unset):
            selector = UNSET
        else:
            selector = self.selector

        render: str | Unset = UNSET
        if not isinstance(self.render, Unset):
            render = self.render.value

        display_name: str | Unset
        if isinstance(self.display_name, Unset):
            display_name = UNSET
        else:
            display_name = self.display_name

        notify: list[str] | Unset = UNSET
        if not isinstance(self.notify, Unset):
            notify = []
            for notify_item_data in self.notify:
                notify_item = notify_item_data.value
                notify.append(notify_item)

        check_interval_minutes = self.check_interval_minutes

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if selector is not UNSET:
            field_dict["selector"] = selector
        if render is not UNSET:
            field_dict["render"] = render
        if display_name is not UNSET:
            field_dict["display_name"] = display_name
        if notify is not UNSET:
            field_dict["notify"] = notify
        if check_interval_minutes is not UNSET:
            field_dict["check_interval_minutes"] = check_interval_minutes

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        def _parse_selector(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        selector = _parse_selector(d.pop("selector", UNSET))

        _render = d.pop("render", UNSET)
        render: RenderEnum | Unset
        if isinstance(_render, Unset):
            render = UNSET
        else:
            render = RenderEnum(_render)

        def _parse_display_name(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        display_name = _parse_display_name(d.pop("display_name", UNSET))

        _notify = d.pop("notify", UNSET)
        notify: list[NotifyEnum] | Unset = UNSET
        if _notify is not UNSET:
            notify = []
            for notify_item_data in _notify:
                notify_item = NotifyEnum(notify_item_data)

                notify.append(notify_item)

        check_interval_minutes = d.pop("check_interval_minutes", UNSET)

        list_watch_input_request = cls(
            url=url,
            selector=selector,
            render=render,
            display_name=display_name,
            notify=notify,
            check_interval_minutes=check_interval_minutes,
        )

        return list_watch_input_request
