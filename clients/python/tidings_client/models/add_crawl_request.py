from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AddCrawlRequest")


@_attrs_define
class AddCrawlRequest:
    """Shape only: the rules (and their messages) live in ingest.crawl.service.clean_crawl_input.

    Attributes:
        url (str): The page to start from (the site's index or blog).
        include (list[str] | Unset): Path patterns to follow, e.g. ["/blog/"]; "*" matches anything. Empty: all.
        exclude (list[str] | Unset): Path patterns never fetched; they win over include.
        max_depth (int | Unset): Links away from the start page, 1 to 5. Default: 2.
        limit (int | Unset): Pages fetched per check, 2 to 500. Default: 50.
    """

    url: str
    include: list[str] | Unset = UNSET
    exclude: list[str] | Unset = UNSET
    max_depth: int | Unset = 2
    limit: int | Unset = 50

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        include: list[str] | Unset = UNSET
        if not isinstance(self.include, Unset):
            include = self.include

        exclude: list[str] | Unset = UNSET
        if not isinstance(self.exclude, Unset):
            exclude = self.exclude

        max_depth = self.max_depth

        limit = self.limit

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if include is not UNSET:
            field_dict["include"] = include
        if exclude is not UNSET:
            field_dict["exclude"] = exclude
        if max_depth is not UNSET:
            field_dict["max_depth"] = max_depth
        if limit is not UNSET:
            field_dict["limit"] = limit

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        include = cast(list[str], d.pop("include", UNSET))

        exclude = cast(list[str], d.pop("exclude", UNSET))

        max_depth = d.pop("max_depth", UNSET)

        limit = d.pop("limit", UNSET)

        add_crawl_request = cls(
            url=url,
            include=include,
            exclude=exclude,
            max_depth=max_depth,
            limit=limit,
        )

        return add_crawl_request
