from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="FetchOutcomeCounts")


@_attrs_define
class FetchOutcomeCounts:
    """Fetches by outcome.

    Attributes:
        ok (int): How many fetches succeeded.
        not_modified (int): How many fetches answered 304 (nothing new).
        error (int): Why it failed; empty or null when it did not.
    """

    ok: int
    not_modified: int
    error: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ok = self.ok

        not_modified = self.not_modified

        error = self.error

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ok": ok,
                "not_modified": not_modified,
                "error": error,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        ok = d.pop("ok")

        not_modified = d.pop("not_modified")

        error = d.pop("error")

        fetch_outcome_counts = cls(
            ok=ok,
            not_modified=not_modified,
            error=error,
        )

        fetch_outcome_counts.additional_properties = d
        return fetch_outcome_counts

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
