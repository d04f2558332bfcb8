from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AppriseTargetInputRequest")


@_attrs_define
class AppriseTargetInputRequest:
    """
    Attributes:
        url (str): An Apprise URL; never shown back.
        label (str | Unset): A name for it, yours to choose.
    """

    url: str
    label: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        label: str | Unset
        if isinstance(self.label, Unset):
            label = UNSET
        else:
            label = self.label

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if label is not UNSET:
            field_dict["label"] = label

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        def _parse_label(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        label = _parse_label(d.pop("label", UNSET))

        apprise_target_input_request = cls(
            url=url,
            label=label,
        )

        return apprise_target_input_request
