from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.transfer_scope_enum import TransferScopeEnum

T = TypeVar("T", bound="TransferCodeInputRequest")


@_attrs_define
class TransferCodeInputRequest:
    """
    Attributes:
        scope (TransferScopeEnum): * `saved` - Saved items only
            * `saved_recent` - Saved items and recent briefs
            * `everything` - Everything
    """

    scope: TransferScopeEnum

    def to_dict(self) -> dict[str, Any]:
        scope = self.scope.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "scope": scope,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        scope = TransferScopeEnum(d.pop("scope"))

        transfer_code_input_request = cls(
            scope=scope,
        )

        return transfer_code_input_request
