from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="AppriseRoutesInputRequest")


@_attrs_define
class AppriseRoutesInputRequest:
    """
    Attributes:
        targets (list[int]): The ids of your Apprise targets to notify (an empty list: none).
    """

    targets: list[int]

    def to_dict(self) -> dict[str, Any]:
        targets = self.targets

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "targets": targets,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        targets = cast(list[int], d.pop("targets"))

        apprise_routes_input_request = cls(
            targets=targets,
        )

        return apprise_routes_input_request
