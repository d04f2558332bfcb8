from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="WebhookBriefPublishedDataOverview")


@_attrs_define
class WebhookBriefPublishedDataOverview:
    """
    Attributes:
        markdown (str):
        generator (str): `template`, or the model that wrote it.
    """

    markdown: str
    generator: str

    def to_dict(self) -> dict[str, Any]:
        markdown = self.markdown

        generator = self.generator

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "markdown": markdown,
                "generator": generator,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        markdown = d.pop("markdown")

        generator = d.pop("generator")

        webhook_brief_published_data_overview = cls(
            markdown=markdown,
            generator=generator,
        )

        return webhook_brief_published_data_overview
