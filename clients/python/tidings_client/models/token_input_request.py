from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.token_scope_enum import TokenScopeEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="TokenInputRequest")


@_attrs_define
class TokenInputRequest:
    """
    Attributes:
        name (str): What will use it, e.g. a script's name.
        scope (TokenScopeEnum | Unset): * `write` - Read and write
            * `read` - Read only
            * `reader` - Reading apps (Google Reader, Fever) Default: TokenScopeEnum.READ.
    """

    name: str
    scope: TokenScopeEnum | Unset = TokenScopeEnum.READ

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        scope: str | Unset = UNSET
        if not isinstance(self.scope, Unset):
            scope = self.scope.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if scope is not UNSET:
            field_dict["scope"] = scope

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        _scope = d.pop("scope", UNSET)
        scope: TokenScopeEnum | Unset
        if isinstance(_scope, Unset):
            scope = UNSET
        else:
            scope = TokenScopeEnum(_scope)

        token_input_request = cls(
            name=name,
            scope=scope,
        )

        return token_input_request
