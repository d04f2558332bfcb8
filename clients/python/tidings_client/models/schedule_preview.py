from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SchedulePreview")


@_attrs_define
class SchedulePreview:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            next_runs (list[datetime.datetime]): ISO 8601 instants in UTC
            next_runs_display (list[str]): The same runs as the product shows times (config/moments.py): local, with zone
            description (str): Its description, in plain words.
    """

    next_runs: list[datetime.datetime]
    next_runs_display: list[str]
    description: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        next_runs = []
        for next_runs_item_data in self.next_runs:
            next_runs_item = next_runs_item_data.isoformat()
            next_runs.append(next_runs_item)

        next_runs_display = self.next_runs_display

        description = self.description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "next_runs": next_runs,
                "next_runs_display": next_runs_display,
                "description": description,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        next_runs = []
        _next_runs = d.pop("next_runs")
        for next_runs_item_data in _next_runs:
            next_runs_item = datetime.datetime.fromisoformat(next_runs_item_data)

            next_runs.append(next_runs_item)

        next_runs_display = cast(list[str], d.pop("next_runs_display"))

        description = d.pop("description")

        schedule_preview = cls(
            next_runs=next_runs,
            next_runs_display=next_runs_display,
            description=description,
        )

        schedule_preview.additional_properties = d
        return schedule_preview

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
