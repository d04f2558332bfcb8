from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.pack_source import PackSource


T = TypeVar("T", bound="Pack")


@_attrs_define
class Pack:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            key (str): Its key, as paths name it.
            name (str): Its name, as you gave it.
            description (str): Its description, in plain words.
            language (str): The language of its sources (e.g. `en`).
            feed_count (int): How many feeds it holds.
            source_count (int): How many sources it holds.
            in_library (int): How many of its sources you already have.
            installed (bool): Whether you have installed it.
            sources (list[PackSource]): Sources.
    """

    key: str
    name: str
    description: str
    language: str
    feed_count: int
    source_count: int
    in_library: int
    installed: bool
    sources: list[PackSource]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        key = self.key

        name = self.name

        description = self.description

        language = self.language

        feed_count = self.feed_count

        source_count = self.source_count

        in_library = self.in_library

        installed = self.installed

        sources = []
        for sources_item_data in self.sources:
            sources_item = sources_item_data.to_dict()
            sources.append(sources_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "key": key,
                "name": name,
                "description": description,
                "language": language,
                "feed_count": feed_count,
                "source_count": source_count,
                "in_library": in_library,
                "installed": installed,
                "sources": sources,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pack_source import PackSource  # noqa: PLC0415

        d = dict(src_dict)
        key = d.pop("key")

        name = d.pop("name")

        description = d.pop("description")

        language = d.pop("language")

        feed_count = d.pop("feed_count")

        source_count = d.pop("source_count")

        in_library = d.pop("in_library")

        installed = d.pop("installed")

        sources = []
        _sources = d.pop("sources")
        for sources_item_data in _sources:
            sources_item = PackSource.from_dict(sources_item_data)

            sources.append(sources_item)

        pack = cls(
            key=key,
            name=name,
            description=description,
            language=language,
            feed_count=feed_count,
            source_count=source_count,
            in_library=in_library,
            installed=installed,
            sources=sources,
        )

        pack.additional_properties = d
        return pack

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
