from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.export_source_type import ExportSourceType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.export_source_config import ExportSourceConfig


T = TypeVar("T", bound="ExportSource")


@_attrs_define
class ExportSource:
    """
    Attributes:
        id (int): Its id: a positive whole number, stable, unique among its kind.
        type_ (ExportSourceType): What kind of source it is (one of the values listed).
        config (ExportSourceConfig): feed/page: {url}; list: {url, selector, render}; crawl: {url, include, exclude,
            max_depth, limit}; search: {provider, query}
        url (str): Its address (http or https).
        title (str): Its title, as its source gives it.
        in_library (bool): Whether the source is in the account's library (else only used by a subscription).
        label (str): The user's own name for it.
        folder (str | Unset): The name of the library folder it is in ("" for none; optional: older documents have
            none).
    """

    id: int
    type_: ExportSourceType
    config: ExportSourceConfig
    url: str
    title: str
    in_library: bool
    label: str
    folder: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_.value

        config = self.config.to_dict()

        url = self.url

        title = self.title

        in_library = self.in_library

        label = self.label

        folder = self.folder

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
                "config": config,
                "url": url,
                "title": title,
                "in_library": in_library,
                "label": label,
            }
        )
        if folder is not UNSET:
            field_dict["folder"] = folder

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.export_source_config import ExportSourceConfig  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        type_ = ExportSourceType(d.pop("type"))

        config = ExportSourceConfig.from_dict(d.pop("config"))

        url = d.pop("url")

        title = d.pop("title")

        in_library = d.pop("in_library")

        label = d.pop("label")

        folder = d.pop("folder", UNSET)

        export_source = cls(
            id=id,
            type_=type_,
            config=config,
            url=url,
            title=title,
            in_library=in_library,
            label=label,
            folder=folder,
        )

        return export_source
