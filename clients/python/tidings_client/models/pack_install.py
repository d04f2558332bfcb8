from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.library_source import LibrarySource


T = TypeVar("T", bound="PackInstall")


@_attrs_define
class PackInstall:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            pack (str): The pack's key.
            added (list[LibrarySource]): What was added.
            already_in_library (list[LibrarySource]): What you already had.
    """

    pack: str
    added: list[LibrarySource]
    already_in_library: list[LibrarySource]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        pack = self.pack

        added = []
        for added_item_data in self.added:
            added_item = added_item_data.to_dict()
            added.append(added_item)

        already_in_library = []
        for already_in_library_item_data in self.already_in_library:
            already_in_library_item = already_in_library_item_data.to_dict()
            already_in_library.append(already_in_library_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "pack": pack,
                "added": added,
                "already_in_library": already_in_library,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.library_source import LibrarySource  # noqa: PLC0415

        d = dict(src_dict)
        pack = d.pop("pack")

        added = []
        _added = d.pop("added")
        for added_item_data in _added:
            added_item = LibrarySource.from_dict(added_item_data)

            added.append(added_item)

        already_in_library = []
        _already_in_library = d.pop("already_in_library")
        for already_in_library_item_data in _already_in_library:
            already_in_library_item = LibrarySource.from_dict(
                already_in_library_item_data
            )

            already_in_library.append(already_in_library_item)

        pack_install = cls(
            pack=pack,
            added=added,
            already_in_library=already_in_library,
        )

        pack_install.additional_properties = d
        return pack_install

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
