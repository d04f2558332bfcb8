from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="InterestsQueryRequest")


@_attrs_define
class InterestsQueryRequest:
    """
    Attributes:
        topic (str): What to keep up with, in plain words
        locale (str | Unset): Language of the reader (en, zh-hans, ja, ko); default: the asker's UI language
    """

    topic: str
    locale: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        topic = self.topic

        locale = self.locale

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "topic": topic,
            }
        )
        if locale is not UNSET:
            field_dict["locale"] = locale

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        topic = d.pop("topic")

        locale = d.pop("locale", UNSET)

        interests_query_request = cls(
            topic=topic,
            locale=locale,
        )

        return interests_query_request
