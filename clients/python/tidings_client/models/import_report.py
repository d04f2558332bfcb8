from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.outline_result import OutlineResult


T = TypeVar("T", bound="ImportReport")


@_attrs_define
class ImportReport:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            added (int): What was added.
            already_in_library (int): What you already had.
            duplicate (int): Outlines already in the file once.
            refused (int): Outlines refused, each with the reason.
            outlines (list[OutlineResult]): Every outline of the file and what became of it.
    """

    added: int
    already_in_library: int
    duplicate: int
    refused: int
    outlines: list[OutlineResult]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        added = self.added

        already_in_library = self.already_in_library

        duplicate = self.duplicate

        refused = self.refused

        outlines = []
        for outlines_item_data in self.outlines:
            outlines_item = outlines_item_data.to_dict()
            outlines.append(outlines_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "added": added,
                "already_in_library": already_in_library,
                "duplicate": duplicate,
                "refused": refused,
                "outlines": outlines,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.outline_result import OutlineResult  # noqa: PLC0415

        d = dict(src_dict)
        added = d.pop("added")

        already_in_library = d.pop("already_in_library")

        duplicate = d.pop("duplicate")

        refused = d.pop("refused")

        outlines = []
        _outlines = d.pop("outlines")
        for outlines_item_data in _outlines:
            outlines_item = OutlineResult.from_dict(outlines_item_data)

            outlines.append(outlines_item)

        import_report = cls(
            added=added,
            already_in_library=already_in_library,
            duplicate=duplicate,
            refused=refused,
            outlines=outlines,
        )

        import_report.additional_properties = d
        return import_report

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
