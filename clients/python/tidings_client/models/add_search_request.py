from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.provider_enum import ProviderEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="AddSearchRequest")


@_attrs_define
class AddSearchRequest:
    """Shape only: the rules (and their messages) are ingest.search.service.clean_search_input.

    Attributes:
        query (str): Words or phrases; alternatives separated by commas.
        provider (ProviderEnum | Unset): * `pool` - pool
            * `searxng` - searxng
            * `naver_news` - naver_news Default: ProviderEnum.POOL.
    """

    query: str
    provider: ProviderEnum | Unset = ProviderEnum.POOL

    def to_dict(self) -> dict[str, Any]:
        query = self.query

        provider: str | Unset = UNSET
        if not isinstance(self.provider, Unset):
            provider = self.provider.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "query": query,
            }
        )
        if provider is not UNSET:
            field_dict["provider"] = provider

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        query = d.pop("query")

        _provider = d.pop("provider", UNSET)
        provider: ProviderEnum | Unset
        if isinstance(_provider, Unset):
            provider = UNSET
        else:
            provider = ProviderEnum(_provider)

        add_search_request = cls(
            query=query,
            provider=provider,
        )

        return add_search_request
