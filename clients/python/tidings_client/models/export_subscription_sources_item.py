from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ExportSubscriptionSourcesItem")


@_attrs_define
class ExportSubscriptionSourcesItem:
    """
    Attributes:
        source (int): A source id of this document.
        enabled (bool):
        weight (float):
    """

    source: int
    enabled: bool
    weight: float

    def to_dict(self) -> dict[str, Any]:
        source = self.source

        enabled = self.enabled

        weight = self.weight

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "source": source,
                "enabled": enabled,
                "weight": weight,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        source = d.pop("source")

        enabled = d.pop("enabled")

        weight = d.pop("weight")

        export_subscription_sources_item = cls(
            source=source,
            enabled=enabled,
            weight=weight,
        )

        return export_subscription_sources_item
