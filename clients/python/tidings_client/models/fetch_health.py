from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.fetch_outcome_counts import FetchOutcomeCounts
    from ..models.source_status_counts import SourceStatusCounts


T = TypeVar("T", bound="FetchHealth")


@_attrs_define
class FetchHealth:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            sources (SourceStatusCounts): Sources by status; `failing`: with at least one failure in a row.
            fetches_24h (FetchOutcomeCounts): Fetches by outcome.
    """

    sources: SourceStatusCounts
    fetches_24h: FetchOutcomeCounts
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        sources = self.sources.to_dict()

        fetches_24h = self.fetches_24h.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "sources": sources,
                "fetches_24h": fetches_24h,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fetch_outcome_counts import FetchOutcomeCounts  # noqa: PLC0415
        from ..models.source_status_counts import SourceStatusCounts  # noqa: PLC0415

        d = dict(src_dict)
        sources = SourceStatusCounts.from_dict(d.pop("sources"))

        fetches_24h = FetchOutcomeCounts.from_dict(d.pop("fetches_24h"))

        fetch_health = cls(
            sources=sources,
            fetches_24h=fetches_24h,
        )

        fetch_health.additional_properties = d
        return fetch_health

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
