from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.run_status_counts import RunStatusCounts


T = TypeVar("T", bound="Runs")


@_attrs_define
class Runs:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            last_24h (RunStatusCounts): Runs by status.
            all_time (RunStatusCounts): Runs by status.
    """

    last_24h: RunStatusCounts
    all_time: RunStatusCounts
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        last_24h = self.last_24h.to_dict()

        all_time = self.all_time.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "last_24h": last_24h,
                "all_time": all_time,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.run_status_counts import RunStatusCounts  # noqa: PLC0415

        d = dict(src_dict)
        last_24h = RunStatusCounts.from_dict(d.pop("last_24h"))

        all_time = RunStatusCounts.from_dict(d.pop("all_time"))

        runs = cls(
            last_24h=last_24h,
            all_time=all_time,
        )

        runs.additional_properties = d
        return runs

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
