from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedMoveSourceRequest")


@_attrs_define
class PatchedMoveSourceRequest:
    """
    Attributes:
        folder (int | None | Unset): One of your folders' ids, or null for none.
    """

    folder: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        folder: int | None | Unset
        if isinstance(self.folder, Unset):
            folder = UNSET
        else:
            folder = self.folder

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if folder is not UNSET:
            field_dict["folder"] = folder

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_folder(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        folder = _parse_folder(d.pop("folder", UNSET))

        patched_move_source_request = cls(
            folder=folder,
        )

        return patched_move_source_request
