from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WatchChange")


@_attrs_define
class WatchChange:
    """
    Attributes:
        checked_at (datetime.datetime): When the page was read.
        notified (bool): Whether the owner was told of it.
        added_lines (int): Lines new since the check before.
        removed_lines (int): Lines gone since the check before.
        baseline (bool): A new starting point after a change of the settings, not a page change.
        diff (str): The unified diff from the check before (200 lines).
    """

    checked_at: datetime.datetime
    notified: bool
    added_lines: int
    removed_lines: int
    baseline: bool
    diff: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        checked_at = self.checked_at.isoformat()

        notified = self.notified

        added_lines = self.added_lines

        removed_lines = self.removed_lines

        baseline = self.baseline

        diff = self.diff

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "checked_at": checked_at,
                "notified": notified,
                "added_lines": added_lines,
                "removed_lines": removed_lines,
                "baseline": baseline,
                "diff": diff,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        checked_at = datetime.datetime.fromisoformat(d.pop("checked_at"))

        notified = d.pop("notified")

        added_lines = d.pop("added_lines")

        removed_lines = d.pop("removed_lines")

        baseline = d.pop("baseline")

        diff = d.pop("diff")

        watch_change = cls(
            checked_at=checked_at,
            notified=notified,
            added_lines=added_lines,
            removed_lines=removed_lines,
            baseline=baseline,
            diff=diff,
        )

        watch_change.additional_properties = d
        return watch_change

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
