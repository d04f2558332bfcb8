from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.notify_enum import NotifyEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedWatchSettingsInputRequest")


@_attrs_define
class PatchedWatchSettingsInputRequest:
    """
    Attributes:
        notify (list[NotifyEnum] | Unset): Where a change (links the page never had before) is told: 'inbox' (a short
            brief in the Inbox), plus 'email' and 'push' (Web Push to your registered devices) on top of it; [] for no
            notice (the watch still feeds briefs that use it). Each change is told once per channel.
        check_interval_minutes (int | Unset): How often the page is checked, 30-1440 minutes, and at least your plan's
            minimum (free: 60).
    """

    notify: list[NotifyEnum] | Unset = UNSET
    check_interval_minutes: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        notify: list[str] | Unset = UNSET
        if not isinstance(self.notify, Unset):
            notify = []
            for notify_item_data in self.notify:
                notify_item = notify_item_data.value
                notify.append(notify_item)

        check_interval_minutes = self.check_interval_minutes

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if notify is not UNSET:
            field_dict["notify"] = notify
        if check_interval_minutes is not UNSET:
            field_dict["check_interval_minutes"] = check_interval_minutes

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _notify = d.pop("notify", UNSET)
        notify: list[NotifyEnum] | Unset = UNSET
        if _notify is not UNSET:
            notify = []
            for notify_item_data in _notify:
                notify_item = NotifyEnum(notify_item_data)

                notify.append(notify_item)

        check_interval_minutes = d.pop("check_interval_minutes", UNSET)

        patched_watch_settings_input_request = cls(
            notify=notify,
            check_interval_minutes=check_interval_minutes,
        )

        return patched_watch_settings_input_request
