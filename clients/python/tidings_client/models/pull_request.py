from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PullRequest")


@_attrs_define
class PullRequest:
    """
    Attributes:
        instance (str): The other Tidings' address, https://…
        code (str): A transfer code made there, tx_…
    """

    instance: str
    code: str

    def to_dict(self) -> dict[str, Any]:
        instance = self.instance

        code = self.code

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "instance": instance,
                "code": code,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        instance = d.pop("instance")

        code = d.pop("code")

        pull_request = cls(
            instance=instance,
            code=code,
        )

        return pull_request
