from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.token_scope_enum import TokenScopeEnum

T = TypeVar("T", bound="Account")


@_attrs_define
class Account:
    """
    Attributes:
        id (int): Its id: a positive whole number, stable, unique among its kind.
        email (str): The account's e-mail address (its sign-in).
        token_scope (None | TokenScopeEnum): The scope of the token used (null without one).

            * `write` - Read and write
            * `read` - Read only
            * `reader` - Reading apps (Google Reader, Fever)
        language (str): `auto` (the browser's) or a language code.
        timezone (str): IANA name
    """

    id: int
    email: str
    token_scope: None | TokenScopeEnum
    language: str
    timezone: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        email = self.email

        token_scope: None | str
        if isinstance(self.token_scope, TokenScopeEnum):
            token_scope = self.token_scope.value
        else:
            token_scope = self.token_scope

        language = self.language

        timezone = self.timezone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "email": email,
                "token_scope": token_scope,
                "language": language,
                "timezone": timezone,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        email = d.pop("email")

        def _parse_token_scope(data: object) -> None | TokenScopeEnum:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                token_scope_type_0 = TokenScopeEnum(data)

                return token_scope_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TokenScopeEnum, data)

        token_scope = _parse_token_scope(d.pop("token_scope"))

        language = d.pop("language")

        timezone = d.pop("timezone")

        account = cls(
            id=id,
            email=email,
            token_scope=token_scope,
            language=language,
            timezone=timezone,
        )

        account.additional_properties = d
        return account

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
