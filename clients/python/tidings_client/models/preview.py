from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.preview_item import PreviewItem


T = TypeVar("T", bound="Preview")


@_attrs_define
class Preview:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            candidates_count (int): How many items were considered.
            above_min_score (int): How many items scored at least `min_score`.
            dedup_skipped (int): How many were left out as already delivered to you.
            selected (list[PreviewItem]): The items a run would deliver now.
            empty_reason (str): Why nothing was delivered; empty when something was.
            interests (list[str]): The interests the preview matched.
            advice (str): When nothing would be delivered: why, and what to change (in the asker's language).
    """

    candidates_count: int
    above_min_score: int
    dedup_skipped: int
    selected: list[PreviewItem]
    empty_reason: str
    interests: list[str]
    advice: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        candidates_count = self.candidates_count

        above_min_score = self.above_min_score

        dedup_skipped = self.dedup_skipped

        selected = []
        for selected_item_data in self.selected:
            selected_item = selected_item_data.to_dict()
            selected.append(selected_item)

        empty_reason = self.empty_reason

        interests = self.interests

        advice = self.advice

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "candidates_count": candidates_count,
                "above_min_score": above_min_score,
                "dedup_skipped": dedup_skipped,
                "selected": selected,
                "empty_reason": empty_reason,
                "interests": interests,
                "advice": advice,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.preview_item import PreviewItem  # noqa: PLC0415

        d = dict(src_dict)
        candidates_count = d.pop("candidates_count")

        above_min_score = d.pop("above_min_score")

        dedup_skipped = d.pop("dedup_skipped")

        selected = []
        _selected = d.pop("selected")
        for selected_item_data in _selected:
            selected_item = PreviewItem.from_dict(selected_item_data)

            selected.append(selected_item)

        empty_reason = d.pop("empty_reason")

        interests = cast(list[str], d.pop("interests"))

        advice = d.pop("advice")

        preview = cls(
            candidates_count=candidates_count,
            above_min_score=above_min_score,
            dedup_skipped=dedup_skipped,
            selected=selected,
            empty_reason=empty_reason,
            interests=interests,
            advice=advice,
        )

        preview.additional_properties = d
        return preview

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
